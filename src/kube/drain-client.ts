import { Watch, type CoreV1Api, type KubeConfig, type PolicyV1Api } from '@kubernetes/client-node';
import type { KubeClient } from './client.js';

/** The API clients the drain's writes and watches use, all bound to one target. */
export interface DrainClient {
  readonly kubeConfig: KubeConfig;
  readonly core: CoreV1Api;
  readonly policy: PolicyV1Api;
  readonly watch: Watch;
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
  };
}
