import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { disruptionOptOutOf } from '../../../src/plan/disruption-opt-out.js';
import type { DrainAction } from '../../../src/plan/types.js';
import { renderPlanText } from '../../../src/ui/plan-text.js';
import { makeIndex, makePod } from '../builders.js';
import { nodes, options, owners, web } from './rules-fixture.js';

const SAFE = 'cluster-autoscaler.kubernetes.io/safe-to-evict';
const KARPENTER = 'karpenter.sh/do-not-disrupt';

interface Case {
  readonly name: string;
  readonly annotations: Readonly<Record<string, string>>;
  readonly action: DrainAction;
  readonly expected: readonly string[] | null;
}

const cases: Case[] = [
  {
    name: 'a pod with safe-to-evict "false" asked cluster-autoscaler not to evict it',
    annotations: { [SAFE]: 'false' },
    action: 'evict',
    expected: [`${SAFE}: "false"`],
  },
  {
    name: 'a pod with do-not-disrupt "true" asked Karpenter not to disrupt it',
    annotations: { [KARPENTER]: 'true' },
    action: 'evict',
    expected: [`${KARPENTER}: "true"`],
  },
  {
    name: 'both annotations are both named',
    annotations: { [SAFE]: 'false', [KARPENTER]: 'true' },
    action: 'delete',
    expected: [`${SAFE}: "false"`, `${KARPENTER}: "true"`],
  },
  {
    name: 'safe-to-evict "true" asks for nothing',
    annotations: { [SAFE]: 'true' },
    action: 'evict',
    expected: null,
  },
  {
    name: 'each autoscaler compares the value exactly: "False" and "yes" ask for nothing',
    annotations: { [SAFE]: 'False', [KARPENTER]: 'yes' },
    action: 'evict',
    expected: null,
  },
  {
    name: 'a pod the drain leaves on its node is not named',
    annotations: { [SAFE]: 'false' },
    action: 'skip',
    expected: null,
  },
  {
    name: 'a refused pod is not named: the drain removes nothing of its node',
    annotations: { [KARPENTER]: 'true' },
    action: 'refuse',
    expected: null,
  },
];

describe('disruptionOptOutOf', () => {
  it.each(cases)('$name', ({ annotations, action, expected }) => {
    const pod = Object.entries(annotations)
      .reduce((p, [key, value]) => p.annotation(key, value), makePod().name('p').ns('shop'))
      .obj();
    expect(disruptionOptOutOf(pod, action)?.annotations ?? null).toEqual(expected);
  });

  it('says what the drain does to it anyway', () => {
    const pod = makePod().name('p').annotation(SAFE, 'false').obj();
    expect(disruptionOptOutOf(pod, 'evict')?.text).toBe(
      `asked not to be disrupted (${SAFE}: "false"): autoscalers leave it alone, kubectl drain evicts it anyway`,
    );
    expect(disruptionOptOutOf(pod, 'delete')?.text).toBe(
      `asked not to be disrupted (${SAFE}: "false"): autoscalers leave it alone, kubectl drain deletes it anyway`,
    );
  });
});

describe('a plan with pods that asked not to be disrupted', () => {
  const index = makeIndex({
    nodes,
    pods: [
      web('web-a').annotation(KARPENTER, 'true').obj(),
      web('web-b').obj(),
      web('web-c').annotation(SAFE, 'false').obj(),
    ],
    ...owners,
  });
  const plan = buildPlan(index, options());

  it('names each such pod, and changes neither its fate nor the verdict', () => {
    expect(plan.pods.map((p) => [p.name, p.action, p.disruptionOptOut?.annotations ?? null])).toEqual([
      ['web-a', 'evict', [`${KARPENTER}: "true"`]],
      ['web-b', 'evict', null],
      ['web-c', 'evict', [`${SAFE}: "false"`]],
    ]);
    expect(plan.verdict).toBe('clear');
    expect(JSON.parse(JSON.stringify(plan)).pods[1]).not.toHaveProperty('disruptionOptOut');
  });

  it('lists them in the text, in the drain preface too', () => {
    const section = [
      'Asked not to be disrupted (2): autoscalers leave these pods alone, kubectl drain evicts them anyway',
      `  shop/web-a   ${KARPENTER}: "true"`,
      `  shop/web-c   ${SAFE}: "false"`,
    ].join('\n');
    expect(renderPlanText(plan)).toContain(section);
    expect(renderPlanText(plan, { brief: true })).toContain(section);
  });
});
