import type { V1Pod } from '@kubernetes/client-node';
import { refusalLines } from '../plan/drain-filters/pod-delete-list.js';
import type { DrainPlan, PodPlan } from '../plan/types.js';
import { budgetKey, type BudgetKey } from '../plan/budgets.js';
import type { PodRef } from './events.js';

/** A pod the engine evicts (or deletes, with --disable-eviction). */
export interface DrainTarget {
  readonly ref: PodRef;
  readonly method: 'evict' | 'delete';
  /** The budgets the plan matched to the pod, as namespace/name: watched from the start. */
  readonly pdbs: readonly BudgetKey[];
  /** The pod's own terminationGracePeriodSeconds (the API's default, 30, when unset). */
  readonly ownGraceSeconds: number;
  /** 1-based eviction-order group (plan.order): groups leave one after another. Absent = 1. */
  readonly group?: number;
  /** The pod's labels, as read: which budgets the watch sees selecting it (budget-coverage.ts). */
  readonly labels?: Readonly<Record<string, string>>;
}

/** A pod on a drained node the drain leaves alone (DaemonSet-managed, mirror), with kubectl's reason. */
export interface SkippedPod {
  readonly ref: PodRef;
  readonly reason: string;
}

export interface DrainTargets {
  readonly targets: readonly DrainTarget[];
  readonly skipped: readonly SkippedPod[];
  /** kubectl's "cannot delete …" lines: when not empty, nothing may be written (kubectl drains no pod then). */
  readonly refusals: readonly string[];
}

const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';
export const DEFAULT_GRACE_SECONDS = 30;

/**
 * The engine's own guard, whatever the plan says: a DaemonSet's pod would be recreated on the node at
 * once (the DaemonSet controller ignores unschedulable), and a mirror pod cannot be deleted through the
 * API at all. Finished DaemonSet pods may go, as kubectl lets them.
 */
export function neverEvictReason(pod: V1Pod): string | null {
  if (pod.metadata?.annotations?.[MIRROR_ANNOTATION] !== undefined) return 'mirror pod (managed by the kubelet)';
  const finished = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
  const controller = pod.metadata?.ownerReferences?.find((ref) => ref.controller);
  if (controller?.kind === 'DaemonSet' && !finished) return 'DaemonSet-managed pod';
  return null;
}

/**
 * Turns the plan into the engine's work list: pods to evict (or delete), pods left alone, and kubectl's
 * refusals. `pods` are the snapshot's pods (for the grace period and the guard above).
 */
export function drainTargets(plan: DrainPlan, pods: readonly V1Pod[]): DrainTargets {
  const byUid = new Map(pods.map((pod) => [pod.metadata?.uid ?? '', pod]));
  const targets: DrainTarget[] = [];
  const skipped: SkippedPod[] = [];
  const refused: PodPlan[] = [];
  for (const podPlan of plan.pods) {
    const ref = refOf(podPlan);
    const pod = byUid.get(podPlan.uid);
    const guard = pod ? neverEvictReason(pod) : null;
    if (podPlan.action === 'refuse') refused.push(podPlan);
    else if (podPlan.action === 'skip') skipped.push({ ref, reason: podPlan.reason });
    else if (guard) skipped.push({ ref, reason: guard });
    else {
      targets.push({
        ref,
        method: podPlan.action === 'delete' ? 'delete' : 'evict',
        pdbs: podPlan.pdbs.map((pdb) => budgetKey(pdb.namespace, pdb.name)),
        ownGraceSeconds: pod?.spec?.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS,
        ...(podPlan.orderGroup && podPlan.orderGroup > 1 ? { group: podPlan.orderGroup } : {}),
        ...(pod?.metadata?.labels ? { labels: pod.metadata.labels } : {}),
      });
    }
  }
  return { targets, skipped, refusals: refusalLines(refused) };
}

function refOf(pod: PodPlan): PodRef {
  return { namespace: pod.namespace, name: pod.name, uid: pod.uid, node: pod.node };
}
