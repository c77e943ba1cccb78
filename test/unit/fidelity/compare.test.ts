import { describe, expect, it } from 'vitest';
import type { DrainEvent, PodDrainState } from '../../../src/drain/events.js';
import type { AdmissionWebhookPlan, DrainPlan, PodPlan, ReplacementPlan } from '../../../src/plan/types.js';
import { compare, drainOutcomes, type PodState } from '../../../scripts/fidelity/compare.js';

// The harness's comparison: what is left to chance (which pod of a budget goes first, where a replacement
// with a choice of nodes lands) is compared as counts; the rest fact by fact.

const NODE = 'fid-node-1';

function replacement(nodes: string[], extra: Partial<ReplacementPlan> = {}): ReplacementPlan {
  return { schedulable: nodes.length > 0, nodes, placedOn: nodes[0] ?? null, rejected: [], message: '', ...extra };
}

/** A preemption victim on fid-node-2 whose own replacement finds no node. */
const victimOf = (name: string, kind: string, controller: string) => ({
  namespace: 'fidelity',
  name,
  node: 'fid-node-2',
  priority: 0,
  budgetsBroken: [],
  controller: { kind, name: controller },
  replacement: replacement([]),
});

function podPlan(name: string, app: string, extra: Partial<PodPlan>): PodPlan {
  return {
    namespace: 'fidelity',
    name,
    uid: `uid-${name}`,
    node: NODE,
    action: 'evict',
    reason: '',
    filter: '',
    outcome: 'immediate',
    outcomeReason: '',
    wave: 1,
    controller: { kind: 'Deployment', name: app },
    pdbs: [],
    replacement: replacement(['fid-node-2']),
    noExecute: { afterSeconds: 0, reason: '' },
    nodeFailure: { afterSeconds: null, reason: '' },
    ...extra,
  };
}

const plan = (pods: PodPlan[], extra: Partial<DrainPlan> = {}) =>
  ({ verdict: 'slow', pods, budgets: [], ...extra }) as unknown as DrainPlan;

const pod = (name: string, app: string, node: string | null, extra: Partial<PodState> = {}): PodState => ({
  name,
  uid: `uid-${name}`,
  app,
  daemonSet: false,
  node,
  unschedulable: node === null,
  ...extra,
});

function drain(result: 'drained' | 'timeout', ...pods: Array<[string, ...PodDrainState['phase'][]]>): DrainEvent[] {
  const events: DrainEvent[] = [];
  for (const [name, ...phases] of pods) {
    for (const phase of phases) {
      const state = { phase, how: 'evicted', reason: 'DaemonSet' } as unknown as PodDrainState;
      events.push({
        type: 'pod',
        atMs: 0,
        pod: { namespace: 'fidelity', name, uid: `uid-${name}`, node: NODE },
        state,
      });
    }
  }
  events.push({ type: 'finished', atMs: 0, result } as unknown as DrainEvent);
  return events;
}

const budget = { namespace: 'fidelity', name: 'web', disruptionsAllowed: 1 };

/** One state of a pod of the drained node, as the drain's event stream tells it. */
const event = (name: string, state: PodDrainState): DrainEvent => ({
  type: 'pod',
  atMs: 0,
  pod: { namespace: 'fidelity', name, uid: `uid-${name}`, node: NODE },
  state,
});

describe('compare', () => {
  it('a budget whose pods race: the other pod waiting than the plan said still agrees (counts, not names)', () => {
    const p = plan([
      podPlan('web-a', 'web', { pdbs: [budget], outcome: 'immediate' }),
      podPlan('web-b', 'web', { pdbs: [budget], outcome: 'waits', wave: 2 }),
    ]);
    const events = drain(
      'drained',
      ['web-a', 'evicting', 'waiting-for-budget', 'terminating', 'gone'],
      ['web-b', 'evicting', 'terminating', 'gone'],
    );
    const { facts } = compare({
      node: NODE,
      plan: p,
      events,
      before: [pod('web-a', 'web', NODE), pod('web-b', 'web', NODE)],
      after: [pod('web-c', 'web', 'fid-node-2'), pod('web-d', 'web', 'fid-node-2')],
    });
    expect(facts.filter((f) => !f.agree)).toEqual([]);
    expect(facts.find((f) => f.fact === 'waves')).toMatchObject({
      subject: 'budget fidelity/web',
      cluster: '1 at once, 1 after waiting, 0 never',
    });
  });

  it('a pod the plan lets go that the cluster never evicts: the outcome, blocked and replacements disagree', () => {
    const p = plan([podPlan('web-a', 'web', {})]);
    const { facts } = compare({
      node: NODE,
      plan: p,
      events: drain('timeout', ['web-a', 'evicting', 'waiting-for-budget']),
      before: [pod('web-a', 'web', NODE)],
      after: [pod('web-a', 'web', NODE)],
    });
    expect(facts.filter((f) => !f.agree).map((f) => f.fact)).toEqual(['blocked', 'outcome', 'replacements', 'node']);
  });

  it('compares the node only where the scheduler has no choice', () => {
    const p = plan([
      podPlan('only-a', 'only', { replacement: replacement(['fid-node-3']) }),
      podPlan('any-a', 'any', { replacement: replacement(['fid-node-2', 'fid-node-4']) }),
      // fid-node-4 is a node another replacement could also take: not compared either.
      podPlan('late-a', 'late', { replacement: replacement(['fid-node-4']) }),
    ]);
    const events = drain('drained', ['only-a', 'terminating'], ['any-a', 'terminating'], ['late-a', 'terminating']);
    const { facts } = compare({
      node: NODE,
      plan: p,
      events,
      before: [pod('only-a', 'only', NODE), pod('any-a', 'any', NODE), pod('late-a', 'late', NODE)],
      after: [
        pod('only-b', 'only', 'fid-node-2'),
        pod('any-b', 'any', 'fid-node-4'),
        pod('late-b', 'late', 'fid-node-2'),
      ],
    });
    expect(facts.filter((f) => f.fact === 'node')).toEqual([
      {
        subject: 'replacement of only-a',
        fact: 'node',
        plan: 'fid-node-3',
        cluster: 'not fid-node-3 (fid-node-2×1)',
        agree: false,
      },
    ]);
  });

  it('compares preemption victims by name, and leaves a tied nomination unjudged', () => {
    const victim = (name: string) => ({
      namespace: 'fidelity',
      name,
      node: 'fid-node-2',
      priority: 100,
      budgetsBroken: [],
      controller: { kind: 'Deployment', name: 'low' },
      replacement: replacement([]),
    });
    const preempting = (tiedWith: string[]) =>
      plan([
        podPlan('high-a', 'high', {
          replacement: replacement(['fid-node-2'], {
            preemption: { node: 'fid-node-2', victims: [victim('low-a')], budgetsBroken: [], tiedWith },
          }),
        }),
      ]);
    const observation = {
      node: NODE,
      events: drain('drained', ['high-a', 'terminating']),
      before: [pod('high-a', 'high', NODE), pod('low-a', 'low', 'fid-node-2'), pod('low-b', 'low', 'fid-node-3')],
      after: [pod('high-b', 'high', 'fid-node-2'), pod('low-b', 'low', 'fid-node-3'), pod('low-c', 'low', null)],
    };
    const certain = compare({ ...observation, plan: preempting([]) });
    expect(certain.facts.filter((f) => !f.agree)).toEqual([]);
    expect(certain.facts.find((f) => f.fact === 'preemption victims')).toMatchObject({
      plan: 'low-a',
      cluster: 'low-a',
    });
    const tied = compare({ ...observation, plan: preempting(['fid-node-3']) });
    expect(tied.facts.find((f) => f.fact === 'preemption victims')).toBeUndefined();
    expect(tied.notJudged).toEqual([
      'low: has pods on fid-node-2, fid-node-3, where a tied or racing preemption picks its victims',
      "preemption victims: high-a's nomination is tied with fid-node-3",
    ]);
    // Which node's pods lose their room is the scheduler's random pick: low's replacements are not judged.
    expect(tied.facts.filter((f) => f.subject === 'low')).toEqual([]);
  });

  it("leaves unjudged the victims of a preemption that spares pods of a budget its wave's evictions race", () => {
    // The plan's preemption spares low's pods for budget fidelity/low, which the wave evicts two of: met
    // before the second eviction is admitted, the scheduler may take low-b instead, as it did here.
    const preempting = (budgetsSpared: Array<`${string}/${string}`>) =>
      plan(
        [
          podPlan('high-a', 'high', {
            replacement: replacement(['fid-node-2'], {
              preemption: { node: 'fid-node-2', victims: [], budgetsBroken: [], tiedWith: [], budgetsSpared },
            }),
          }),
        ],
        { budgets: [{ namespace: 'fidelity', name: 'low', perWave: 2 }] } as unknown as Partial<DrainPlan>,
      );
    const observation = {
      node: NODE,
      events: drain('drained', ['high-a', 'terminating']),
      before: [pod('high-a', 'high', NODE), pod('low-b', 'low', 'fid-node-2')],
      after: [pod('high-b', 'high', 'fid-node-2'), pod('low-c', 'low', null)],
    };
    const certain = compare({ ...observation, plan: preempting([]) });
    expect(certain.facts.find((f) => f.fact === 'preemption victims')).toMatchObject({ plan: 'none', agree: false });
    const racing = compare({ ...observation, plan: preempting(['fidelity/low']) });
    expect(racing.facts.find((f) => f.fact === 'preemption victims')).toBeUndefined();
    expect(racing.notJudged).toContain(
      "preemption victims: high-a's preemption spares pods of budget fidelity/low, which its wave's evictions race",
    );
    expect(racing.facts.filter((f) => !f.agree)).toEqual([]);
  });

  it("matches several replacements of one workload as a multiset of nodes: which goes first is the evictions' race", () => {
    const p = plan([
      podPlan('db-0', 'db', { replacement: replacement(['fid-node-2']) }),
      podPlan('db-1', 'db', { replacement: replacement([]) }),
    ]);
    const { facts } = compare({
      node: NODE,
      plan: p,
      events: drain('drained', ['db-0', 'terminating'], ['db-1', 'terminating']),
      before: [pod('db-0', 'db', NODE, { uid: 'old-0' }), pod('db-1', 'db', NODE, { uid: 'old-1' })],
      // The cluster met db-1's replacement first: it took the room, db-0's found none.
      after: [pod('db-0', 'db', null, { uid: 'new-0' }), pod('db-1', 'db', 'fid-node-2', { uid: 'new-1' })],
    });
    expect(facts.filter((f) => !f.agree)).toEqual([]);
    expect(facts.find((f) => f.fact === 'node')).toMatchObject({ plan: 'fid-node-2', cluster: 'fid-node-2' });
  });

  it("counts a preempted DaemonSet pod's replacement: its controller recreates it for the same node", () => {
    const p = plan([
      podPlan('high-a', 'high', {
        replacement: replacement(['fid-node-2'], {
          preemption: {
            node: 'fid-node-2',
            victims: [victimOf('agent-x', 'DaemonSet', 'agent')],
            budgetsBroken: [],
            tiedWith: [],
          },
        }),
      }),
    ]);
    const { facts } = compare({
      node: NODE,
      plan: p,
      events: drain('drained', ['high-a', 'terminating']),
      before: [pod('high-a', 'high', NODE), pod('agent-x', 'agent', 'fid-node-2', { daemonSet: true })],
      after: [pod('high-b', 'high', 'fid-node-2'), pod('agent-y', 'agent', null, { daemonSet: true })],
    });
    expect(facts.find((f) => f.subject === 'agent')).toMatchObject({
      fact: 'replacements',
      cluster: '0 placed, 1 without a node',
      agree: true,
    });
    expect(facts.filter((f) => !f.agree)).toEqual([]);
  });

  it('a replacement a later one preempts: only the last of the chain is compared, the victim not by name', () => {
    const web = podPlan('web-a', 'web', { replacement: replacement(['fid-node-2']) });
    const high = podPlan('high-a', 'high', {
      replacement: replacement(['fid-node-2'], {
        preemption: {
          node: 'fid-node-2',
          victims: [victimOf('web-a', 'Deployment', 'web')],
          budgetsBroken: [],
          tiedWith: [],
        },
      }),
    });
    // The preemptor first in the plan's order as well as last: the chain's end is the deepest victim.
    for (const pods of [
      [web, high],
      [high, web],
    ]) {
      const { facts, notJudged } = compare({
        node: NODE,
        plan: plan(pods),
        events: drain('drained', ['web-a', 'terminating'], ['high-a', 'terminating']),
        before: [pod('web-a', 'web', NODE), pod('high-a', 'high', NODE)],
        after: [pod('web-c', 'web', null), pod('high-b', 'high', 'fid-node-2')],
      });
      expect(facts.filter((f) => !f.agree)).toEqual([]);
      expect(facts.find((f) => f.subject === 'web')).toMatchObject({ plan: '0 placed, 1 without a node' });
      expect(notJudged).toEqual(['preemption victims: the replacement of web-a']);
    }
  });

  it('a replacement the plan calls unknown is not judged', () => {
    const p = plan([
      podPlan('db-0', 'db', { replacement: replacement([], { unknown: 'PersistentVolumes were not read' }) }),
    ]);
    const { facts, notJudged } = compare({
      node: NODE,
      plan: p,
      events: drain('drained', ['db-0', 'terminating']),
      before: [pod('db-0', 'db', NODE)],
      after: [pod('db-0', 'db', 'fid-node-2', { uid: 'new' })],
    });
    expect(facts.filter((f) => f.fact === 'replacements')).toEqual([]);
    expect(notJudged[0]).toMatch(/^db: the plan cannot tell what becomes of 1 replacement/);
  });

  it('an unknown replacement may preempt: the workload it displaced and the victims are not judged, never agreeing', () => {
    // web's replacement might fit or preempt, as the evictions race; in the cluster it preempted a filler
    // pod on fid-node-2, whose own replacement went to fid-node-3.
    const race = 'the order of the evictions decides';
    const p = plan([
      podPlan('web-a', 'web', { replacement: replacement([], { unknown: race }) }),
      podPlan('filler-a', 'filler', { replacement: replacement(['fid-node-3']) }),
    ]);
    const { facts, notJudged } = compare({
      node: NODE,
      plan: p,
      events: drain('drained', ['web-a', 'terminating'], ['filler-a', 'terminating']),
      before: [pod('web-a', 'web', NODE), pod('filler-a', 'filler', NODE), pod('filler-b', 'filler', 'fid-node-2')],
      after: [
        pod('web-new', 'web', 'fid-node-2'),
        pod('filler-new-1', 'filler', 'fid-node-3'),
        pod('filler-new-2', 'filler', 'fid-node-3'),
      ],
    });
    expect(facts.filter((f) => !f.agree)).toEqual([]);
    expect(facts.filter((f) => f.fact === 'replacements' || f.fact === 'preemption victims')).toEqual([]);
    expect(notJudged).toEqual([
      `web: the plan cannot tell what becomes of 1 replacement(s) (${race})`,
      'filler: preempted where the plan does not say, while 1 replacement(s) are unknown',
      `preemption victims: the plan cannot tell what web-a's replacement preempts (${race})`,
    ]);
  });

  it("the victims of an unknown replacement's preemption may not be: their workload's replacements are not judged", () => {
    // web's replacement might preempt db-0 on fid-node-2, as the plan says, or find room where it does not
    // say (seed 177: a filler's replacement the plan placed on db-6's pods went elsewhere).
    const race = 'the order of the evictions decides';
    const victim = victimOf('db-0', 'StatefulSet', 'db');
    const p = plan([
      podPlan('web-a', 'web', {
        replacement: replacement(['fid-node-2'], {
          unknown: race,
          preemption: { node: 'fid-node-2', victims: [victim], budgetsBroken: [], tiedWith: [] },
        }),
      }),
      podPlan('db-1', 'db', { replacement: replacement([]) }),
    ]);
    const { facts, notJudged } = compare({
      node: NODE,
      plan: p,
      events: drain('drained', ['web-a', 'terminating'], ['db-1', 'terminating']),
      before: [pod('web-a', 'web', NODE), pod('db-1', 'db', NODE, { uid: 'old-1' }), pod('db-0', 'db', 'fid-node-2')],
      after: [
        pod('web-b', 'web', 'fid-node-3'),
        pod('db-1', 'db', null, { uid: 'new-1' }),
        pod('db-0', 'db', 'fid-node-2'),
      ],
    });
    expect(facts.filter((f) => f.subject === 'db')).toEqual([]);
    expect(notJudged).toContain(
      'db: 1 replacement(s) that may not be made (preempted by a replacement the plan cannot tell about, or replacing a pod whose eviction is unknown)',
    );
    expect(facts.filter((f) => !f.agree)).toEqual([]);
  });

  it("a budget's later waves behind an unknown replacement: its waves, those pods' nodes and whether the drain finishes are not judged", () => {
    // Seed 96: the first replacement found no node, so the budget never let the second pod go.
    const race = 'its required pod affinity selects pods of its wave being replaced';
    const waits = 'budget fidelity/web frees up only once the replacement of fidelity/web-a is Ready';
    const p = plan(
      [
        podPlan('web-a', 'web', { pdbs: [budget], replacement: replacement(['fid-node-2'], { unknown: race }) }),
        podPlan('web-b', 'web', { pdbs: [budget], outcome: 'waits', wave: 2, outcomeUnknown: waits }),
      ],
      { verdict: 'blocked', budgets: [{ ...budget, waves: 2, unknown: waits }] as unknown as DrainPlan['budgets'] },
    );
    const { facts, notJudged } = compare({
      node: NODE,
      plan: p,
      events: drain(
        'timeout',
        ['web-a', 'evicting', 'terminating', 'gone'],
        ['web-b', 'evicting', 'waiting-for-budget'],
      ),
      before: [pod('web-a', 'web', NODE), pod('web-b', 'web', NODE)],
      after: [pod('web-c', 'web', null), pod('web-b', 'web', NODE)],
    });
    expect(facts.map((f) => f.fact)).not.toContain('blocked');
    expect(facts.map((f) => f.fact)).not.toContain('waves');
    expect(facts.filter((f) => f.fact === 'node')).toEqual([]);
    expect(notJudged).toEqual(
      expect.arrayContaining([
        `drain of ${NODE}: whether it finishes (${waits})`,
        `budget fidelity/web: its waves (${waits})`,
        'replacement of web-b: node (whether the pod is evicted at all is unknown)',
      ]),
    );
  });

  it("a pod whose eviction is unknown may not be replaced: its replacement's victims are not judged", () => {
    // Seed 7329: web-2's second pod waits for a replacement of unknown fate; if evicted, its replacement
    // preempts a DaemonSet pod on fid-node-2. The budget never let it go, so nothing was preempted. (Here
    // the eviction is unknown for a race of its own: with an unknown replacement, no victim is judged.)
    const waits = "the API server admits one of budget fidelity/web's evictions of a wave at once";
    const victim = victimOf('agent-x', 'DaemonSet', 'agent');
    const preemption = { node: 'fid-node-2', victims: [victim], budgetsBroken: [], tiedWith: [] };
    const p = plan(
      [
        podPlan('web-a', 'web', { pdbs: [budget] }),
        podPlan('web-b', 'web', {
          pdbs: [budget],
          outcome: 'waits',
          wave: 2,
          outcomeUnknown: waits,
          replacement: replacement([], { schedulable: true, preemption }),
        }),
      ],
      { verdict: 'blocked', budgets: [{ ...budget, waves: 2, unknown: waits }] as unknown as DrainPlan['budgets'] },
    );
    const { facts, notJudged } = compare({
      node: NODE,
      plan: p,
      events: drain('timeout', ['web-a', 'terminating'], ['web-b', 'evicting', 'waiting-for-budget']),
      before: [pod('web-a', 'web', NODE), pod('web-b', 'web', NODE), pod('agent-x', 'agent', 'fid-node-2')],
      after: [pod('web-c', 'web', 'fid-node-2'), pod('web-b', 'web', NODE), pod('agent-x', 'agent', 'fid-node-2')],
    });
    expect(facts.filter((f) => f.subject === 'agent' || f.fact === 'preemption victims')).toEqual([]);
    expect(notJudged).toContain("preemption victims: web-b's replacement preempts, but may not be made");
    expect(facts.filter((f) => !f.agree)).toEqual([]);
  });

  it('a drain something else certainly blocks is still judged blocked, whatever is unknown', () => {
    const waits = 'budget fidelity/web frees up only once the replacement of fidelity/web-a is Ready';
    const p = plan(
      [
        podPlan('web-b', 'web', { pdbs: [budget], outcome: 'waits', wave: 2, outcomeUnknown: waits }),
        podPlan('db-0', 'db', { outcome: 'blocked', wave: null }),
      ],
      { verdict: 'blocked' },
    );
    const { facts } = compare({
      node: NODE,
      plan: p,
      events: drain('timeout', ['web-b', 'evicting', 'waiting-for-budget'], ['db-0', 'evicting', 'waiting-for-budget']),
      before: [pod('web-b', 'web', NODE), pod('db-0', 'db', NODE)],
      after: [pod('web-b', 'web', NODE), pod('db-0', 'db', NODE)],
    });
    expect(facts.find((f) => f.fact === 'blocked')).toMatchObject({ plan: 'blocked', cluster: 'blocked', agree: true });
  });

  it('several policies deny an eviction: the API server naming any one of them agrees (seed 9023)', () => {
    const text = (policy: string) =>
      `pods "web-a" is forbidden: ValidatingAdmissionPolicy '${policy}' with binding '${policy}-binding' denied request: no`;
    const denial = (policy: string) => ({
      by: 'ValidatingAdmissionPolicy' as const,
      name: policy,
      binding: `${policy}-binding`,
      message: 'no',
      code: 422,
      text: text(policy),
    });
    const admission = {
      request: 'CREATE pods/eviction',
      denied: denial('deny-1'),
      deniedAlso: [denial('deny-2')],
      warnings: [],
      unknown: [],
    };
    const p = plan([podPlan('web-a', 'web', { outcome: 'blocked', wave: null, replacement: null, admission })], {
      verdict: 'blocked',
    });
    const judged = (policy: string) =>
      compare({
        node: NODE,
        plan: p,
        events: [
          ...drain('timeout', ['web-a', 'evicting']).slice(0, -1),
          {
            type: 'pod',
            atMs: 0,
            pod: { namespace: 'fidelity', name: 'web-a', uid: 'uid-web-a', node: NODE },
            state: { phase: 'failed', error: `${text(policy)} (HTTP 422)` },
          },
          { type: 'finished', atMs: 0, result: 'failed' } as unknown as DrainEvent,
        ],
        before: [pod('web-a', 'web', NODE)],
        after: [pod('web-a', 'web', NODE)],
      }).facts.find((f) => f.fact === 'admission');
    for (const policy of ['deny-1', 'deny-2'])
      expect(judged(policy)).toMatchObject({
        plan: `denied: one of ${text('deny-1')} | ${text('deny-2')}`,
        cluster: `denied: ${text(policy)}`,
        agree: true,
      });
    expect(judged('deny-3')).toMatchObject({ agree: false });
  });
});

describe('compare: admission webhooks on evictions', () => {
  const refusal = (webhook: string, message: string) => `admission webhook "${webhook}" denied the request: ${message}`;
  const webhook = (name: string, extra: Partial<AdmissionWebhookPlan>): AdmissionWebhookPlan => ({
    kind: 'ValidatingWebhookConfiguration',
    configuration: `fidelity-${name}`,
    name,
    failurePolicy: 'Fail',
    timeoutSeconds: 5,
    sideEffects: 'None',
    answer: 'unknown',
    text: '',
    ...extra,
  });
  const admissionOf = (webhooks: AdmissionWebhookPlan[], extra: object = {}) => ({
    request: 'CREATE pods/eviction',
    warnings: [],
    unknown: [],
    webhooks,
    ...extra,
  });
  const KUBEVIRT = 'virt-launcher-eviction-interceptor.kubevirt.io';
  const MIGRATING = 'Eviction triggered evacuation of VMI "fidelity/web"';
  const finished = (result: string) => ({ type: 'finished', atMs: 0, result }) as unknown as DrainEvent;
  const judge = (p: DrainPlan, events: DrainEvent[], webhookCalls: Record<string, string[]>) =>
    compare({
      node: NODE,
      plan: p,
      events,
      before: [pod('web-a', 'web', NODE)],
      after: [pod('web-b', 'web', 'fid-node-2')],
      webhookCalls,
    });

  it("a known operator's 429s: the pod waited as the plan said, on the webhook and the message it named", () => {
    const p = plan([
      podPlan('web-a', 'web', {
        outcome: 'waits',
        admission: admissionOf([webhook(KUBEVIRT, { answer: 'wait', code: 429, message: MIGRATING })]),
      }),
    ]);
    const events = [
      event('web-a', { phase: 'evicting', attempt: 1 }),
      event('web-a', { phase: 'retrying', attempts: 1, error: refusal(KUBEVIRT, MIGRATING), nextAttemptMs: 0 }),
      event('web-a', { phase: 'evicting', attempt: 2 }),
      event('web-a', { phase: 'gone', how: 'evicted' }),
      finished('drained'),
    ];
    const { facts } = judge(p, events, { 'web-a': [KUBEVIRT] });
    expect(facts.filter((f) => !f.agree)).toEqual([]);
    expect(facts.find((f) => f.fact === 'outcome')).toMatchObject({ cluster: '0 at once, 1 after waiting, 0 never' });
    expect(facts.find((f) => f.fact === 'admission')).toMatchObject({
      cluster: `admitted; waited: ${refusal(KUBEVIRT, MIGRATING)}`,
    });
    expect(facts.find((f) => f.fact === 'webhooks')).toMatchObject({ plan: KUBEVIRT, cluster: KUBEVIRT });
  });

  it("a webhook whose answer the plan cannot tell, and says so: its pod's outcome and the drain's end are not judged, whether it is called is", () => {
    const deny = 'deny-1.fidelity.example.com';
    const decides = `admission webhook "${deny}" decides (failurePolicy Fail, timeout 5s): what it answers is its own (the plan cannot tell)`;
    const admission = admissionOf([webhook(deny, { text: decides })]);
    const p = plan([podPlan('web-a', 'web', { admission, outcomeUnknown: decides })], { verdict: 'blocked' });
    const events = [
      event('web-a', { phase: 'evicting', attempt: 1 }),
      event('web-a', { phase: 'failed', error: `${refusal(deny, 'no')} (HTTP 403)` }),
      finished('failed'),
    ];
    const { facts, notJudged } = judge(p, events, { 'web-a': [deny] });
    expect(facts.filter((f) => !f.agree)).toEqual([]);
    expect(facts.map((f) => f.fact)).not.toContain('blocked');
    expect(facts.map((f) => f.fact)).not.toContain('outcome');
    expect(facts.find((f) => f.fact === 'webhooks')).toMatchObject({ plan: deny, cluster: deny, agree: true });
    expect(notJudged).toContain(`web-a: its admission (webhook ${deny} unknown)`);
    expect(notJudged).toContain(`web-a: its outcome (${decides})`);
    // Not called where the plan says it decides: disagrees.
    expect(judge(p, events, {}).facts.find((f) => f.fact === 'webhooks')).toMatchObject({ agree: false });

    // A plan that names the webhook but still promises the eviction at once, and a clear drain, is held to it.
    const promised = plan([podPlan('web-a', 'web', { admission })]);
    const judged = judge(promised, events, { 'web-a': [deny] }).facts;
    expect(judged.find((f) => f.fact === 'outcome')).toMatchObject({
      plan: '1 at once, 0 after waiting, 0 never',
      cluster: '0 at once, 0 after waiting, 1 never',
      agree: false,
    });
    expect(judged.find((f) => f.fact === 'blocked')).toMatchObject({
      plan: 'finishes',
      cluster: 'blocked',
      agree: false,
    });
  });

  it("a webhook's denial beside one that answers 429 first (waitsFirst): the drain may wait on the 429s before the denial, or end first (seed 10046)", () => {
    const STRIMZI = 'strimzi-drain-cleaner.strimzi.io';
    const ROLLED = 'The pod will be rolled by the Strimzi Cluster Operator';
    const denied = { by: 'ValidatingWebhookConfiguration', name: STRIMZI, binding: null, message: ROLLED, code: 500 };
    const hooks = [
      webhook(KUBEVIRT, { answer: 'wait', code: 429, message: MIGRATING }),
      webhook(STRIMZI, { answer: 'deny', code: 500, message: ROLLED }),
    ];
    const admissionWith = (extra: object) =>
      admissionOf(hooks, { denied: { ...denied, text: refusal(STRIMZI, ROLLED) }, ...extra });
    const planOf = (extra: object) =>
      plan([podPlan('web-a', 'web', { outcome: 'blocked', wave: null, admission: admissionWith(extra) })], {
        verdict: 'blocked',
      });
    const waited = event('web-a', {
      phase: 'retrying',
      attempts: 1,
      error: refusal(KUBEVIRT, MIGRATING),
      nextAttemptMs: 0,
    });
    const deniedEvent = event('web-a', { phase: 'failed', error: `${refusal(STRIMZI, ROLLED)} (HTTP 500)` });
    const admissionFact = (p: DrainPlan, events: DrainEvent[], end: string) =>
      judge(p, [event('web-a', { phase: 'evicting', attempt: 1 }), ...events, finished(end)], {
        'web-a': [KUBEVIRT, STRIMZI],
      }).facts.find((f) => f.fact === 'admission');
    const withWaits = planOf({ waitsFirst: [KUBEVIRT] });
    expect(admissionFact(withWaits, [deniedEvent], 'failed')).toMatchObject({ agree: true });
    expect(admissionFact(withWaits, [waited, deniedEvent], 'failed')).toMatchObject({ agree: true });
    expect(admissionFact(withWaits, [waited], 'timeout')).toMatchObject({
      cluster: `admitted; waited: ${refusal(KUBEVIRT, MIGRATING)}`,
      agree: true,
    });
    // Without waitsFirst the plan promises the denial at once: the 429s disagree.
    expect(admissionFact(planOf({}), [waited], 'timeout')).toMatchObject({ agree: false });
  });

  it("a policy's denial ends the chain before any validating webhook; a mutating one is called first", () => {
    const text = "pods \"web-a\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: no";
    const denied = { by: 'ValidatingAdmissionPolicy', name: 'p', binding: 'b', message: 'no', code: 422, text };
    const hooks = [
      webhook('mutate.fidelity.example.com', { kind: 'MutatingWebhookConfiguration', answer: 'admit' }),
      webhook(KUBEVIRT, { answer: 'admit' }),
    ];
    const p = plan(
      [podPlan('web-a', 'web', { outcome: 'blocked', wave: null, admission: admissionOf(hooks, { denied }) })],
      { verdict: 'blocked' },
    );
    const events = [
      event('web-a', { phase: 'evicting', attempt: 1 }),
      event('web-a', { phase: 'failed', error: `${text} (HTTP 422)` }),
      finished('failed'),
    ];
    const calls = (names: string[]) => judge(p, events, { 'web-a': names }).facts.find((f) => f.fact === 'webhooks');
    expect(calls(['mutate.fidelity.example.com'])).toMatchObject({ plan: 'mutate.fidelity.example.com', agree: true });
    expect(calls(['mutate.fidelity.example.com', KUBEVIRT])).toMatchObject({ agree: false });
  });
});

describe('drainOutcomes', () => {
  const evicting = (attempt: number): PodDrainState => ({ phase: 'evicting', attempt });
  const alreadyGone: PodDrainState = { phase: 'gone', how: 'already-gone' };
  const refused = { phase: 'waiting-for-budget', pdb: 'db', why: 'budget-exhausted' } as unknown as PodDrainState;

  it.each<{ name: string; states: PodDrainState[]; outcome: string }>([
    {
      name: 'a first request answered with the pod already gone admitted it at once (its budget did not refuse it)',
      states: [{ phase: 'queued' }, evicting(1), alreadyGone],
      outcome: 'immediate',
    },
    {
      name: 'a request after a budget refusal answered with the pod already gone admitted it after waiting',
      states: [{ phase: 'queued' }, evicting(1), refused, evicting(2), alreadyGone],
      outcome: 'waits',
    },
    {
      name: 'a pod that disappears while it waits for its budget, no request out, was never admitted',
      states: [{ phase: 'queued' }, evicting(1), refused, alreadyGone],
      outcome: 'blocked',
    },
    {
      name: 'a pod gone before its first request (queued) was never admitted',
      states: [{ phase: 'queued' }, alreadyGone],
      outcome: 'blocked',
    },
  ])('$name', ({ states, outcome }) => {
    expect(drainOutcomes(states.map((s) => event('db-0', s))).get('db-0')).toBe(outcome);
  });

  it("seed 42: db-4-2's only request found it gone; its budget's wave agrees with the plan's at once", () => {
    const p = plan(
      [podPlan('db-4-2', 'db-4', { pdbs: [{ namespace: 'fidelity', name: 'db-4', disruptionsAllowed: 1 }] })],
      {
        budgets: [{ namespace: 'fidelity', name: 'db-4', waves: 1 }],
      } as unknown as Partial<DrainPlan>,
    );
    const { facts } = compare({
      node: NODE,
      plan: p,
      events: [
        event('db-4-2', { phase: 'queued' }),
        event('db-4-2', evicting(1)),
        event('db-4-2', alreadyGone),
        { type: 'finished', atMs: 0, result: 'drained' } as unknown as DrainEvent,
      ],
      before: [pod('db-4-2', 'db-4', NODE, { uid: 'old' })],
      after: [pod('db-4-2', 'db-4', 'fid-node-2', { uid: 'new' })],
    });
    expect(facts.find((f) => f.fact === 'waves')).toMatchObject({
      subject: 'budget fidelity/db-4',
      cluster: '1 at once, 0 after waiting, 0 never',
      agree: true,
    });
    expect(facts.filter((f) => !f.agree)).toEqual([]);
  });
});
