import type { DrainPlan, PodPlan } from '../plan/types.js';
import { listNames, qualified } from './format.js';
import { plural } from '../wording.js';

/**
 * The two "what if" sequences a plan compares the drain with, as marks on a time axis:
 * - a NoExecute taint put on the node now (t=0), deleting each pod at once, after its tolerationSeconds,
 *   or never;
 * - the node failing now: the node lifecycle controller marks it unreachable after
 *   node-monitor-grace-period and taints it NoExecute, then pods go after their tolerationSeconds
 *   (300 s unless the pod says otherwise, the DefaultTolerationSeconds admission default).
 * Each pod's afterSeconds counts from t=0 of its sequence (for node failure, grace period included).
 */

export interface TimelineMark {
  readonly atSeconds: number;
  /** What happens at this instant, e.g. "taint added; 3 pods deleted". */
  readonly label: string;
  /** Pods deleted at this instant, as namespace/name. */
  readonly pods: readonly string[];
}

export interface Timeline {
  readonly title: string;
  readonly marks: readonly TimelineMark[];
  /** Pods never deleted by this sequence (they tolerate it forever, e.g. DaemonSet pods). */
  readonly never: readonly string[];
}

export function noExecuteTimeline(plan: DrainPlan): Timeline {
  return buildTimeline(
    `If tainted ${plan.noExecute.taint} now`,
    [{ atSeconds: 0, label: 'taint added' }],
    plan.pods,
    (p) => p.noExecute.afterSeconds,
  );
}

export function nodeFailureTimeline(plan: DrainPlan): Timeline {
  const grace = plan.nodeFailure.nodeMonitorGracePeriodSeconds;
  return buildTimeline(
    `If ${plan.nodes.join(', ')} failed now (node-monitor-grace-period ${grace}s)`,
    [
      { atSeconds: 0, label: 'node stops reporting' },
      { atSeconds: grace, label: 'marked unreachable, NoExecute taint' },
    ],
    plan.pods,
    (p) => p.nodeFailure.afterSeconds,
  );
}

function buildTimeline(
  title: string,
  events: readonly { atSeconds: number; label: string }[],
  pods: readonly PodPlan[],
  deletedAfter: (pod: PodPlan) => number | null,
): Timeline {
  const deletions = new Map<number, string[]>();
  const never: string[] = [];
  for (const pod of pods) {
    const at = deletedAfter(pod);
    if (at === null) never.push(qualified(pod));
    else deletions.set(Math.max(0, at), [...(deletions.get(Math.max(0, at)) ?? []), qualified(pod)]);
  }
  const times = new Set([...events.map((e) => e.atSeconds), ...deletions.keys()]);
  const marks = [...times]
    .sort((a, b) => a - b)
    .map((atSeconds) => {
      const deleted = deletions.get(atSeconds) ?? [];
      const parts = events.filter((e) => e.atSeconds === atSeconds).map((e) => e.label);
      if (deleted.length > 0) parts.push(`${plural(deleted.length, 'pod')} deleted`);
      return { atSeconds, label: parts.join('; '), pods: deleted };
    });
  return { title, marks, never };
}

/** Seconds as the axis labels them: always plain seconds, so t=grace+60 reads as 50s then 110s. */
export function axisSeconds(seconds: number): string {
  return `${seconds}s`;
}

/** The timeline as rows, one per instant, then the pods it never deletes. */
export function timelineRows(timeline: Timeline): string[][] {
  const rows = timeline.marks.map((m) => [
    axisSeconds(m.atSeconds),
    m.pods.length > 0 ? `${m.label}: ${listNames(m.pods)}` : m.label,
  ]);
  if (timeline.never.length > 0) {
    rows.push(['never', `${plural(timeline.never.length, 'pod')}: ${listNames(timeline.never)}`]);
  }
  return rows;
}
