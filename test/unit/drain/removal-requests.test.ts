import { describe, expect, it } from 'vitest';
import type { PodMachineConfig } from '../../../src/drain/pod-machine.js';
import {
  clientDryRunState,
  podMachineConfig,
  podWriteOptions,
  requestWords,
} from '../../../src/drain/removal-requests.js';
import type { DrainTarget } from '../../../src/drain/targets.js';

const target = (method: 'evict' | 'delete' = 'evict', ownGraceSeconds = 45): DrainTarget => ({
  ref: { namespace: 'shop', name: 'web-1', uid: 'uid-1', node: 'node-1' },
  method,
  pdbs: [],
  ownGraceSeconds,
});

describe('podMachineConfig', () => {
  interface Case {
    readonly name: string;
    readonly target: DrainTarget;
    readonly dryRun: 'none' | 'client' | 'server';
    readonly grace: number;
    readonly expected: PodMachineConfig;
  }
  const cases: Case[] = [
    {
      name: '--grace-period -1: the pod’s own terminationGracePeriodSeconds',
      target: target('evict', 45),
      dryRun: 'none',
      grace: -1,
      expected: { dryRun: 'none', method: 'evict', graceSeconds: 45, maxFailures: 10 },
    },
    {
      name: '--grace-period 0 is a grace period, not "unset"',
      target: target('evict', 45),
      dryRun: 'none',
      grace: 0,
      expected: { dryRun: 'none', method: 'evict', graceSeconds: 0, maxFailures: 10 },
    },
    {
      name: 'a server dry run sends dry-run requests',
      target: target('evict'),
      dryRun: 'server',
      grace: 5,
      expected: { dryRun: 'server', method: 'evict', graceSeconds: 5, maxFailures: 10 },
    },
    {
      name: 'a client dry run sends nothing, so its machine is not a dry-run one',
      target: target('delete'),
      dryRun: 'client',
      grace: -1,
      expected: { dryRun: 'none', method: 'delete', graceSeconds: 45, maxFailures: 10 },
    },
  ];
  it.each(cases)('$name', ({ target: t, dryRun, grace, expected }) => {
    expect(podMachineConfig(t, dryRun, grace, 10)).toEqual(expected);
  });
});

describe('podWriteOptions', () => {
  const config: PodMachineConfig = { dryRun: 'none', method: 'evict', graceSeconds: 45, maxFailures: 10 };

  it('names the pod by its UID as a precondition, with --grace-period', () => {
    expect(podWriteOptions(target().ref, config, 20)).toEqual({
      namespace: 'shop',
      name: 'web-1',
      uid: 'uid-1',
      gracePeriodSeconds: 20,
      dryRun: false,
    });
  });

  it('--grace-period -1 sends none: the API server applies the pod’s own', () => {
    expect(podWriteOptions(target().ref, config, -1).gracePeriodSeconds).toBeNull();
  });

  it('--grace-period 0 is sent as 0', () => {
    expect(podWriteOptions(target().ref, config, 0).gracePeriodSeconds).toBe(0);
  });

  it('a server dry run asks the API server for a dry run', () => {
    expect(podWriteOptions(target().ref, { ...config, dryRun: 'server' }, -1).dryRun).toBe(true);
  });
});

describe('requestWords', () => {
  it.each([
    { method: 'evict', expected: { verb: 'create', resource: 'pods/eviction' } },
    { method: 'delete', expected: { verb: 'delete', resource: 'pods' } },
  ] as const)('$method: $expected.verb $expected.resource', ({ method, expected }) => {
    expect(requestWords(method)).toEqual(expected);
  });
});

describe('clientDryRunState', () => {
  it('an eviction would be admitted, its budgets not checked', () => {
    expect(clientDryRunState(target('evict'))).toEqual({
      phase: 'dry-run',
      admitted: true,
      reason: 'would be evicted (budgets not checked)',
      pdb: null,
    });
  });

  it('a delete (--disable-eviction) would be deleted', () => {
    expect(clientDryRunState(target('delete'))).toMatchObject({ reason: 'would be deleted' });
  });
});
