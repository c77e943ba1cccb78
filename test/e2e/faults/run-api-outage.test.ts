import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/run/events.js';
import { kubectl, kubectlJson } from '../lab.js';
import {
  described,
  finish,
  finishedOf,
  scratch,
  seedPool,
  start,
  type NodeObject,
  type Started,
  untilEvent,
} from '../run-helpers.js';
import { labComponent, restartedApiServer } from './faults.js';

// kube-apiserver stopped around a run's writes (the command's result, the wait for a node to be back, the
// uncordon), as a control-plane upgrade or a managed API server's restart does. The run must either finish
// or stop with every node's true phase said, and a resume must finish it; never is a command run twice
// (the command logs each call) nor a node uncordoned before it is back.

const work = scratch();
afterAll(() => rmSync(work, { recursive: true, force: true }));

const gate = path.join(work, 'gate');
const calls = path.join(work, 'calls.log');
const callsOf = () =>
  readFileSync(calls, 'utf8')
    .split('\n')
    .filter((l) => l !== '');

/** Records its node, then waits until the test opens the gate (a file): the test knows the command runs. */
const gated = ['bash', '-c', `echo "$0" >>${calls}; until [ -e ${gate} ]; do sleep 0.1; done`, '{node}'];

/**
 * Records its node and takes it away from KWOK, reported NotReady, as a reboot's first half does: the node
 * comes back only when the test hands it back (giveBack), so the run waits for it as long as the test wants.
 */
const goesAway = [
  'bash',
  '-c',
  [
    `echo "$0" >>${calls}`,
    'kubectl annotate node "$0" kwok.x-k8s.io/node- >/dev/null',
    'now=$(date -u +%Y-%m-%dT%H:%M:%SZ)',
    `kubectl patch node "$0" --subresource=status --type=strategic -p "{\\"status\\":{\\"conditions\\":[{\\"type\\":\\"Ready\\",\\"status\\":\\"False\\",\\"reason\\":\\"Rebooting\\",\\"message\\":\\"e2e\\",\\"lastHeartbeatTime\\":\\"$now\\",\\"lastTransitionTime\\":\\"$now\\"}]}}" >/dev/null`,
  ].join('; '),
  '{node}',
];
const giveBack = (node: string) => kubectl(['annotate', 'node', node, 'kwok.x-k8s.io/node=fake', '--overwrite']);

const warnings = (events: readonly RunEvent[]) => events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));

async function until(run: Started, ready: (events: readonly RunEvent[]) => boolean, what: string): Promise<void> {
  await untilEvent(run, ready, 120_000, what);
}

const phaseSeen = (node: string, phase: string) => (events: readonly RunEvent[]) =>
  events.some((e) => e.type === 'phase' && e.node === node && e.phase === phase);

/**
 * The run's end after the outage: finished (exit 0), or stopped because the Lease expired before the API
 * server was back, every node's true phase said and the resume command without --rerun-command; then the
 * resume finishes it. Either way the node ends uncordoned, released, and its command ran once.
 */
async function finishesOrResumes(run: Started, node: string, truePhases: readonly string[]): Promise<void> {
  const first = await finish(run);
  let why = described(first);
  const head = run.events.find((e) => e.type === 'run-started');
  if (head?.type !== 'run-started') throw new Error(`no run-started event: ${why}`);
  if (first.exitCode !== 0) {
    expect(first.exitCode, why).toBe(1);
    const stopped = finishedOf(first.events);
    expect(stopped?.result, why).toBe('failed');
    expect(first.stderr, why).toMatch(
      new RegExp(`^error: run ${head.runId}: the API server did not answer before the run's Lease expired: `, 'm'),
    );
    const where = stopped?.nodes.find((n) => n.node === node);
    expect(truePhases, why).toContain(where?.phase);
    expect(stopped?.resumeCommand, why).toBe(`kubectl maint run --resume ${head.runId}`);
    const resumed = await finish(await start(['run', '--resume', head.runId, '-o', 'json']));
    why = described(resumed);
    expect(resumed.exitCode, why).toBe(0);
  }
  expect(callsOf(), why).toEqual([node]);
  const after = await kubectlJson<NodeObject>(['get', 'node', node]);
  expect(after.spec.unschedulable ?? false, why).toBe(false);
  expect(
    Object.keys(after.metadata.annotations ?? {}).filter((k) => k.startsWith('maint.kubectl.io/')),
    why,
  ).toEqual([]);
}

describe('kube-apiserver stopped around a run', () => {
  beforeEach(async () => {
    await seedPool();
    rmSync(gate, { force: true });
    writeFileSync(calls, '');
  });
  // A test that fails half-way must not leave the lab without a component for the next one.
  afterEach(async () => {
    await labComponent('start', 'kube-apiserver');
    await labComponent('start', 'kube-controller-manager');
  });

  it('stopped while the command runs, which exits 0 meanwhile: its result is kept and written, the command never run again', async () => {
    const run = await start(['run', 'pool-1', '--ignore-daemonsets', '-o', 'json', '--', ...gated]);
    await until(run, phaseSeen('pool-1', 'command-running'), 'the command to run');
    await labComponent('stop', 'kube-apiserver');
    writeFileSync(gate, '');
    await until(
      run,
      (events) =>
        warnings(events).some((w) =>
          w.startsWith(
            "API server unreachable: the result of pool-1's command (exit 0) is kept and will be written (trying again for up to ",
          ),
        ),
      'the run to say the result is kept',
    );
    await restartedApiServer();
    await finishesOrResumes(run, 'pool-1', ['command-done']);
  });

  it('stopped while the run waits for the node to be back: the wait, the uncordon and the clean-up outlast it', async () => {
    const run = await start(['run', 'pool-1', '--ignore-daemonsets', '-o', 'json', '--', ...goesAway]);
    await until(run, phaseSeen('pool-1', 'returning'), 'the run to wait for the node');
    await labComponent('stop', 'kube-apiserver');
    await until(
      run,
      (events) => warnings(events).some((w) => w.startsWith('API server unreachable: reading node pool-1 again')),
      'the run to say it reads the node again once the server answers',
    );
    await restartedApiServer();
    await giveBack('pool-1');
    await finishesOrResumes(run, 'pool-1', ['command-done', 'returning']);
  });

  it('stopped as the node is back, before its uncordon: written once the server is back, the node never uncordoned early', async () => {
    const run = await start(['run', 'pool-1', '--ignore-daemonsets', '-o', 'json', '--', ...goesAway]);
    await until(run, phaseSeen('pool-1', 'returning'), 'the run to wait for the node');
    // Back, and the server stopped at once: the run's next writes (returned, then done with the uncordon)
    // meet the outage, or land just before it.
    await giveBack('pool-1');
    await labComponent('stop', 'kube-apiserver');
    await restartedApiServer();
    await finishesOrResumes(run, 'pool-1', ['returning', 'returned']);
  });

  it("away past the run's Lease: the run stops with the command's result said and kept, and a resume here writes it, the command not run again", async () => {
    const run = await start(['run', 'pool-1', '--ignore-daemonsets', '-o', 'json', '--', ...gated]);
    await until(run, phaseSeen('pool-1', 'command-running'), 'the command to run');
    await labComponent('stop', 'kube-apiserver');
    writeFileSync(gate, '');
    // The server stays away: the run gives up once its Lease has run out, on its own.
    const stopped = await finish(run);
    const why = described(stopped);
    const head = stopped.events.find((e) => e.type === 'run-started');
    if (head?.type !== 'run-started') throw new Error(`no run-started event: ${why}`);
    expect(stopped.exitCode, why).toBe(1);
    expect(stopped.stderr, why).toMatch(
      new RegExp(`^error: run ${head.runId}: the API server did not answer before the run's Lease expired: `, 'm'),
    );
    const finished = finishedOf(stopped.events);
    expect(finished?.nodes, why).toEqual([
      {
        node: 'pool-1',
        batch: 1,
        phase: 'command-done',
        problem: "not written to the cluster: the API server did not answer before the run's Lease expired",
      },
    ]);
    expect(finished?.resumeCommand, why).toBe(`kubectl maint run --resume ${head.runId}`);
    await restartedApiServer();
    const resumed = await start(['run', '--resume', head.runId, '-o', 'json']);
    await finishesOrResumes(resumed, 'pool-1', []);
    expect(
      resumed.events.some(
        (e) => e.type === 'warning' && e.message.startsWith('node "pool-1": its command ended (exit 0) at '),
      ),
      described(await finish(resumed)),
    ).toBe(true);
  });
});
