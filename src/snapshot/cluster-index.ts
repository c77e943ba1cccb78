import type { V1LabelSelector, V1Node, V1Pod, V1PodDisruptionBudget } from '@kubernetes/client-node';
import { LabelIndex, matchesLabelSelector } from './label-selector.js';
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

/** A new cluster state from an old one: pods gone and added, Node objects replaced (by name), the budgets. */
export interface SnapshotChanges {
  /** Pods of the snapshot (the same objects) that are gone. */
  readonly removedPods: readonly V1Pod[];
  /** New pods, appended after the snapshot's own. */
  readonly addedPods: readonly V1Pod[];
  /** Node objects that replace the snapshot's node of the same name. */
  readonly replacedNodes: readonly V1Node[];
  /** The whole new list of budgets. */
  readonly pdbs: readonly V1PodDisruptionBudget[];
}

/** Each snapshot's index (ClusterIndex.of). */
const indexes = new WeakMap<Snapshot, ClusterIndex>();

/**
 * Indexes built once per snapshot so that no rule scans all pods per pod: pods by node, by namespace
 * and by (namespace, label key, label value); budgets by namespace; nodes and owners by name.
 */
export class ClusterIndex {
  /**
   * The snapshot's index, built the first time it is asked for: on a big cluster the index and the
   * scheduler's cache it carries (plan/scheduling/scheduler-cache.ts) are most of a plan's work, and a plan
   * changes neither (an audit plans every node from one), so every plan of one snapshot shares it.
   */
  static of(snapshot: Snapshot): ClusterIndex {
    let index = indexes.get(snapshot);
    if (!index) indexes.set(snapshot, (index = new ClusterIndex(snapshot)));
    return index;
  }

  readonly snapshot: Snapshot;
  private readonly nodesByName: Map<string, V1Node>;
  private readonly podsByNode: Map<string, V1Pod[]>;
  private readonly podsByNamespace: Map<string, V1Pod[]>;
  private readonly podsByLabel: Map<string, V1Pod[]>;
  private readonly pdbsByNamespace = new Map<string, V1PodDisruptionBudget[]>();
  /** Per namespace, its budgets with a selector, indexed by a label it needs: built on first use. */
  private readonly pdbsByLabel = new Map<string, LabelIndex<V1PodDisruptionBudget>>();
  /** pdbsForPod's answers: a pool plan asks again for the same pods in plan after plan of one state. */
  private readonly pdbsOfPod = new WeakMap<V1Pod, readonly V1PodDisruptionBudget[]>();
  private readonly owners: Map<string, OwnerObject>;
  /** Per namespace, its pods by controller uid: built on first use. */
  private readonly controlled = new Map<string, Map<string, V1Pod[]>>();

  /** `from`: the index of the state `snapshot` was derived from (see withChanges), whose maps it copies. */
  constructor(snapshot: Snapshot, from?: { readonly index: ClusterIndex; readonly changes: SnapshotChanges }) {
    this.snapshot = snapshot;
    for (const pdb of snapshot.pdbs) push(this.pdbsByNamespace, pdb.metadata?.namespace ?? 'default', pdb);
    if (from) {
      const { index, changes } = from;
      this.nodesByName = new Map(index.nodesByName);
      for (const node of changes.replacedNodes) this.nodesByName.set(node.metadata?.name ?? '', node);
      this.podsByNode = new Map(index.podsByNode);
      this.podsByNamespace = new Map(index.podsByNamespace);
      this.podsByLabel = new Map(index.podsByLabel);
      this.owners = index.owners;
      this.movePods(changes);
      return;
    }
    this.nodesByName = new Map();
    this.podsByNode = new Map();
    this.podsByNamespace = new Map();
    this.podsByLabel = new Map();
    this.owners = new Map();
    for (const node of snapshot.nodes) this.nodesByName.set(node.metadata?.name ?? '', node);
    for (const pod of snapshot.pods) this.forEachList(pod, (map, key) => push(map, key, pod));
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

  /**
   * The cluster once `changes` are applied, indexed without walking every pod again: the lists the
   * changed pods are in are rebuilt, every other one is shared with this index (neither changes after).
   * Gives what `new ClusterIndex(snapshot)` of the same new snapshot would: lists keep the snapshot's order.
   */
  withChanges(changes: SnapshotChanges): ClusterIndex {
    const removed = new Set(changes.removedPods);
    const replaced = new Map(changes.replacedNodes.map((n) => [n.metadata?.name ?? '', n]));
    const snapshot: Snapshot = {
      ...this.snapshot,
      nodes: this.snapshot.nodes.map((n) => replaced.get(n.metadata?.name ?? '') ?? n),
      pods: [...this.snapshot.pods.filter((pod) => !removed.has(pod)), ...changes.addedPods],
      pdbs: changes.pdbs,
    };
    return new ClusterIndex(snapshot, { index: this, changes });
  }

  /** Every list of the index a pod belongs in: by namespace, by node when bound, by each label. */
  private forEachList(pod: V1Pod, visit: (map: Map<string, V1Pod[]>, key: string) => void): void {
    const ns = pod.metadata?.namespace ?? 'default';
    visit(this.podsByNamespace, ns);
    if (pod.spec?.nodeName) visit(this.podsByNode, pod.spec.nodeName);
    for (const [k, v] of Object.entries(pod.metadata?.labels ?? {})) visit(this.podsByLabel, labelKey(ns, k, v));
  }

  /** Rebuilds the (copied) maps' lists that `changes` touch: removed pods filtered out, added ones appended. */
  private movePods(changes: SnapshotChanges): void {
    const removed = new Set(changes.removedPods);
    const touched = new Map<Map<string, V1Pod[]>, Set<string>>();
    const touch = (map: Map<string, V1Pod[]>, key: string) => {
      const keys = touched.get(map) ?? new Set<string>();
      touched.set(map, keys.add(key));
    };
    for (const pod of changes.removedPods) this.forEachList(pod, touch);
    // Lists made here; any other list is still the old index's and is copied before it changes.
    const own = new Set<V1Pod[]>();
    for (const [map, keys] of touched) {
      for (const key of keys) {
        const kept = (map.get(key) ?? []).filter((pod) => !removed.has(pod));
        own.add(kept);
        map.set(key, kept);
      }
    }
    for (const pod of changes.addedPods) {
      this.forEachList(pod, (map, key) => {
        const list = map.get(key);
        if (list && own.has(list)) return void list.push(pod);
        const copy = list ? [...list, pod] : [pod];
        own.add(copy);
        map.set(key, copy);
      });
    }
    // A list left empty goes, as a fresh index would never have made it.
    for (const [map, keys] of touched) for (const key of keys) if (map.get(key)?.length === 0) map.delete(key);
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
    let pdbs = this.pdbsOfPod.get(pod);
    if (!pdbs) {
      const ns = pod.metadata?.namespace ?? 'default';
      let budgets = this.pdbsByLabel.get(ns);
      if (!budgets) {
        const selecting = this.pdbsInNamespace(ns).filter((pdb) => pdb.spec?.selector != null);
        this.pdbsByLabel.set(ns, (budgets = new LabelIndex(selecting, (pdb) => pdb.spec!.selector!.matchLabels ?? {})));
      }
      pdbs = budgets
        .mayMatch(pod.metadata?.labels)
        .filter((pdb) => matchesLabelSelector(pod.metadata?.labels, pdb.spec!.selector!));
      this.pdbsOfPod.set(pod, pdbs);
    }
    return pdbs;
  }

  /** Pods of a namespace whose controller (owner reference marked controller) has this uid. */
  podsControlledBy(namespace: string, uid: string): readonly V1Pod[] {
    let byUid = this.controlled.get(namespace);
    if (!byUid) {
      byUid = new Map();
      for (const pod of this.podsInNamespace(namespace)) {
        const ref = pod.metadata?.ownerReferences?.find((r) => r.controller === true);
        if (ref?.uid) push(byUid, ref.uid, pod);
      }
      this.controlled.set(namespace, byUid);
    }
    return byUid.get(uid) ?? [];
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
