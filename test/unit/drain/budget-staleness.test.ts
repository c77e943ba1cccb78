import { describe, expect, it } from 'vitest';
import { STALE_AFTER_MS, healthyPodsNow, staleStatus, trackStatus } from '../../../src/drain/budget-staleness.js';
import { makePdb, makePod } from '../builders.js';

// The lab's case: budget hello (maxUnavailable 1, four pods) while kube-controller-manager is down. One
// pod was evicted: the API server wrote allowed 0 into the status, and nobody writes it again.
const frozen = makePdb()
  .selector({ app: 'hello' })
  .status({ disruptionsAllowed: 0, currentHealthy: 4, desiredHealthy: 3, expectedPods: 4 })
  .obj();
const pod = (name: string) => makePod().name(name).ns('demo').label('app', 'hello').ready(true);

describe('healthyPodsNow', () => {
  it('counts as the disruption controller does: Ready, not being deleted, not just evicted', () => {
    const pdb = structuredClone(frozen);
    pdb.status!.disruptedPods = { 'hello-c': new Date(0) };
    const pods = [
      pod('hello-a').obj(),
      pod('hello-b').ready(false).obj(),
      pod('hello-c').obj(), // evicted a moment ago: the API server listed it in disruptedPods
      pod('hello-d').deleting(1_000).obj(),
      pod('hello-e').obj(),
    ];
    expect(healthyPodsNow(pdb, pods)).toBe(2);
  });
});

describe('trackStatus / staleStatus', () => {
  const t0 = 1_000_000;

  it('says nothing while the pods agree with the status', () => {
    const track = trackStatus(undefined, frozen, 4, t0);
    expect(track.disagreeSinceMs).toBeNull();
    expect(staleStatus(trackStatus(track, frozen, 4, t0 + 60_000), t0 + 60_000)).toBeNull();
  });

  it('calls a status stale once the pods have disagreed with it, unchanged, for STALE_AFTER_MS', () => {
    const first = trackStatus(undefined, frozen, 3, t0);
    expect(staleStatus(first, t0)).toBeNull();
    const later = trackStatus(first, frozen, 3, t0 + STALE_AFTER_MS - 1);
    expect(staleStatus(later, t0 + STALE_AFTER_MS - 1)).toBeNull();
    const stale = trackStatus(later, frozen, 3, t0 + STALE_AFTER_MS);
    expect(staleStatus(stale, t0 + STALE_AFTER_MS)).toEqual({ healthyPods: 3, sinceMs: t0 });
  });

  it('restarts the clock when the status changes: a controller that writes, even late, is alive', () => {
    const first = trackStatus(undefined, frozen, 3, t0);
    const rewritten = structuredClone(frozen);
    rewritten.status!.currentHealthy = 2;
    const after = trackStatus(first, rewritten, 3, t0 + STALE_AFTER_MS);
    expect(after.disagreeSinceMs).toBe(t0 + STALE_AFTER_MS);
    expect(staleStatus(after, t0 + STALE_AFTER_MS)).toBeNull();
  });
});
