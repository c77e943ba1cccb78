import type { V1Pod } from '@kubernetes/client-node';
import { someNames } from './completeness.js';
import { isTerminal, podKey } from './pod-facts.js';
import type { PlanWarning } from './types.js';

/** A pod the drain removes (evicts or deletes), with whether anything puts a replacement back. */
export interface RemovedPod {
  readonly pod: V1Pod;
  readonly recreated: boolean;
}

/**
 * What the drain destroys for good, before anything else on the plan: pods nothing recreates (kubectl
 * removes them only under --force, or when their owner is gone) and emptyDir data (only under
 * --delete-emptydir-data). A finished pod loses nothing that runs, so it is not counted.
 */
export function planWarnings(removed: readonly RemovedPod[]): PlanWarning[] {
  const running = removed.filter((r) => !isTerminal(r.pod));
  const lost = running.filter((r) => !r.recreated).map((r) => podKey(r.pod));
  const emptyDir = running
    .filter((r) => (r.pod.spec?.volumes ?? []).some((v) => v.emptyDir != null))
    .map((r) => podKey(r.pod));
  const warnings: PlanWarning[] = [];
  if (lost.length > 0) {
    warnings.push({
      reason: 'PodsNotRecreated',
      message: `${count(lost, 'pod is', 'pods are')} deleted for good, no controller recreates ${lost.length === 1 ? 'it' : 'them'}: ${someNames(lost)}`,
      pods: lost,
    });
  }
  if (emptyDir.length > 0) {
    warnings.push({
      reason: 'EmptyDirDataLost',
      message: `${count(emptyDir, 'pod loses', 'pods lose')} the data in ${emptyDir.length === 1 ? 'its' : 'their'} emptyDir volumes: ${someNames(emptyDir)}`,
      pods: emptyDir,
    });
  }
  return warnings;
}

const count = (list: readonly string[], one: string, many: string) =>
  `${list.length} ${list.length === 1 ? one : many}`;
