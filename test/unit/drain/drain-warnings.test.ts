import { describe, expect, it } from 'vitest';
import { DrainWarnings, serverWarnings } from '../../../src/drain/drain-warnings.js';
import type { DrainEvent, PodRef } from '../../../src/drain/events.js';
import type { ApiOutcome } from '../../../src/kube/api-outcome.js';

const web1: PodRef = { namespace: 'shop', name: 'web-1', uid: 'u1', node: 'n1' };
const web2: PodRef = { namespace: 'shop', name: 'web-2', uid: 'u2', node: 'n1' };
const POLICY = 'Validation failed for ValidatingAdmissionPolicy "audit-evictions": evicting shop pods is logged';

function warnings() {
  const events: DrainEvent[] = [];
  return { events, said: new DrainWarnings((e) => events.push(e), { now: () => 7 }) };
}

describe('serverWarnings', () => {
  it.each<[string, ApiOutcome, readonly string[]]>([
    ['an admitted request carries its warnings', { kind: 'ok', warnings: [POLICY] }, [POLICY]],
    ['an admitted request without any', { kind: 'ok' }, []],
    [
      'a refusal carries its warnings too',
      { kind: 'status', code: 429, status: {} as never, warnings: ['a', 'b'] },
      ['a', 'b'],
    ],
    ['no answer, no warning', { kind: 'network', message: 'connection refused' }, []],
  ])('%s', (_name, outcome, expected) => {
    expect(serverWarnings(outcome)).toEqual(expected);
  });
});

describe('DrainWarnings', () => {
  it('says a cause once, however often it goes wrong, and another cause apart', () => {
    const { events, said } = warnings();
    said.once('watch pods on node n1', 'watch of pods on node n1 failed (first)');
    said.once('watch pods on node n1', 'watch of pods on node n1 failed (second)');
    said.once('count shop/web', 'cannot count the pods of budget shop/web');
    expect(events).toEqual([
      { type: 'warning', atMs: 7, message: 'watch of pods on node n1 failed (first)' },
      { type: 'warning', atMs: 7, message: 'cannot count the pods of budget shop/web' },
    ]);
  });

  it('says a plain warning each time', () => {
    const { events, said } = warnings();
    said.warn('x');
    said.warn('x');
    expect(events).toHaveLength(2);
  });

  it('says the API server’s warning once per pod, naming the pod, and again for another pod', () => {
    const { events, said } = warnings();
    said.fromServer(web1, { kind: 'ok', warnings: [POLICY] });
    said.fromServer(web1, { kind: 'status', code: 429, status: {} as never, warnings: [POLICY] });
    said.fromServer(web2, { kind: 'ok', warnings: [POLICY] });
    expect(events).toEqual([
      { type: 'warning', atMs: 7, message: POLICY, pod: web1 },
      { type: 'warning', atMs: 7, message: POLICY, pod: web2 },
    ]);
  });

  it('a server warning does not silence a cause of the same words, nor the other way', () => {
    const { events, said } = warnings();
    said.once(`u1 ${POLICY}`, 'cause');
    said.fromServer(web1, { kind: 'ok', warnings: [POLICY] });
    expect(events.map((e) => e.type === 'warning' && e.message)).toEqual(['cause', POLICY]);
  });
});
