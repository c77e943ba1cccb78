import { describe, expect, it } from 'vitest';
import type { DrainEvent, PodDrainState } from '../../../src/drain/events.js';
import { DISABLE_EVICTION_WARNING, startEvents } from '../../../src/drain/start-events.js';
import type { DrainTarget, SkippedPod } from '../../../src/drain/targets.js';

const ref = (name: string) => ({ namespace: 'demo', name, uid: `uid-${name}`, node: 'n1' });
const target = (name: string, method: 'evict' | 'delete' = 'evict'): DrainTarget => ({
  ref: ref(name),
  method,
  pdbs: [],
  ownGraceSeconds: 30,
});
const queued: PodDrainState = { phase: 'queued' };
const daemon: SkippedPod = { ref: ref('agent-x'), reason: 'DaemonSet-managed pod' };

describe('startEvents', () => {
  it('says the start, then each pod left alone, then each pod to evict in its first state', () => {
    const targets = [target('hello-1'), target('hello-2')];
    const request = { nodes: ['n1'], targets, skipped: [daemon], dryRun: 'none' } as const;
    const pods = targets.map((t) => ({ target: t, state: queued }));
    expect(startEvents(request, pods, 9)).toEqual<DrainEvent[]>([
      { type: 'started', atMs: 9, nodes: ['n1'], pods: [ref('hello-1'), ref('hello-2')], dryRun: 'none' },
      { type: 'pod', atMs: 9, pod: ref('agent-x'), state: { phase: 'skipped', reason: 'DaemonSet-managed pod' } },
      { type: 'pod', atMs: 9, pod: ref('hello-1'), state: queued },
      { type: 'pod', atMs: 9, pod: ref('hello-2'), state: queued },
    ]);
  });

  it('warns once that budgets are bypassed when any pod is deleted rather than evicted', () => {
    const targets = [target('hello-1', 'delete'), target('hello-2', 'delete')];
    const request = { nodes: ['n1'], targets, skipped: [], dryRun: 'client' } as const;
    const events = startEvents(request, [], 9);
    expect(events.filter((e) => e.type === 'warning')).toEqual([
      { type: 'warning', atMs: 9, message: DISABLE_EVICTION_WARNING },
    ]);
    expect(events.at(-1)?.type).toBe('warning');
  });

  it('an empty drain says only that it started', () => {
    const request = { nodes: ['n1'], targets: [], skipped: [], dryRun: 'server' } as const;
    expect(startEvents(request, [], 9)).toEqual([
      { type: 'started', atMs: 9, nodes: ['n1'], pods: [], dryRun: 'server' },
    ]);
  });
});
