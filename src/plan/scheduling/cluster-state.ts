import type { V1LabelSelector, V1Pod } from '@kubernetes/client-node';
import type { ClusterIndex } from '../../snapshot/cluster-index.js';
import type { Snapshot } from '../../snapshot/types.js';
import { matchesLabelSelector } from '../../snapshot/label-selector.js';
import { hasScoringTerms, scoringTerms, termMatches } from './affinity-term.js';
import { AntiAffinityIndex, type ExistingTerm } from './anti-affinity-index.js';
import { namespaceLabels } from './namespace-labels.js';
import type { ClusterState, MatchVisitor } from './framework.js';
import { ContentMemo } from './content-memo.js';
import { NodeInfo } from './node-info.js';
import { isTerminal, isTerminating, toEpochSeconds } from '../pod-facts.js';
import type { PodInfo } from './pod-info.js';
import { type SchedulerCache, schedulerCache } from './scheduler-cache.js';
import type { VictimPod } from './pod-priority.js';
import { type HostPort, hostPortsOf } from './host-ports.js';
import { podPriority } from './pod-priority.js';
import { nonZeroRequests, podRequests, statusRuleOf, type Resources } from './pod-requests.js';
import { kubeRules } from '../kube-version.js';

/** An assigned pod of the cluster state: where its node is in `nodeInfos`, and whether the snapshot shows it terminating. */
interface StatePod {
  readonly uid: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly at: number;
  readonly terminating: boolean;
}

export interface Placed {
  readonly pod: PodInfo;
  readonly node: NodeInfo;
}

/** A pod on a node as preemption weighs it: the snapshot's assigned pods and the pods this simulation placed. */
export interface NodePod extends VictimPod {
  readonly pod: V1Pod;
  readonly requests: Resources;
  readonly nonZeroRequests: Resources;
  readonly hostPorts: readonly HostPort[];
  /** Placed by this simulation (a replacement, a pending pod), not in the snapshot's cache. */
  readonly placed: boolean;
}

/**
 * The scheduler's view of the cluster during a drain (its cache and snapshot): a view of each NodeInfo of
 * the cluster's SchedulerCache (built once per cluster state), with the drained nodes cordoned; pods
 * marked terminating as they are evicted; replacements committed as they are placed, into this
 * simulation's views only. Pod queries go through the snapshot's label index.
 */
export class SimulatedCluster implements ClusterState {
  /** The state's NodeInfos, shared until this simulation commits a replacement there (then a view); the drained nodes' cordoned views. */
  private readonly nodes: NodeInfo[];
  readonly drainedNodeInfos: readonly NodeInfo[];
  private readonly index: ClusterIndex;
  private readonly cache: SchedulerCache;
  private readonly evicted = new Set<string>();
  private readonly replacements: Placed[] = [];
  /** The committed replacements' terms; the cache holds the existing pods'. */
  private readonly antiAffinity = new AntiAffinityIndex();
  /** The committed replacements' terms InterPodAffinity's score reads. */
  private readonly scoring = new AntiAffinityIndex();
  private readonly caveatTexts = new Set<string>();
  private readonly memos = new Map<string, unknown>();
  /** Each plugin's own record of this simulation (see store). */
  private stores = new Map<object, { readonly value: unknown; readonly copy: (kept: unknown) => unknown }>();
  /** While true, evicted pods are treated as gone rather than terminating (see withEvictedGone). */
  private gone = false;
  /** Pods deleted by preemption: gone from their node and from every count. */
  private readonly preempted = new Set<string>();
  /** Pods a preemption dry run takes off their node for the moment (see withoutPods). */
  private hidden: ReadonlySet<string> = new Set();
  /** Evicted pods taken as not evicted yet, for the moment (see withEvictionsUnseen). */
  private unseen: ReadonlySet<string> = new Set();

  constructor(index: ClusterIndex, drainedNodes: ReadonlySet<string>) {
    this.index = index;
    this.cache = schedulerCache(index);
    // Views are made only where this simulation differs from the state: thousands of nodes, a few touched.
    this.nodes = [...this.cache.nodeInfos];
    const drained: NodeInfo[] = [];
    for (const name of drainedNodes) {
      const at = this.cache.positions.get(name);
      if (at === undefined) continue;
      drained.push((this.nodes[at] = NodeInfo.viewOf(this.cache.nodeInfos[at]!, true)));
    }
    this.drainedNodeInfos = drained;
  }

  /**
   * A copy to place pods in another order: what it commits, evicts or preempts from now on stays out of
   * this one, and what this one does from now on stays out of it (a node's sums are shared until either
   * changes them: see NodeInfo.viewOf). Memos and the state's cache are shared: they hold what no
   * placement changes.
   */
  fork(): SimulatedCluster {
    const copy = Object.create(SimulatedCluster.prototype) as SimulatedCluster;
    return Object.assign(copy, this, {
      nodes: this.nodes.map((node, at) => (node === this.cache.nodeInfos[at] ? node : NodeInfo.viewOf(node, false))),
      evicted: new Set(this.evicted),
      replacements: [...this.replacements],
      antiAffinity: this.antiAffinity.copy(),
      scoring: this.scoring.copy(),
      caveatTexts: new Set(this.caveatTexts),
      stores: new Map([...this.stores].map(([owner, { value, copy }]) => [owner, { value: copy(value), copy }])),
      preempted: new Set(this.preempted),
    });
  }

  get nodeInfos(): readonly NodeInfo[] {
    return this.nodes;
  }

  /** The snapshot of the cluster state: namespace labels, priority classes, owners. */
  get snapshot(): Snapshot {
    return this.index.snapshot;
  }

  /** The state's own NodeInfos, by position as `nodeInfos`: the same objects there until this simulation changes a node. */
  get stateNodeInfos(): readonly NodeInfo[] {
    return this.cache.nodeInfos;
  }

  get caveats(): readonly string[] {
    return [...this.caveatTexts];
  }

  get placedCount(): number {
    return this.replacements.length;
  }

  /** The replacements committed since `placedCount` was `from`, less those preemption deleted. */
  placedSince(from: number): readonly Placed[] {
    return this.replacements.slice(from).filter(({ pod }) => !this.preempted.has(pod.uid));
  }

  nodeInfo(name: string): NodeInfo | undefined {
    const at = this.cache.positions.get(name);
    return at === undefined ? undefined : this.nodeInfos[at];
  }

  namespaces(): Iterable<string> {
    return this.cache.namespaces;
  }

  antiAffinityTermsFor(namespace: string, labels: Readonly<Record<string, string>>): readonly ExistingTerm[] {
    return this.termsFor('anti-affinity-terms', this.cache.antiAffinity, this.antiAffinity, namespace, labels);
  }

  scoringTermsFor(namespace: string, labels: Readonly<Record<string, string>>): readonly ExistingTerm[] {
    return this.termsFor('scoring-terms', this.cache.scoringTerms, this.scoring, namespace, labels);
  }

  /**
   * The terms of `state` (the cluster state's pods) that match a pod of this namespace with these labels,
   * kept for every simulation of the state: the replicas of a workload all ask the same, and a bucket can
   * hold the terms of thousands of pods. Then this simulation's own candidates; the pods gone left out.
   */
  private termsFor(
    kind: string,
    state: AntiAffinityIndex,
    own: AntiAffinityIndex,
    namespace: string,
    labels: Readonly<Record<string, string>>,
  ): readonly ExistingTerm[] {
    const matching = this.cache
      .memo(kind, () => new ContentMemo<readonly ExistingTerm[]>())
      .get(namespace, labels, () =>
        state.candidates(namespace, labels).filter((c) => termMatches(c.term, namespace, labels)),
      );
    const added = own.candidates(namespace, labels);
    const all = added.length === 0 ? matching : [...matching, ...added];
    return this.anyAbsent ? all.filter((c) => !this.absent(c.uid)) : all;
  }

  /** Whether any pod may be absent (see absent): none is preempted, hidden or taken as gone, most of the time. */
  private get anyAbsent(): boolean {
    return this.preempted.size > 0 || this.hidden.size > 0 || (this.gone && this.evicted.size > 0);
  }

  caveat(text: string): void {
    this.caveatTexts.add(text);
  }

  memo<T>(key: string, compute: () => T): T {
    if (!this.memos.has(key)) this.memos.set(key, compute());
    return this.memos.get(key) as T;
  }

  stateMemo<T>(key: string, compute: (nodes: readonly NodeInfo[]) => T): T {
    return this.cache.memo(key, () => compute(this.cache.nodeInfos));
  }

  assignedPodsInNamespace(namespace: string): readonly V1Pod[] {
    return this.index.podsInNamespace(namespace).filter((pod) => this.assignedPosition(pod) !== undefined);
  }

  assignedPodsOnNode(name: string): readonly V1Pod[] {
    return this.index.podsOnNode(name).filter((pod) => !isTerminal(pod));
  }

  get placed(): readonly Placed[] {
    return this.replacements;
  }

  counts(uid: string): boolean {
    return !this.absent(uid);
  }

  store<T>(owner: object, make: () => T, copy: (kept: T) => T): T {
    let kept = this.stores.get(owner);
    if (!kept) this.stores.set(owner, (kept = { value: make(), copy: copy as (kept: unknown) => unknown }));
    return kept.value as T;
  }

  get evictedGone(): boolean {
    return this.gone;
  }

  wasEvicted(uid: string): boolean {
    return this.evicted.has(uid);
  }

  /** Whether a pod no longer counts: deleted by preemption, hidden by a dry run, or evicted and gone. */
  private absent(uid: string): boolean {
    return this.preempted.has(uid) || this.hidden.has(uid) || (this.gone && this.isEvicted(uid));
  }

  private isEvicted(uid: string): boolean {
    return this.evicted.has(uid) && !this.unseen.has(uid);
  }

  /**
   * The pods on a node as the scheduler's NodeInfo lists them (terminating ones included), with what
   * preemption weighs: the snapshot's, then those this simulation placed; none it preempted.
   */
  podsOn(node: NodeInfo): NodePod[] {
    const state = this.cache.memo(`node-pods\u0000${node.name}`, () =>
      this.index
        .podsOnNode(node.name)
        .filter((pod) => !isTerminal(pod))
        .map((pod): NodePod => {
          const { uid = '', namespace = 'default', name = '', labels = {} } = pod.metadata ?? {};
          const started = toEpochSeconds(pod.status?.startTime);
          const { priority } = podPriority(pod, this.index.snapshot);
          const status = statusRuleOf(kubeRules(this.index.snapshot));
          const [requests, hostPorts] = [podRequests(pod, status), hostPortsOf(pod)];
          const nonZero = nonZeroRequests(pod, status, requests);
          return {
            uid,
            namespace,
            name,
            labels,
            priority,
            startTime: started ?? Infinity,
            pod,
            requests,
            nonZeroRequests: nonZero,
            hostPorts,
            placed: false,
          };
        }),
    );
    const placed = this.replacements
      .filter((r) => r.node.name === node.name)
      .map(({ pod }): NodePod => ({ ...pod, startTime: Infinity, placed: true }));
    return [...state, ...placed].filter((p) => !this.preempted.has(p.uid));
  }

  /**
   * Runs `fn` with these pods off their nodes' counts (pod affinity, anti-affinity, spread): a preemption
   * dry run. Within another such run, the pods that run hid stay hidden too.
   */
  withoutPods<T>(uids: ReadonlySet<string>, fn: () => T): T {
    const before = this.hidden;
    this.hidden = before.size === 0 ? uids : new Set([...before, ...uids]);
    try {
      return fn();
    } finally {
      this.hidden = before;
    }
  }

  /**
   * Runs `fn` as if these placed replacements had not been placed yet: off their nodes' room (requests,
   * ports, pod slot) and counts (as withoutPods). What their plugins hold in their own stores stays.
   */
  withoutPlaced<T>(placed: readonly Placed[], fn: () => T): T {
    const views = placed.map(({ pod, node }) => {
      const at = this.cache.positions.get(node.name)!;
      let view = this.nodes[at]!;
      if (view === this.cache.nodeInfos[at]) this.nodes[at] = view = NodeInfo.viewOf(view, false);
      view.removePod(pod);
      return { pod, view };
    });
    try {
      return this.withoutPods(new Set(placed.map(({ pod }) => pod.uid)), fn);
    } finally {
      for (const { pod, view } of views) view.addPod(pod);
    }
  }

  /** Preemption deleted these pods of `node`: their room is free, they count nowhere from now on. */
  preempt(node: NodeInfo, victims: readonly NodePod[]): void {
    const at = this.cache.positions.get(node.name)!;
    let view = this.nodes[at]!;
    if (view === this.cache.nodeInfos[at]) this.nodes[at] = view = NodeInfo.viewOf(view, false);
    for (const victim of victims) {
      this.preempted.add(victim.uid);
      view.removePod(victim);
    }
  }

  /** The pod is terminating from now on. */
  evict(pod: V1Pod): void {
    const uid = pod.metadata?.uid ?? '';
    if (this.evicted.has(uid)) return;
    this.evicted.add(uid);
  }

  get hasEvicted(): boolean {
    return this.evicted.size > 0;
  }

  /**
   * Runs `fn` as the scheduler sees the cluster before these evictions reach it: the pods still running
   * (counted by topology spread like any other), not terminating.
   */
  withEvictionsUnseen<T>(uids: ReadonlySet<string>, fn: () => T): T {
    const before = this.unseen;
    this.unseen = uids;
    try {
      return fn();
    } finally {
      this.unseen = before;
    }
  }

  /**
   * Runs `fn` in the cluster as it is once the evicted pods have terminated: they no longer count for
   * pod (anti-)affinity or spread. Their requests and ports stay on their (drained) nodes, which no
   * replacement may use anyway.
   */
  withEvictedGone<T>(fn: () => T): T {
    this.gone = true;
    try {
      return fn();
    } finally {
      this.gone = false;
    }
  }

  /**
   * A placed replacement holds its room from now on: requests, ports, pod slot, affinity and spread
   * counts (what its plugins' Reserve holds there, they keep in their own store).
   */
  commit(pod: PodInfo, placed: NodeInfo): void {
    const at = this.cache.positions.get(placed.name)!;
    let node = this.nodes[at]!;
    if (node === this.cache.nodeInfos[at]) this.nodes[at] = node = NodeInfo.viewOf(node, false);
    node.addPod(pod);
    this.replacements.push({ pod, node });
    this.antiAffinity.add(pod.requiredAntiAffinityTerms, node, pod.uid);
    if (hasScoringTerms(pod.pod))
      this.scoring.add(scoringTerms(pod.pod, namespaceLabels(this.snapshot), true), node, pod.uid);
  }

  forEachMatch(namespace: string, selector: V1LabelSelector, each: MatchVisitor): void {
    // Every placement walks a workload's pods here: the sets are asked only when they hold any.
    const [anyAbsent, anyEvicted] = [this.anyAbsent, this.evicted.size > 0];
    for (const pod of this.statePodsMatching(namespace, selector)) {
      if (anyAbsent && this.absent(pod.uid)) continue;
      each(pod.at, pod.labels, pod.terminating || (anyEvicted && this.isEvicted(pod.uid)));
    }
    this.forEachReplacementMatch(namespace, selector, (at, labels) => each(at, labels, false));
  }

  forEachRunningMatch(namespace: string, selector: V1LabelSelector, each: (at: number) => void): void {
    // forEachMatch's walk with its terminating pods left out, written out: every placement of a pod with
    // topology spread (its constraints or the defaults) walks its workload's pods here.
    const [anyAbsent, anyEvicted] = [this.anyAbsent, this.evicted.size > 0];
    for (const pod of this.statePodsMatching(namespace, selector)) {
      if (pod.terminating || (anyAbsent && this.absent(pod.uid)) || (anyEvicted && this.isEvicted(pod.uid))) continue;
      each(pod.at);
    }
    this.forEachReplacementMatch(namespace, selector, each);
  }

  /** The replacements this simulation placed that match a selector, none of them terminating. */
  private forEachReplacementMatch(
    namespace: string,
    selector: V1LabelSelector,
    each: (at: number, labels: Readonly<Record<string, string>>) => void,
  ): void {
    for (const { pod, node } of this.replacements) {
      if (this.absent(pod.uid)) continue;
      if (pod.namespace === namespace && matchesLabelSelector(pod.labels, selector)) each(node.position, pod.labels);
    }
  }

  /** The assigned pods of the state matching a selector, found once for every simulation of the state. */
  private statePodsMatching(namespace: string, selector: V1LabelSelector): readonly StatePod[] {
    return this.cache
      .memo('pods-matching', () => new ContentMemo<readonly StatePod[]>())
      .get(namespace, selector, () =>
        this.index.podsMatching(namespace, selector).flatMap((pod): StatePod[] => {
          const at = this.assignedPosition(pod);
          if (at === undefined) return [];
          const { uid = '', labels = {} } = pod.metadata ?? {};
          return [{ uid, labels, at, terminating: isTerminating(pod) }];
        }),
      );
  }

  /** Where the node of a pod the scheduler's cache holds (bound, not Succeeded/Failed, on a known node) is in `nodeInfos`. */
  private assignedPosition(pod: V1Pod): number | undefined {
    const nodeName = pod.spec?.nodeName;
    if (!nodeName || isTerminal(pod)) return undefined;
    return this.cache.positions.get(nodeName);
  }
}
