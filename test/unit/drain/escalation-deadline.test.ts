import { describe, expect, it } from 'vitest';
import {
  budgetWaitMs,
  escalatedConfig,
  escalatingEvent,
  msUntilEscalation,
  type EscalationCandidate,
  type EscalationRequest,
} from '../../../src/drain/escalation-deadline.js';
import type { PodRef } from '../../../src/drain/events.js';
import type { PodMachineConfig } from '../../../src/drain/pod-machine.js';

const NOW = 1_000_000;
const shopAfterMinute: EscalationRequest = { afterMs: 60_000, namespaces: ['shop', 'batch'] };
const pod = (o: Partial<EscalationCandidate> = {}): EscalationCandidate => ({
  namespace: 'shop',
  method: 'evict',
  waitingSinceMs: NOW - 10_000,
  ...o,
});

describe('msUntilEscalation', () => {
  interface Case {
    readonly name: string;
    readonly escalation: EscalationRequest | undefined;
    readonly pod: EscalationCandidate;
    readonly expected: number | null;
  }
  const cases: Case[] = [
    { name: 'without --escalate-after no pod is escalated', escalation: undefined, pod: pod(), expected: null },
    {
      name: 'a pod of a namespace not named is never escalated',
      escalation: shopAfterMinute,
      pod: pod({ namespace: 'payments' }),
      expected: null,
    },
    {
      name: 'a pod its budget never refused has no deadline yet',
      escalation: shopAfterMinute,
      pod: pod({ waitingSinceMs: null }),
      expected: null,
    },
    {
      name: 'a pod already deleted (escalated, or --disable-eviction) is not escalated again',
      escalation: shopAfterMinute,
      pod: pod({ method: 'delete' }),
      expected: null,
    },
    {
      name: 'counted from the first refusal: refused 10s ago, due in 50s',
      escalation: shopAfterMinute,
      pod: pod(),
      expected: 50_000,
    },
    {
      name: 'any named namespace counts, not only the first',
      escalation: shopAfterMinute,
      pod: pod({ namespace: 'batch' }),
      expected: 50_000,
    },
    {
      name: 'due exactly at the bound',
      escalation: shopAfterMinute,
      pod: pod({ waitingSinceMs: NOW - 60_000 }),
      expected: 0,
    },
    {
      name: 'past the bound it is due (0), never negative',
      escalation: shopAfterMinute,
      pod: pod({ waitingSinceMs: NOW - 600_000 }),
      expected: 0,
    },
    {
      name: 'a first refusal at time 0 is a refusal like any other',
      escalation: { afterMs: 5_000, namespaces: ['shop'] },
      pod: pod({ waitingSinceMs: 0 }),
      expected: 0,
    },
  ];
  it.each(cases)('$name', ({ escalation, pod: candidate, expected }) => {
    expect(msUntilEscalation(escalation, candidate, NOW)).toBe(expected);
  });
});

describe('budgetWaitMs', () => {
  it.each([
    { name: 'no escalation: the budget fallback', fallback: 30_000, until: null, expected: 30_000 },
    { name: 'an escalation due sooner wakes the pod for it', fallback: 30_000, until: 4_000, expected: 4_000 },
    {
      name: 'an escalation due later waits no longer than the fallback',
      fallback: 30_000,
      until: 90_000,
      expected: 30_000,
    },
    { name: 'an escalation due now does not wait', fallback: 30_000, until: 0, expected: 0 },
  ])('$name', ({ fallback, until, expected }) => {
    expect(budgetWaitMs(fallback, until)).toBe(expected);
  });
});

describe('escalatedConfig', () => {
  it('deletes from then on, keeping the grace period, dry run and failure limit', () => {
    const config: PodMachineConfig = { dryRun: 'none', method: 'evict', graceSeconds: 45, maxFailures: 10 };
    expect(escalatedConfig(config)).toEqual({ ...config, method: 'delete', escalated: true });
    expect(config.method).toBe('evict');
  });
});

describe('escalatingEvent', () => {
  const web: PodRef = { namespace: 'shop', name: 'web-1', uid: 'u1', node: 'node-1' };

  it('says how long the budget refused the pod, from its first refusal', () => {
    expect(escalatingEvent(web, 'web', NOW - 61_000, NOW)).toEqual({
      type: 'escalating',
      atMs: NOW,
      pod: web,
      pdb: 'web',
      refusedForMs: 61_000,
    });
  });

  it('a pod with no refusal on record was refused for no time', () => {
    expect(escalatingEvent(web, 'web', null, NOW).refusedForMs).toBe(0);
  });
});
