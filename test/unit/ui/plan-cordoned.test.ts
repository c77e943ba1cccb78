import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { renderPlanText } from '../../../src/ui/plan-text.js';
import { makeIndex, makeNode } from '../builders.js';
import { options } from '../plan/rules-fixture.js';

describe('planning a node someone already cordoned', () => {
  it('says so under the verdict, and the JSON lists it', () => {
    const index = makeIndex({ nodes: [makeNode().name('n1').cordoned().obj(), makeNode().name('n2').obj()] });
    const plan = buildPlan(index, options());
    expect(plan.alreadyCordoned).toEqual(['n1']);
    const lines = renderPlanText(plan).split('\n');
    expect(lines).toContain(
      'Note: n1 is already cordoned (spec.unschedulable): no new pod is placed there; a drain leaves it cordoned and does not undo that cordon',
    );
  });

  it('says nothing of the kind for a schedulable node', () => {
    const plan = buildPlan(makeIndex({ nodes: [makeNode().name('n1').obj(), makeNode().name('n2').obj()] }), options());
    expect(plan.alreadyCordoned).toEqual([]);
    expect(renderPlanText(plan)).not.toContain('already cordoned');
  });
});
