import type { V1LabelSelector, V1Node, V1Pod, V1PodDisruptionBudget } from '@kubernetes/client-node';
import { matchesLabelSelector } from './label-selector.js';
import type { Snapshot } from './types.js';

/** Any object with metadata, as the owner lookups return them. */
export interface OwnerObject {
  readonly kind: string;
  readonly metadata?: {
    readonly name?: string;
    readonly namespace?: string;
    readonly uid?: string;
    readonly ownerReferences?: ReadonlyArray<{ kind: string; name: string; controller?: boolean; apiVersion: string }>;
  };
  readonly spec?: unknown;
  readonly status?: unknown;
}

const labelKey = (namespace: string, key: string, value: string) => `${namespace}\u0000${key}\u0000${value}`;

/**
 * Indexes built once per snapshot so that no rule scans all pods per pod: pods by node, by namespace
 * and by (namespace, label key, label value); budgets by namespace; nodes and owners by name.
 */
export class ClusterIndex {
  readonly snapshot: Snapshot;
  private readonly nodesByName = new Map<string, V1Node>();
  private readonly podsByNode = new Map<string, V1Pod[]>();
  private readonly podsByNamespace = new Map<string, V1Pod[]>();
  private readonly podsByLabel = new Map<string, V1Pod[]>();
  private readonly pdbsByNamespace = new Map<string, V1PodDisruptionBudget[]>();
  private readonly owners = new Map<string, OwnerObject>();

  constructor(snapshot: Snapshot) {
    this.snapshot = snapshot;
    for (const node of snapshot.nodes) this.nodesByName.set(node.metadata?.name ?? '', node);
    for (const pod of snapshot.pods) {
      const ns = pod.metadata?.namespace ?? 'default';
      push(this.podsByNamespace, ns, pod);
      if (pod.spec?.nodeName) push(this.podsByNode, pod.spec.nodeName, pod);
      for (const [k, v] of Object.entries(pod.metadata?.labels ?? {})) push(this.podsByLabel, labelKey(ns, k, v), pod);
    }
    for (const pdb of snapshot.pdbs) push(this.pdbsByNamespace, pdb.metadata?.namespace ?? 'default', pdb);
    const kinds: Array<[string, readonly { metadata?: { name?: string; namespace?: string } }[]]> = [
      ['ReplicaSet', snapshot.replicaSets],
      ['Deployment', snapshot.deployments],
      ['StatefulSet', snapshot.statefulSets],
      ['DaemonSet', snapshot.daemonSets],
      ['ReplicationController', snapshot.replicationControllers],
      ['Job', snapshot.jobs],
    ];
    for (const [kind, list] of kinds) {
      for (const obj of list) {
        this.owners.set(ownerKey(kind, obj.metadata?.namespace ?? 'default', obj.metadata?.name ?? ''), {
          ...(obj as object),
          kind,
        } as OwnerObject);
      }
    }
  }

  get nodes(): readonly V1Node[] {
    return this.snapshot.nodes;
  }

  node(name: string): V1Node | undefined {
    return this.nodesByName.get(name);
  }

  podsOnNode(name: string): readonly V1Pod[] {
    return this.podsByNode.get(name) ?? [];
  }

  podsInNamespace(namespace: string): readonly V1Pod[] {
    return this.podsByNamespace.get(namespace) ?? [];
  }

  /**
   * Pods of a namespace that match a structured selector. Uses the label index: candidates come from
   * the smallest posting list among matchLabels (or `In` expressions with one value), then every
   * requirement is checked. An empty selector matches every pod of the namespace.
   */
  podsMatching(namespace: string, selector: V1LabelSelector): readonly V1Pod[] {
    let candidates: readonly V1Pod[] | undefined;
    const consider = (list: readonly V1Pod[]) => {
      if (candidates === undefined || list.length < candidates.length) candidates = list;
    };
    for (const [k, v] of Object.entries(selector.matchLabels ?? {})) {
      consider(this.podsByLabel.get(labelKey(namespace, k, v)) ?? []);
    }
    for (const req of selector.matchExpressions ?? []) {
      if (req.operator === 'In' && req.values?.length === 1) {
        consider(this.podsByLabel.get(labelKey(namespace, req.key, req.values[0]!)) ?? []);
      }
    }
    const pool = candidates ?? this.podsInNamespace(namespace);
    return pool.filter((pod) => matchesLabelSelector(pod.metadata?.labels, selector));
  }

  pdbsInNamespace(namespace: string): readonly V1PodDisruptionBudget[] {
    return this.pdbsByNamespace.get(namespace) ?? [];
  }

  /** The budgets whose selector matches the pod (an empty selector selects every pod of its namespace). */
  pdbsForPod(pod: V1Pod): readonly V1PodDisruptionBudget[] {
    const ns = pod.metadata?.namespace ?? 'default';
    return this.pdbsInNamespace(ns).filter(
      (pdb) => pdb.spec?.selector != null && matchesLabelSelector(pod.metadata?.labels, pdb.spec.selector),
    );
  }

  /** An owner object (ReplicaSet, Deployment, StatefulSet, DaemonSet, ReplicationController, Job) by kind and name. */
  owner(kind: string, namespace: string, name: string): OwnerObject | undefined {
    return this.owners.get(ownerKey(kind, namespace, name));
  }
}

function ownerKey(kind: string, namespace: string, name: string): string {
  return `${kind}/${namespace}/${name}`;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
