import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { initialDrainProgress, reduceDrainEvents, waveHintsFromPlan } from '../../../src/ui/drain-live-state.js';
import { describePodState } from '../../../src/ui/drain-pod-text.js';
import { makeIndex, makePdb } from '../builders.js';
import { nodes, options, owners, web } from '../plan/rules-fixture.js';
import { podRef, started, T0, waiting } from './drain-fixture.js';

// One web replica under minAvailable 1, drained without --surge: the plan says the budget never allows an
// eviction. The live view says so, with the way out, instead of counting waves and refusals as if the
// budget would allow one some time.

const budget = makePdb()
  .name('web')
  .ns('shop')
  .selector({ app: 'web' })
  .minAvailable(1)
  .status({ disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 })
  .obj();
const plan = buildPlan(makeIndex({ nodes, ...owners, pods: [web('a').obj()], pdbs: [budget] }), options());

describe('a budget the plan says never allows an eviction, live', () => {
  const planned = plan.pods[0]!;
  const pod = { ...podRef(planned.name, planned.namespace, planned.node), uid: planned.uid };
  const progress = [started([pod]), waiting(pod, 9, 8, { pdb: 'web' })].reduce(
    (state, event) => reduceDrainEvents(state, event, { hints: waveHintsFromPlan(plan) }),
    initialDrainProgress(),
  );

  it('is the plan the test says: blocked, the budget never allows one, --surge the way out', () => {
    expect(plan.verdict).toBe('blocked');
    expect(plan.budgets[0]?.neverAllows).not.toBeNull();
  });

  it('the header says blocked, not "about 1 wave left"', () => {
    expect(progress.blockedBy).toBe('budget shop/web never allows an eviction, as the plan said');
    expect(progress.wavesLeft).toBe(0);
  });

  it("the pod's row names the way out, and does not promise another try once the budget allows one", () => {
    const row = describePodState(progress.pods[0]!, T0 + 20_000);
    expect(row).toContain('it never allows an eviction (');
    expect(row).toContain('it finishes with --surge=shop/web');
    expect(row).toContain('(8 refusals)');
    expect(row).not.toContain('asked again');
  });
});
