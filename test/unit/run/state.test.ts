import { describe, expect, it } from 'vitest';
import {
  activeHolder,
  ANNOTATION,
  commandRan,
  definitionOf,
  definitionOfNode,
  isFailedPhase,
  leaseFor,
  lifecycleConditions,
  phaseSeal,
  reached,
  commandSecondsAnnotation,
  releasedAnnotation,
  runDefinitionAnnotation,
  secondsLeft,
  trustedPhase,
  UNFINISHED_COMMAND,
  type RunDefinition,
  type RunOptions,
} from '../../../src/run/state.js';

/** kubectl drain's pod filters as the run records them. */
const filters = {
  ignoreDaemonSets: true,
  deleteEmptyDirData: false,
  force: false,
  podSelector: undefined,
  disableEviction: false,
  skipWaitForDeleteTimeoutSeconds: 0,
};
const definition: RunDefinition = {
  id: '20261201-140000-ab12',
  batches: [['w6', 'w1'], ['w2']],
  command: ['reboot-node.sh', '{node}'],
  options: {
    drain: {
      ...filters,
      taint: { key: 'example.com/maint', value: 'now' },
      nodeMonitorGracePeriodSeconds: 40,
      orderBy: 'priority',
      escalation: { afterSeconds: 120, namespaces: ['batch'] },
      surge: { all: false, deployments: ['demo/solo'] },
      gracePeriodSeconds: 30,
      timeoutMs: 300_000,
      concurrency: 4,
    },
    commandTimeoutMs: 0,
    nodeReadyTimeoutMs: 600_000,
    budgetTimeoutMs: 600_000,
    expectReboot: true,
    uncordon: true,
    keepGoing: false,
  },
};
const T0 = Date.parse('2026-12-01T14:00:00Z');

describe('the run Lease', () => {
  const lease = leaseFor(definition, 'ops@laptop pid 7', T0, 'kube-system');

  it('records the nodes a stopped run released once done, each once, for the resume to leave done', () => {
    const once = {
      ...lease,
      metadata: {
        ...lease.metadata,
        annotations: { ...lease.metadata?.annotations, ...releasedAnnotation(definition, ['pool-1']) },
      },
    };
    expect(definitionOf(once).released).toEqual(['pool-1']);
    const twice = releasedAnnotation(definitionOf(once), ['pool-1', 'pool-2']);
    expect(JSON.parse(Object.values(twice)[0]!)).toEqual(['pool-1', 'pool-2']);
    expect(definitionOf(lease).released).toBeUndefined();
  });

  it('records the command times a stopped run measured, for the resume to estimate from them', () => {
    const stopped = {
      ...lease,
      metadata: {
        ...lease.metadata,
        annotations: { ...lease.metadata?.annotations, ...commandSecondsAnnotation([41.5, 38]) },
      },
    };
    expect(definitionOf(stopped).commandSeconds).toEqual([41.5, 38]);
    expect(definitionOf(lease).commandSeconds).toBeUndefined();
    expect(commandSecondsAnnotation([])).toEqual({});
    // Unreadable times are no times: an estimate is never worth refusing a resume.
    const garbled = {
      ...stopped,
      metadata: {
        ...stopped.metadata,
        annotations: { ...stopped.metadata.annotations, 'maint.kubectl.io/command-seconds': '[oops' },
      },
    };
    expect(definitionOf(garbled).commandSeconds).toBeUndefined();
  });

  it('records the whole run, so --resume from anywhere reads it back', () => {
    expect(lease.metadata?.name).toBe('maint-run-20261201-140000-ab12');
    expect(lease.metadata?.labels).toEqual({ 'maint.kubectl.io/run': definition.id });
    expect(definitionOf(lease)).toEqual(definition);
    // MicroTime: the API server refuses anything but six fractional digits.
    expect(lease.spec?.renewTime).toBe('2026-12-01T14:00:00.000000Z');
  });

  it('is held until leaseDurationSeconds after its last renewal, then expired', () => {
    expect(activeHolder(lease, T0 + 29_000)).toBe('ops@laptop pid 7');
    expect(secondsLeft(lease, T0 + 29_000)).toBe(1);
    expect(activeHolder(lease, T0 + 30_000)).toBeNull();
    expect(secondsLeft(lease, T0 + 31_000)).toBe(0);
  });

  it('is free once released (no holder), whatever its renewal', () => {
    expect(activeHolder({ ...lease, spec: { ...lease.spec, holderIdentity: '' } }, T0)).toBeNull();
  });

  const recordedAs = (options: object) =>
    definitionOf(leaseFor({ ...definition, options: options as RunOptions }, 'ops', T0, 'kube-system')).options;

  it('records every drain flag (--surge, --order, --escalate-*, --taint…), so --resume drains as the run started', () => {
    expect(recordedAs(definition.options).drain).toEqual(definition.options.drain);
  });

  it('refuses recorded flags without the drain flags: a resume never drains with defaults it did not start with', () => {
    const { drain: _drain, ...rest } = definition.options;
    expect(() => recordedAs({ ...rest, filters, gracePeriodSeconds: 30 })).toThrow(
      'lease kube-system/maint-run-20261201-140000-ab12 does not record a kubectl maint run',
    );
  });

  it('refuses a Lease that is not a run, in one line', () => {
    expect(() => definitionOf({ metadata: { name: 'x', namespace: 'kube-system' } })).toThrow(
      'lease kube-system/x does not record a kubectl maint run',
    );
  });
});

describe("the run's definition on its nodes", () => {
  const claimed = (annotations: Record<string, string>) => ({ metadata: { name: 'w6', annotations } });

  it('is the same run as its Lease records, read back without the Lease', () => {
    const sealed = { ...definition, sealKey: 'k', commandDir: '/home/ops' };
    const node = claimed({ [ANNOTATION.run]: definition.id, ...runDefinitionAnnotation(sealed) });
    expect(definitionOfNode(node)).toEqual(sealed);
  });

  it('is none on a node that does not record it, or not readably', () => {
    expect(definitionOfNode(claimed({ [ANNOTATION.run]: definition.id }))).toBeNull();
    expect(definitionOfNode(claimed({ [ANNOTATION.run]: definition.id, [ANNOTATION.definition]: '{' }))).toBeNull();
    expect(definitionOfNode(claimed(runDefinitionAnnotation(definition)))).toBeNull();
  });
});

describe('node phases', () => {
  it('move forward; a failed phase has reached nothing', () => {
    expect(reached('command-done', 'drained')).toBe(true);
    expect(reached('draining', 'drained')).toBe(false);
    expect(reached('command-failed', 'drained')).toBe(false);
    expect(reached('command-killed', 'drained')).toBe(false);
  });

  it('a command killed by a second Ctrl-C is a failed phase of its own, which a resume runs again only when asked', () => {
    expect(isFailedPhase('command-killed')).toBe(true);
    expect(UNFINISHED_COMMAND.has('command-killed')).toBe(true);
    expect(commandRan('command-killed')).toBe(true);
  });

  it('map to the node lifecycle conditions, one True at a time on the way', () => {
    const on = (phase: Parameters<typeof lifecycleConditions>[0]) =>
      lifecycleConditions(phase, '2026-12-01T14:00:00Z')
        .filter((c) => c.status === 'True')
        .map((c) => c.type);
    expect(on('pending')).toEqual(['MaintenancePlanned']);
    expect(on('draining')).toEqual(['DrainInProgress']);
    expect(on('drained')).toEqual(['Drained']);
    expect(on('command-running')).toEqual(['Drained', 'MaintenanceInProgress']);
    expect(on('command-failed')).toEqual(['Drained', 'MaintenanceInProgress']);
    expect(on('command-killed')).toEqual(['Drained', 'MaintenanceInProgress']);
    expect(on('done')).toEqual([]);
  });
});

describe('trustedPhase: a resume trusts only the phases the run wrote', () => {
  const sealed = { ...definition, sealKey: '00112233445566778899aabbccddeeff' };
  const since = '2026-12-01T14:03:00.000Z';
  const node = (phase: string, seal?: string) => ({
    metadata: {
      name: 'w1',
      annotations: {
        'maint.kubectl.io/run': sealed.id,
        'maint.kubectl.io/phase': phase,
        'maint.kubectl.io/phase-since': since,
        ...(seal === undefined ? {} : { 'maint.kubectl.io/phase-seal': seal }),
      },
    },
  });

  it('a phase written with its seal is trusted', () => {
    const seal = phaseSeal(sealed.sealKey, sealed.id, 'w1', 'command-done', since);
    expect(trustedPhase(node('command-done', seal), sealed)).toEqual({ phase: 'command-done' });
  });

  it('a phase edited by hand (no seal, or the seal of another phase, node or run) starts over', () => {
    const ofDrained = phaseSeal(sealed.sealKey, sealed.id, 'w1', 'drained', since);
    const ofOtherNode = phaseSeal(sealed.sealKey, sealed.id, 'w6', 'done', since);
    const ofOtherRun = phaseSeal(sealed.sealKey, 'another-run', 'w1', 'done', since);
    for (const seal of [undefined, ofDrained, ofOtherNode, ofOtherRun, 'x']) {
      expect(trustedPhase(node('done', seal), sealed)).toEqual({ phase: 'pending', distrusted: 'done' });
    }
  });

  it('pending needs no seal; a run recorded without a seal key trusts every phase', () => {
    expect(trustedPhase(node('pending'), sealed)).toEqual({ phase: 'pending' });
    expect(trustedPhase(node('done'), definition)).toEqual({ phase: 'done' });
  });

  it('the seal key travels on the Lease with the definition', () => {
    expect(definitionOf(leaseFor(sealed, 'me', 0, 'kube-system')).sealKey).toBe(sealed.sealKey);
  });
});
