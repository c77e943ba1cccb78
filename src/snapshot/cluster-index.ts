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
  /** New pods (withChanges appends them after the snapshot's own). */
  readonly addedPods: readonly V1Pod[];
  /** Node objects that replace the snapshot's node of the same name. */
  readonly replacedNodes: readonly V1Node[];
  /** The whole new list of budgets. */
  readonly pdbs: readonly V1PodDisruptionBudget[];
}

/** Each snapshot's index (ClusterIndex.of). */
const indexes = new WeakMap<Snapshot, ClusterIndex>();

/** The index of the snapshot a later one was made after (ClusterIndex.follows), until the later one's is built. */
const predecessors = new WeakMap<Snapshot, ClusterIndex>();

/** How an index was derived from an earlier one, for the scheduler's cache to derive its own the same way. */
export interface IndexDerivation {
  readonly index: ClusterIndex;
  readonly changes: SnapshotChanges;
}

/** The pods and nodes one index's state differs from another's by (see ClusterIndex's derived constructor). */
export interface PodMoves {
  readonly removed: ReadonlySet<V1Pod>;
  /** In the new snapshot's order. */
  readonly added: readonly V1Pod[];
  readonly replacedNodes: readonly V1Node[];
  /** Each pod's place in the new snapshot, where an added pod is not after every kept one; else null. */
  readonly ordinals: ReadonlyMap<V1Pod, number> | null;
  /** Whether the owner kinds hold the same objects: their map is then shared. */
  readonly sameOwners: boolean;
}

/** The owner kinds the index looks up, by the kind's name in ownerReferences. */
const OWNER_FIELDS = [
  ['ReplicaSet', 'replicaSets'],
  ['Deployment', 'deployments'],
  ['StatefulSet', 'statefulSets'],
  ['DaemonSet', 'daemonSets'],
  ['ReplicationController', 'replicationControllers'],
  ['Job', 'jobs'],
] as const;

/**
 * Past this share of the pods changed, a derived index costs about what a fresh one does: built fresh.
 */
const DERIVE_AT_MOST = 0.25;

/**
 * Indexes built once per snapshot so that no rule scans all pods per pod: pods by node, by namespace
 * and by (namespace, label key, label value); budgets by namespace; nodes and owners by name.
 */
export class ClusterIndex {
  /**
   * The snapshot's index, built the first time it is asked for: on a big cluster the index and the
   * scheduler's cache it carries (plan/scheduling/scheduler-cache.ts) are most of a plan's work, and a plan
   * changes neither (an audit plans every node from one), so every plan of one snapshot shares it. A
   * snapshot that follows an indexed one (ClusterIndex.follows) has its index derived from that one's where
   * it can be (ClusterIndex.following), the same lists in the same order as a fresh build's.
   */
  static of(snapshot: Snapshot): ClusterIndex {
    let index = indexes.get(snapshot);
    if (!index) {
      const before = predecessors.get(snapshot);
      predecessors.delete(snapshot);
      index = (before && ClusterIndex.following(before, snapshot)) ?? new ClusterIndex(snapshot);
      indexes.set(snapshot, index);
    }
    return index;
  }

  /**
   * `next` is a later read of the cluster `previous` was read from, holding the same objects where they did
   * not change (a cache's snapshots): its index may be derived from `previous`'s, if that one was built.
   */
  static follows(next: Snapshot, previous: Snapshot): void {
    const index = indexes.get(previous);
    if (index && !indexes.has(next)) predecessors.set(next, index);
  }

  /**
   * `snapshot`'s index derived from `previous`, whose snapshot it follows: the pods that differ (by object)
   * moved, the nodes that differ replaced. Null where a fresh build is needed or as cheap: the nodes are not
   * the same ones in the same order, the pods both snapshots hold are not in the same order (a relist), or
   * more than a quarter of the pods changed.
   */
  static following(previous: ClusterIndex, snapshot: Snapshot): ClusterIndex | null {
    const before = previous.snapshot;
    if (before.nodes.length !== snapshot.nodes.length) return null;
    const replacedNodes: V1Node[] = [];
    for (let i = 0; i < snapshot.nodes.length; i++) {
      const [was, is] = [before.nodes[i]!, snapshot.nodes[i]!];
      if (was === is) continue;
      if (was.metadata?.name !== is.metadata?.name) return null;
      replacedNodes.push(is);
    }
    const moves = podMoves(before.pods, snapshot.pods);
    if (!moves || moves.removed.size + moves.added.length > DERIVE_AT_MOST * snapshot.pods.length) return null;
    const sameOwners = OWNER_FIELDS.every(([, field]) => sameObjects(before[field], snapshot[field]));
    const index = new ClusterIndex(snapshot, { index: previous, moves: { ...moves, replacedNodes, sameOwners } });
    // The previous index is superseded: it no longer needs what it was derived from (a chain stays one long).
    previous.derivedFrom = undefined;
    index.derivedFrom = {
      index: previous,
      changes: { removedPods: [...moves.removed], addedPods: moves.added, replacedNodes, pdbs: snapshot.pdbs },
    };
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
  /** The index this one was derived from by ClusterIndex.following, until the scheduler's cache takes it. */
  private derivedFrom: IndexDerivation | undefined;

  /** `from`: the index of the state `snapshot` was derived from, whose maps it copies, and how they differ. */
  constructor(snapshot: Snapshot, from?: { readonly index: ClusterIndex; readonly moves: PodMoves }) {
    this.snapshot = snapshot;
    for (const pdb of snapshot.pdbs) push(this.pdbsByNamespace, pdb.metadata?.namespace ?? 'default', pdb);
    if (from) {
      const { index, moves } = from;
      this.nodesByName = new Map(index.nodesByName);
      for (const node of moves.replacedNodes) this.nodesByName.set(node.metadata?.name ?? '', node);
      this.podsByNode = new Map(index.podsByNode);
      this.podsByNamespace = new Map(index.podsByNamespace);
      this.podsByLabel = new Map(index.podsByLabel);
      this.owners = moves.sameOwners ? index.owners : ownersOf(snapshot);
      this.movePods(moves);
      return;
    }
    this.nodesByName = new Map();
    this.podsByNode = new Map();
    this.podsByNamespace = new Map();
    this.podsByLabel = new Map();
    this.owners = ownersOf(snapshot);
    for (const node of snapshot.nodes) this.nodesByName.set(node.metadata?.name ?? '', node);
    for (const pod of snapshot.pods) this.forEachList(pod, (map, key) => push(map, key, pod));
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
    const moves = { removed, added: changes.addedPods, replacedNodes: changes.replacedNodes, ordinals: null };
    return new ClusterIndex(snapshot, { index: this, moves: { ...moves, sameOwners: true } });
  }

  /** How this index was derived from an earlier one (ClusterIndex.following); forgotten once asked. */
  takeDerivation(): IndexDerivation | undefined {
    const derivation = this.derivedFrom;
    this.derivedFrom = undefined;
    return derivation;
  }

  /** Every list of the index a pod belongs in: by namespace, by node when bound, by each label. */
  private forEachList(pod: V1Pod, visit: (map: Map<string, V1Pod[]>, key: string) => void): void {
    const ns = pod.metadata?.namespace ?? 'default';
    visit(this.podsByNamespace, ns);
    if (pod.spec?.nodeName) visit(this.podsByNode, pod.spec.nodeName);
    for (const [k, v] of Object.entries(pod.metadata?.labels ?? {})) visit(this.podsByLabel, labelKey(ns, k, v));
  }

  /**
   * Rebuilds the (copied) maps' lists the moved pods touch: removed pods filtered out, added ones put in
   * the snapshot's order (after the kept ones, or by their places where `ordinals` has them).
   */
  private movePods(moves: PodMoves): void {
    const touched = new Map<Map<string, V1Pod[]>, Set<string>>();
    const touch = (map: Map<string, V1Pod[]>, key: string) => {
      const keys = touched.get(map) ?? new Set<string>();
      touched.set(map, keys.add(key));
    };
    for (const pod of moves.removed) this.forEachList(pod, touch);
    // Lists made here; any other list is still the old index's and is copied before it changes.
    const own = new Set<V1Pod[]>();
    for (const [map, keys] of touched) {
      for (const key of keys) {
        const kept = (map.get(key) ?? []).filter((pod) => !moves.removed.has(pod));
        own.add(kept);
        map.set(key, kept);
      }
    }
    const grown = new Set<V1Pod[]>();
    for (const pod of moves.added) {
      this.forEachList(pod, (map, key) => {
        const list = map.get(key);
        if (list && own.has(list)) {
          list.push(pod);
          grown.add(list);
          return;
        }
        const copy = list ? [...list, pod] : [pod];
        own.add(copy);
        grown.add(copy);
        map.set(key, copy);
      });
    }
    // Kept pods and added ones are each in the snapshot's order: a sort by place merges the two runs.
    const ordinals = moves.ordinals;
    if (ordinals) for (const list of grown) list.sort((a, b) => ordinals.get(a)! - ordinals.get(b)!);
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

/** The owner objects of a snapshot by kind, namespace and name, each marked with its kind. */
function ownersOf(snapshot: Snapshot): Map<string, OwnerObject> {
  const owners = new Map<string, OwnerObject>();
  for (const [kind, field] of OWNER_FIELDS) {
    for (const obj of snapshot[field] as readonly { metadata?: { name?: string; namespace?: string } }[]) {
      const key = ownerKey(kind, obj.metadata?.namespace ?? 'default', obj.metadata?.name ?? '');
      owners.set(key, { ...(obj as object), kind } as OwnerObject);
    }
  }
  return owners;
}

/** Whether two lists hold the same objects in the same order. */
export function sameObjects(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a === b || (a.length === b.length && a.every((x, i) => x === b[i]));
}

/**
 * The pods `next` lost and gained against `before` (by object: a pod changed is a new object), or null
 * when the pods both hold are not in the same order. An added pod placed before a kept one (a pod changed
 * where it was) asks for each pod's place in `next`.
 */
function podMoves(
  before: readonly V1Pod[],
  next: readonly V1Pod[],
): Omit<PodMoves, 'replacedNodes' | 'sameOwners'> | null {
  const inNext = new Set(next);
  const inBefore = new Set(before);
  const removed = new Set(before.filter((pod) => !inNext.has(pod)));
  const added: V1Pod[] = [];
  let i = 0;
  let addedBeforeKept = false;
  for (const pod of next) {
    if (!inBefore.has(pod)) {
      added.push(pod);
      continue;
    }
    while (i < before.length && removed.has(before[i]!)) i++;
    if (before[i] !== pod) return null;
    i++;
    if (added.length > 0) addedBeforeKept = true;
  }
  const ordinals = addedBeforeKept ? new Map(next.map((pod, at) => [pod, at] as const)) : null;
  return { removed, added, ordinals };
}

function ownerKey(kind: string, namespace: string, name: string): string {
  return `${kind}/${namespace}/${name}`;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
