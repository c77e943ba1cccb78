import {
  AutoscalingV2Api,
  PatchStrategy,
  Watch,
  setHeaderOptions,
  type AppsV1Api,
  type CoreV1Api,
  type KubeConfig,
  type PolicyV1Api,
} from '@kubernetes/client-node';
import { makeApi, type KubeClient } from './client.js';
import type { NodeCalls } from './cordon.js';

/** The API clients the drain's writes and watches use, all bound to one target. */
export interface DrainClient {
  readonly kubeConfig: KubeConfig;
  readonly core: CoreV1Api;
  readonly policy: PolicyV1Api;
  readonly watch: Watch;
  /** Deployments, for --surge. */
  readonly apps: AppsV1Api;
  /** HorizontalPodAutoscalers, read before a surge. */
  readonly autoscaling: AutoscalingV2Api;
  /** The node calls of a cordon (kube/cordon.ts) over `core`. */
  readonly nodes: NodeCalls;
}

/**
 * The drain's clients from the shared ones (kube/client.ts: context, credentials, --request-timeout), plus
 * a Watch on the same kubeconfig (a watch is a long request: --request-timeout does not apply to it).
 */
export function drainClientFor(client: KubeClient): DrainClient {
  return {
    kubeConfig: client.target.kubeConfig,
    core: client.core,
    policy: client.policy,
    watch: new Watch(client.target.kubeConfig),
    apps: client.apps,
    autoscaling: makeApi(client.target, AutoscalingV2Api),
    nodes: nodeCalls(client.core),
  };
}

function nodeCalls(core: CoreV1Api): NodeCalls {
  return {
    readNode: (name) => core.readNode({ name }),
    mergePatchNode(name, patch, dryRun) {
      return core.patchNode(
        { name, body: patch, ...(dryRun ? { dryRun: 'All' } : {}) },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
    },
    async listNodeNames(labelSelector) {
      const list = await core.listNode({ labelSelector });
      return list.items.map((node) => node.metadata?.name ?? '');
    },
  };
}
