import { describe, expect, it } from 'vitest';
import type { PodDrainState, PodRef } from '../../../src/drain/events.js';
import { finishedEvent, type SummaryInput } from '../../../src/drain/summary.js';
import { waitingForHello } from './states.js';

const pod = (name: string): PodRef => ({ namespace: 'demo', name, uid: `uid-${name}`, node: 'k8s-node-1' });
const gone: PodDrainState = { phase: 'gone', how: 'evicted' };
const terminating: PodDrainState = { phase: 'terminating', deadlineMs: 0 };
const waiting = waitingForHello;

const base: SummaryInput = {
  atMs: 5,
  nodes: ['k8s-node-1'],
  dryRun: 'none',
  cordoned: ['k8s-node-1'],
  stoppedBy: null,
  pods: [],
};

describe('finishedEvent', () => {
  it('Every pod gone: drained, and says how to put the node back in service', () => {
    const event = finishedEvent({
      ...base,
      pods: [
        { ref: pod('a'), state: gone },
        { ref: pod('b'), state: gone },
      ],
    });
    expect(event).toEqual({
      type: 'finished',
      atMs: 5,
      result: 'drained',
      gone: [pod('a'), pod('b')],
      remaining: [],
      terminating: [],
      failed: [],
      clusterState:
        'node k8s-node-1 cordoned; all 2 pods gone; `kubectl maint uncordon k8s-node-1` returns it to service',
      left: 'node k8s-node-1 cordoned; all 2 pods gone',
      commands: { resume: 'kubectl maint drain k8s-node-1', uncordon: 'kubectl maint uncordon k8s-node-1' },
    });
  });

  it("names the commands given, with the user's flags, and uncordons only the nodes this drain cordoned", () => {
    const commands = {
      resume: 'kubectl maint drain -l pool=blue --ignore-daemonsets --context lab',
      uncordon: (nodes: readonly string[]) => `kubectl maint uncordon ${nodes.join(' ')} --context lab`,
    };
    const interrupted = finishedEvent({
      ...base,
      nodes: ['n1', 'n2'],
      cordoned: ['n2'],
      stoppedBy: 'interrupted',
      pods: [{ ref: pod('a'), state: { phase: 'queued' } }],
      commands,
    });
    expect(interrupted.clusterState).toBe(
      'node n2 cordoned; 1 not evicted; run `kubectl maint drain -l pool=blue --ignore-daemonsets --context lab` again to finish',
    );
    expect(interrupted.commands).toEqual({
      resume: commands.resume,
      uncordon: 'kubectl maint uncordon n2 --context lab',
    });
  });

  it('Interrupted: the node stays cordoned, and the summary tells evicted from not evicted', () => {
    const event = finishedEvent({
      ...base,
      stoppedBy: 'interrupted',
      pods: [
        { ref: pod('a'), state: gone },
        { ref: pod('b'), state: terminating },
        { ref: pod('c'), state: waiting },
      ],
    });
    expect(event.result).toBe('interrupted');
    expect(event.remaining).toEqual([pod('b'), pod('c')]);
    expect(event.terminating).toEqual([pod('b')]);
    expect(event.clusterState).toBe(
      'node k8s-node-1 cordoned; 1 gone, 1 evicted and still terminating, 1 not evicted; run `kubectl maint drain k8s-node-1` again to finish',
    );
  });

  it('Timed out: result timeout, with what remains', () => {
    const event = finishedEvent({ ...base, stoppedBy: 'timeout', pods: [{ ref: pod('c'), state: waiting }] });
    expect(event.result).toBe('timeout');
    expect(event.clusterState).toBe(
      'node k8s-node-1 cordoned; 1 not evicted; run `kubectl maint drain k8s-node-1` again to finish',
    );
  });

  it('A failed pod fails the drain, while the others went on', () => {
    const event = finishedEvent({
      ...base,
      pods: [
        { ref: pod('a'), state: gone },
        { ref: pod('b'), state: { phase: 'failed', error: 'pod matches more than one PodDisruptionBudget' } },
      ],
    });
    expect(event.result).toBe('failed');
    expect(event.failed).toEqual([{ pod: pod('b'), error: 'pod matches more than one PodDisruptionBudget' }]);
  });

  it('A cordon that failed stops the drain before any eviction and says so', () => {
    const event = finishedEvent({
      ...base,
      cordoned: [],
      abortedBeforeEvicting: 'cannot cordon node "k8s-node-1": forbidden',
      pods: [{ ref: pod('a'), state: { phase: 'queued' } }],
    });
    expect(event.result).toBe('failed');
    expect(event.error).toBe('cannot cordon node "k8s-node-1": forbidden');
    expect(event.clusterState).toBe(
      'node k8s-node-1 not cordoned; no pod evicted (cannot cordon node "k8s-node-1": forbidden)',
    );
  });

  it('A server dry run whose cordon the API server refused fails, and does not claim it checked anything', () => {
    const event = finishedEvent({
      ...base,
      dryRun: 'server',
      cordoned: [],
      abortedBeforeEvicting: 'cannot cordon node "k8s-node-1": forbidden: user "ro" cannot patch nodes',
      pods: [{ ref: pod('a'), state: { phase: 'queued' } }],
    });
    expect(event.result).toBe('failed');
    expect(event.error).toBe('cannot cordon node "k8s-node-1": forbidden: user "ro" cannot patch nodes');
    expect(event.clusterState).toBe(
      'nothing was changed (server dry run: the API server refused the cordon, so no eviction was sent)',
    );
  });

  it('A server dry run whose evictions the API server refused (RBAC) fails and says so', () => {
    const forbidden = 'forbidden: cannot create pods/eviction in namespace "demo"';
    const event = finishedEvent({
      ...base,
      dryRun: 'server',
      cordoned: [],
      pods: [
        { ref: pod('a'), state: { phase: 'failed', error: forbidden } },
        { ref: pod('b'), state: { phase: 'failed', error: forbidden } },
      ],
    });
    expect(event.result).toBe('failed');
    expect(event.error).toBe(`demo/a: ${forbidden} (and 1 more pod failed)`);
    expect(event.clusterState).toBe(
      'nothing was changed (server dry run: the API server accepted the cordon; evictions: 2 failed)',
    );
  });

  it('A server dry run with a budget refusal is answered, but does not say every eviction passed', () => {
    const event = finishedEvent({
      ...base,
      dryRun: 'server',
      cordoned: [],
      pods: [
        { ref: pod('a'), state: { phase: 'dry-run', admitted: true, reason: 'eviction admitted', pdb: null } },
        { ref: pod('b'), state: { phase: 'dry-run', admitted: false, reason: 'budget', pdb: 'hello' } },
      ],
    });
    expect(event.result).toBe('dry-run');
    expect(event.error).toBeUndefined();
    expect(event.clusterState).toBe(
      'nothing was changed (server dry run: the API server accepted the cordon; evictions: 1 admitted, 1 refused by a budget)',
    );
  });

  it('Interrupted by a signal: the error names it and what is left', () => {
    const event = finishedEvent({
      ...base,
      stoppedBy: 'interrupted',
      interruptedBy: 'SIGTERM',
      pods: [
        { ref: pod('a'), state: gone },
        { ref: pod('b'), state: waiting },
      ],
    });
    expect(event.error).toBe('interrupted by SIGTERM with 1 pod left: demo/b (waiting for budget demo/hello)');
  });

  it('Timed out on a pod held by a finalizer: the error names the finalizer', () => {
    const event = finishedEvent({
      ...base,
      stoppedBy: 'timeout',
      timeoutMs: 20_000,
      pods: [{ ref: pod('a'), state: { phase: 'terminating', deadlineMs: 0, finalizers: ['example.com/hold'] } }],
    });
    expect(event.error).toBe(
      'timed out after 20s (--timeout) with 1 pod left: demo/a (terminating, held by finalizer example.com/hold)',
    );
  });

  it('A server dry run changes nothing and says the API server applied nothing', () => {
    const event = finishedEvent({
      ...base,
      dryRun: 'server',
      cordoned: [],
      pods: [{ ref: pod('a'), state: { phase: 'dry-run', admitted: true, reason: 'eviction admitted', pdb: null } }],
    });
    expect(event.result).toBe('dry-run');
    expect(event.clusterState).toBe(
      'nothing was changed (server dry run: the API server checked the cordon and each eviction, and applied none)',
    );
  });

  it('Several nodes are named together', () => {
    const event = finishedEvent({ ...base, nodes: ['a', 'b'], cordoned: ['a', 'b'], pods: [] });
    expect(event.clusterState).toBe(
      'nodes a b cordoned; no pod to evict; `kubectl maint uncordon a b` returns them to service',
    );
  });

  it("a run's drain says the run gives the nodes back, not a command the operator would run too early", () => {
    const returnedBy = 'the run uncordons them after the maintenance, once they are Ready again';
    const commands = { resume: 'kubectl maint drain a b', uncordon: () => 'kubectl maint uncordon a b', returnedBy };
    const event = finishedEvent({ ...base, nodes: ['a', 'b'], cordoned: ['a', 'b'], pods: [], commands });
    expect(event.clusterState).toBe(`nodes a b cordoned; no pod to evict; ${returnedBy}`);
  });
});
