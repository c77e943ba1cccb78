import type { V1Pod, V1Probe } from '@kubernetes/client-node';
import { isPodReady, toEpochSeconds } from './pod-facts.js';
import type { StrategyStepEta, WaveEta } from './types.js';
import { plural } from '../wording.js';

/**
 * How long a drain takes, from what the cluster shows (pure: the snapshot's pods and the plan's waves in).
 *
 * - A pod is gone at most its terminationGracePeriodSeconds after its eviction (preStop hooks run inside it).
 * - A budget frees its disruption when the replacement is Ready. How long that takes is the workload's own
 *   history: for its pods that are Ready now, the Ready condition's lastTransitionTime minus the pod's
 *   creationTimestamp (the replacement is created the moment the old pod is evicted). Without history,
 *   the readiness probe's initialDelaySeconds + periodSeconds (its first successful probe, at the earliest).
 * - Waves in sequence: wave w+1 is admitted when wave w's replacements are Ready (or, for a StatefulSet's
 *   pod deleted at once, up to the disruption controller's DeletionTimeout: see disruptedPodWait);
 *   eviction-order groups in sequence: a group starts when the previous one is gone.
 */

/**
 * The disruption controller's DeletionTimeout (pkg/controller/disruption): how long after an admitted
 * eviction it counts a pod of the evicted pod's name as disrupted, not healthy, unless it sees that pod
 * terminating or gone first.
 */
export const DISRUPTED_POD_TIMEOUT_SECONDS = 120;

/**
 * How long a budget may wait for the replacement of `p`, when that is longer than its start-to-Ready time.
 * The Eviction API records the evicted pod's name in the budget's status.disruptedPods, and the disruption
 * controller counts no pod of that name as healthy until it has seen the evicted one terminating or gone,
 * or DeletionTimeout after the eviction. A StatefulSet's replacement takes the evicted pod's name; a pod
 * with terminationGracePeriodSeconds 0 is deleted by the eviction itself, never seen terminating, and the
 * StatefulSet controller may make its replacement before the disruption controller looks: whether the
 * budget frees up once the replacement is Ready or DeletionTimeout after the eviction is a race, so the
 * estimate takes the longer. A pod with a grace period stays terminating while its kubelet stops it, and
 * the controller sees that.
 */
function disruptedPodWait(p: EtaPod): number | null {
  return p.replacementKeepsName && p.graceSeconds === 0 && p.replacement
    ? Math.max(p.replacement.seconds, DISRUPTED_POD_TIMEOUT_SECONDS)
    : null;
}

/** Where a replacement's start-to-Ready time comes from. */
export type ReadinessBasis = 'observed' | 'readiness-probe' | 'none';

export interface StartToReady {
  readonly seconds: number;
  readonly basis: ReadinessBasis;
  /** In words: "observed: mean of 4 pods of ReplicaSet demo/hello-7d4b (2.3 s)". */
  readonly text: string;
}

/** A pod the drain removes, as the estimate needs it. */
export interface EtaPod {
  /** namespace/name */
  readonly key: string;
  /** The plan's 1-based wave (run on across eviction-order groups). */
  readonly wave: number;
  readonly group: number;
  readonly graceSeconds: number;
  /** Its budgets (namespace/name): a later wave of the same budget waits for this pod's replacement. */
  readonly budgets: readonly string[];
  /** null when nothing recreates it. */
  readonly replacement: StartToReady | null;
  /** Its replacement takes its name (a StatefulSet's pod): see disruptedPodWait. */
  readonly replacementKeepsName?: boolean;
}

/** A pod no wave admits that a strategy removes after a fixed time (an escalation's bound, a surge's replica Ready). */
export interface LatePod {
  readonly key: string;
  /** From the start of its eviction-order group. */
  readonly afterSeconds: number;
  /** Its eviction-order group (1 when absent): the next group starts once it is gone too. */
  readonly group?: number;
  readonly graceSeconds: number;
  /** "deleted by --escalate-after". */
  readonly why: string;
  /** The strategy whose step it is. */
  readonly strategy: StrategyStepEta['strategy'];
  /** What afterSeconds rests on, when more than the strategy's own bound (the surge replica's start-to-Ready). */
  readonly basis?: string;
}

export interface PodEta {
  readonly evictedAfterSeconds: number;
  readonly goneAfterSeconds: number;
  readonly graceSeconds: number;
  readonly replacementReadySeconds: number | null;
  readonly basis: string;
}

export interface DrainEta {
  /** Seconds from the first eviction until the last pod is gone; null when the drain cannot finish. */
  readonly totalSeconds: number | null;
  readonly waves: readonly WaveEta[];
  /** The strategies' steps (a surge's extra replica before the eviction, an escalation's bound), beside the waves. */
  readonly steps: readonly StrategyStepEta[];
  readonly pods: ReadonlyMap<string, PodEta>;
  /** What the total rests on, one line each. */
  readonly basis: readonly string[];
}

const DEFAULT_GRACE_SECONDS = 30;

/** The pod's terminationGracePeriodSeconds (the API's default, 30, when unset). */
export function graceSecondsOf(pod: V1Pod): number {
  return pod.spec?.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS;
}

/**
 * How long a replacement of `pod` takes from creation to Ready: the mean over `siblings` (pods of the
 * same controller) that are Ready now, else the readiness probes. Whole-second timestamps make one
 * observation ±1 s; the mean over several pods averages that out.
 */
export function startToReady(pod: V1Pod, siblings: readonly V1Pod[], owner: string): StartToReady {
  const observed = observedOf(siblings);
  if (observed.count > 0) {
    const { count, mean } = observed;
    return {
      seconds: mean,
      basis: 'observed',
      text: `observed start-to-Ready of ${plural(count, 'pod')} of ${owner}: ${round(mean)} s (mean)`,
    };
  }
  const probe = probeSeconds(pod);
  if (probe !== null) {
    return {
      seconds: probe,
      basis: 'readiness-probe',
      text: `readiness probe: initialDelaySeconds + periodSeconds = ${probe} s (no Ready pod to learn from)`,
    };
  }
  return { seconds: 0, basis: 'none', text: 'no history and no readiness probe: taken as Ready at once' };
}

// A memo, not state: the pod lists a cluster index hands out do not change, and every plan of a pool asks
// again for the same workloads' pods (once per owner and plan).
const observedBySiblings = new WeakMap<readonly V1Pod[], { readonly count: number; readonly mean: number }>();

/** The siblings' observed start-to-Ready times: how many, and their mean. */
function observedOf(siblings: readonly V1Pod[]): { readonly count: number; readonly mean: number } {
  let observed = observedBySiblings.get(siblings);
  if (!observed) {
    const seconds = siblings.flatMap((p) => readySecondsOf(p) ?? []);
    observed = { count: seconds.length, mean: seconds.reduce((a, b) => a + b, 0) / Math.max(1, seconds.length) };
    observedBySiblings.set(siblings, observed);
  }
  return observed;
}

/** Ready's lastTransitionTime minus creation (or PodScheduled's transition when creation is missing). */
function readySecondsOf(pod: V1Pod): number | undefined {
  if (!isPodReady(pod)) return undefined;
  const conditions = pod.status?.conditions ?? [];
  const ready = toEpochSeconds(conditions.find((c) => c.type === 'Ready')?.lastTransitionTime);
  const start =
    toEpochSeconds(pod.metadata?.creationTimestamp) ??
    toEpochSeconds(conditions.find((c) => c.type === 'PodScheduled')?.lastTransitionTime);
  if (ready === undefined || start === undefined || ready < start) return undefined;
  return ready - start;
}

/** The slowest container's first successful probe: initialDelaySeconds + periodSeconds (default 10). */
function probeSeconds(pod: V1Pod): number | null {
  const probes = (pod.spec?.containers ?? []).flatMap((c) => (c.readinessProbe ? [c.readinessProbe] : []));
  if (probes.length === 0) return null;
  return Math.max(...probes.map((p: V1Probe) => (p.initialDelaySeconds ?? 0) + (p.periodSeconds ?? 10)));
}

/**
 * Plays the waves out in time. `pods` are the drain's evictions (none blocked: a blocked drain has no
 * total). Within a group, wave w+1 starts when the slowest replacement its budgets wait for in wave w is
 * Ready (waves without such a replacement free nothing to wait for: the next starts at once); a group
 * starts when every pod of the previous group is gone, its late pods (removed by a strategy) included.
 */
export function estimateDrain(pods: readonly EtaPod[], blocked: boolean, late: readonly LatePod[] = []): DrainEta {
  const waves = [...new Set(pods.map((p) => p.wave))].sort((a, b) => a - b);
  const podEtas = new Map<string, PodEta>();
  const waveEtas: WaveEta[] = [];
  const steps: StrategyStepEta[] = [];
  const lateGroups = [...new Set(late.map((p) => p.group ?? 1))].sort((a, b) => a - b);
  const groupStarts = new Map<number, number>();
  let lateEnd = 0;
  /** The late pods of the groups before `group` (not yet placed in time): placed from their group's start. */
  const placeLateBefore = (group: number) => {
    for (const g of lateGroups.filter((g) => g < group && !groupStarts.has(g))) groupStarts.set(g, start);
    for (const p of late.filter((p) => (p.group ?? 1) < group && !podEtas.has(p.key))) {
      const groupStart = groupStarts.get(p.group ?? 1) ?? 0;
      const evicted = groupStart + p.afterSeconds;
      lateEnd = Math.max(lateEnd, evicted + p.graceSeconds);
      podEtas.set(p.key, lateEta(p, evicted));
      steps.push(stepEta(p, groupStart, evicted));
    }
  };
  let start = 0;
  let groupEnd = 0;
  for (const [i, wave] of waves.entries()) {
    const members = pods.filter((p) => p.wave === wave);
    const group = members[0]!.group;
    if (!groupStarts.has(group)) {
      placeLateBefore(group);
      start = Math.max(start, lateEnd);
      groupStarts.set(group, start);
    }
    for (const p of members) {
      const gone = start + p.graceSeconds;
      groupEnd = Math.max(groupEnd, gone);
      podEtas.set(p.key, {
        evictedAfterSeconds: start,
        goneAfterSeconds: gone,
        graceSeconds: p.graceSeconds,
        replacementReadySeconds: p.replacement?.seconds ?? null,
        basis: `terminationGracePeriodSeconds ${p.graceSeconds} s${p.replacement ? `; replacement: ${p.replacement.text}` : ''}`,
      });
    }
    const nextMembers = pods.filter((p) => p.wave === waves[i + 1]);
    const nextGroup = nextMembers[0]?.group ?? group;
    const heldBudgets = new Set(nextMembers.flatMap((p) => p.budgets));
    const slowest = members
      .flatMap((p) => (p.replacement && p.budgets.some((b) => heldBudgets.has(b)) ? [freedBy(p, p.replacement)] : []))
      .sort((a, b) => b.after - a.after)[0];
    const frees =
      nextGroup !== group
        ? { after: groupEnd - start, basis: 'the group is gone (longest grace period): the next group starts' }
        : (slowest ?? { after: 0, basis: 'no replacement to wait for' });
    waveEtas.push({
      wave,
      group,
      startsAfterSeconds: round(start),
      freesAfterSeconds: round(frees.after),
      pods: members.map((p) => p.key),
      basis: frees.basis,
    });
    start += frees.after;
    if (nextGroup !== group) groupEnd = start;
  }
  start = Math.max(start, groupEnd);
  placeLateBefore(Infinity);
  const total = Math.max(0, ...[...podEtas.values()].map((p) => p.goneAfterSeconds));
  return {
    totalSeconds: blocked ? null : round(total),
    waves: waveEtas,
    steps,
    pods: podEtas,
    basis: blocked
      ? ['the drain cannot finish: no total']
      : [
          ...new Set([
            ...pods.flatMap((p) => (p.replacement ? [p.replacement.text] : [])),
            ...late.flatMap((p) => (p.basis ? [p.basis] : [])),
          ]),
        ],
  };
}

/** How long after its eviction `p`'s replacement gives its budget back, and why. */
function freedBy(p: EtaPod, replacement: StartToReady): { readonly after: number; readonly basis: string } {
  const wait = disruptedPodWait(p);
  if (wait === null)
    return { after: replacement.seconds, basis: `its replacements Ready (${BASIS_WORDS[replacement.basis]})` };
  return {
    after: wait,
    basis:
      `up to ${DISRUPTED_POD_TIMEOUT_SECONDS} s after the eviction of ${p.key}: its replacement takes its name, ` +
      'and the disruption controller counts that name as disrupted until it sees the evicted pod go (deleted at ' +
      `once, with terminationGracePeriodSeconds 0, it may be gone unseen) or ${DISRUPTED_POD_TIMEOUT_SECONDS} s have passed`,
  };
}

function lateEta(p: LatePod, evicted: number): PodEta {
  return {
    evictedAfterSeconds: evicted,
    goneAfterSeconds: evicted + p.graceSeconds,
    graceSeconds: p.graceSeconds,
    replacementReadySeconds: null,
    basis: `${p.why} after ${p.afterSeconds} s; terminationGracePeriodSeconds ${p.graceSeconds} s`,
  };
}

/** A late pod's step: from its group's start (when its strategy begins) to its removal. */
function stepEta(p: LatePod, startsAfter: number, removedAfter: number): StrategyStepEta {
  return {
    strategy: p.strategy,
    pod: p.key,
    group: p.group ?? 1,
    startsAfterSeconds: round(startsAfter),
    removedAfterSeconds: round(removedAfter),
    goneAfterSeconds: round(removedAfter + p.graceSeconds),
    basis: p.basis ?? p.why,
  };
}

const BASIS_WORDS: Readonly<Record<ReadinessBasis, string>> = {
  observed: 'observed start-to-Ready',
  'readiness-probe': 'readiness probe',
  none: 'no basis: taken as at once',
};

const round = (seconds: number) => Math.round(seconds * 10) / 10;
