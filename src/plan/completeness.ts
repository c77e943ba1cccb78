import type { V1Pod } from '@kubernetes/client-node';
import type { Snapshot, SnapshotKind } from '../snapshot/types.js';
import { missingKindEffect } from './caveats.js';
import { controllerRef, podKey } from './pod-facts.js';
import type { ReadVerdict, UnreadKind, Verdict } from './types.js';
import { kindPlural } from '../wording.js';

/** A drained pod as completeness sees it: whether the drain removes it (evicts or deletes). */
export interface DrainedPod {
  readonly pod: V1Pod;
  readonly removed: boolean;
  /** --surge scales its Deployment up first: whether an autoscaler owns that Deployment matters. */
  readonly surged?: boolean;
}

/** Owner kinds whose absence changes what the plan says about the pods they own. */
const OWNER_KINDS: ReadonlySet<string> = new Set([
  'ReplicaSet',
  'StatefulSet',
  'DaemonSet',
  'ReplicationController',
  'Job',
]);

/**
 * The kinds this plan needs and could not read. Pods always (without them a file cannot tell an empty
 * node from pods not asked for); budgets when the drain removes a pod (any budget could select it); an
 * owner kind when a drained pod is owned by one (whether it is recreated, whether its DaemonSet exists).
 * Deployments and Services only name things, so they are never needed. HorizontalPodAutoscalers when
 * --surge scales a drained pod's Deployment (an autoscaler changes how: its bounds are raised too).
 */
export function unreadKinds(snapshot: Snapshot, pods: readonly DrainedPod[]): UnreadKind[] {
  const unread = (kind: SnapshotKind, concerned: readonly V1Pod[]): UnreadKind => ({
    kind,
    why: whyUnread(snapshot, kind),
    effect: kind === 'Pod' ? PODS_UNKNOWN : missingKindEffect(kind),
    pods: concerned.map(podKey),
  });
  const result: UnreadKind[] = [];
  if (!snapshot.kinds.has('Pod')) result.push(unread('Pod', []));
  const removed = pods.filter((p) => p.removed).map((p) => p.pod);
  if (removed.length > 0 && !snapshot.kinds.has('PodDisruptionBudget')) {
    result.push(unread('PodDisruptionBudget', removed));
  }
  const byOwnerKind = new Map<SnapshotKind, V1Pod[]>();
  for (const { pod } of pods) {
    const kind = controllerRef(pod)?.kind;
    if (!kind || !OWNER_KINDS.has(kind) || snapshot.kinds.has(kind as SnapshotKind)) continue;
    byOwnerKind.set(kind as SnapshotKind, [...(byOwnerKind.get(kind as SnapshotKind) ?? []), pod]);
  }
  for (const [kind, owned] of byOwnerKind) result.push(unread(kind, owned));
  const surged = pods.filter((p) => p.surged).map((p) => p.pod);
  if (surged.length > 0 && !snapshot.kinds.has('HorizontalPodAutoscaler')) {
    result.push(unread('HorizontalPodAutoscaler', surged));
  }
  return result;
}

const PODS_UNKNOWN =
  'a file with no Pod object cannot tell an empty cluster from pods not asked for: the nodes may have pods the plan does not see';

/**
 * Why a kind is missing: a file holds no object of it (an empty `kubectl get` result looks the same as a
 * kind not asked for); a live read names the API server's refusal in the loader's warning.
 */
function whyUnread(snapshot: Snapshot, kind: SnapshotKind): string {
  const source = snapshot.source;
  if (source.type === 'file') return `snapshot "${source.path}" holds no ${kind} object`;
  if (source.type === 'embedded') return `the bundled snapshot ${source.name} holds no ${kind} object`;
  const suffix = ` (${kind} objects not loaded)`;
  const warning = snapshot.warnings.find((w) => w.endsWith(suffix));
  return warning ? warning.slice(0, -suffix.length) : `the live read did not return ${kind} objects`;
}

/**
 * The final verdict: a plan that would be clear or slow but could not read what it needs is incomplete,
 * since what it did not read could hold the drain back. A blocked plan stays blocked: reading more can
 * only hold the drain back further. A disruptive plan stays disruptive: the outage it found is in what it
 * read, and reading more can only add to it or block the drain.
 */
export function completeVerdict(read: ReadVerdict, unread: readonly UnreadKind[]): Verdict {
  return unread.length > 0 && (read === 'clear' || read === 'slow') ? 'incomplete' : read;
}

/** One reason line per unread kind, for the top of the verdict reasons. */
export function unreadLines(unread: readonly UnreadKind[]): string[] {
  return unread.map((u) => {
    const pods = u.pods.length > 0 ? ` (${u.pods.length === 1 ? 'pod' : 'pods'} ${someNames(u.pods)})` : '';
    return `${kindPlural(u.kind)} not read: ${u.why}; ${u.effect}${pods}`;
  });
}

/** At most five names, then how many more: a reason stays one readable line on a node of fifty pods. */
export function someNames(names: readonly string[], max = 5): string {
  return names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}
