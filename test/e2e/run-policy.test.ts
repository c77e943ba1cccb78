import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { RUN_FLAGS } from '../../scripts/lab/pool-run.js';
import { eventually, kubectl, kubectlJson, labEnv, labUserWithRules } from './lab.js';
import {
  budgetsAllow,
  deploymentsReady,
  described,
  finish,
  finishedOf,
  poolNodes,
  reboot,
  scratch,
  seedPool,
  start,
  untilEvent,
  watchCordons,
} from './run-helpers.js';

// `kubectl maint run`'s policies over the lab's `pool` scenario: taking over a run whose holder stopped,
// --keep-going past a failed command (within --max-unavailable), a user who may not patch nodes/status, and --pause without a terminal.

const work = scratch();
afterAll(() => rmSync(work, { recursive: true, force: true }));

const PHASE = 'maint.kubectl.io/phase';
const RUN = 'maint.kubectl.io/run';

interface LeaseObject {
  metadata: { name: string; labels: Record<string, string> };
  spec: { holderIdentity?: string };
}
/** A run of pool-1 and pool-2 in one batch with --pause, without a terminal. */
const PAUSE_POOL_1_2 = [
  'run',
  'pool-1',
  'pool-2',
  '--max-unavailable',
  '2',
  '--pause',
  '--ignore-daemonsets',
  '-o',
  'json',
];

interface NodeStatus {
  status: { nodeInfo: { bootID: string }; conditions: Array<{ type: string; status: string }> };
}

const runLeases = async () =>
  (await kubectlJson<{ items: LeaseObject[] }>(['get', 'leases', '-n', 'kubectl-maint', '-l', RUN])).items;

describe('kubectl maint run: take-over, keep-going, nodes/status, pause', () => {
  beforeEach(async () => {
    await seedPool();
  });

  it('takes the nodes of a run whose holder died only once its lease expired, and only with --take-over', async () => {
    // A run killed outright (SIGKILL: no clean-up) keeps its claim on the nodes and its lease's holder.
    const first = await start(['run', 'pool-1', 'pool-2', ...RUN_FLAGS, '--', reboot, '{node}']);
    await untilEvent(
      first,
      (events) => events.some((e) => e.type === 'phase'),
      60_000,
      'the first run to claim its nodes',
    );
    first.child.kill('SIGKILL');
    await first.child;
    const [lease] = await runLeases();
    expect(lease?.spec.holderIdentity).toMatch(/ pid \d+$/);
    const holder = lease!.spec.holderIdentity!;
    // Its lease runs out: renewed an hour ago (what 30 s without renewal looks like, without waiting for it).
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
    await kubectl([
      'patch',
      'lease',
      '-n',
      'kubectl-maint',
      lease!.metadata.name,
      '--type=merge',
      '-p',
      JSON.stringify({ spec: { renewTime: hourAgo } }),
    ]);

    const args = ['run', 'pool-2', 'pool-3', ...RUN_FLAGS, '--', reboot, '{node}'];
    const refused = await finish(await start(args));
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toBe(
      `error: node "pool-2" is in run ${lease!.metadata.labels[RUN]}, which stopped, last held by ${holder}: resume it with kubectl maint run --resume ${lease!.metadata.labels[RUN]}, or take its nodes with --take-over; nothing was changed`,
    );
    expect((await poolNodes()).find((n) => n.metadata.name === 'pool-3')!.metadata.annotations?.[RUN]).toBeUndefined();

    // The killed run may have evicted pods whose replacements are not Ready yet: the new run's plan would
    // rightly be blocked until they are, as an operator taking over would see. Wait for the recovery.
    await eventually(
      async () => (await deploymentsReady()) && (await budgetsAllow()),
      120_000,
      'every workload Ready and every budget allowing a disruption after the killed run',
    );
    const taken = await finish(await start([...args.slice(0, 3), '--take-over', ...args.slice(3)]));
    expect(taken.stderr).toBe('');
    expect(taken.exitCode).toBe(0);
    expect(finishedOf(taken.events)?.result).toBe('done');
    const nodes = await poolNodes();
    for (const name of ['pool-2', 'pool-3']) {
      const node = nodes.find((n) => n.metadata.name === name)!;
      expect(node.spec.unschedulable).toBeUndefined();
      expect(node.metadata.annotations?.[RUN]).toBeUndefined();
    }
    // pool-1 stays with the stopped run, cordoned in its recorded phase, for that run's --resume.
    expect(nodes.find((n) => n.metadata.name === 'pool-1')!.metadata.annotations?.[RUN]).toBe(
      lease!.metadata.labels[RUN],
    );
  });

  it('--keep-going never has more than --max-unavailable nodes cordoned: the failed node keeps its slot', async () => {
    // Three nodes of three zones, two at a time: the node whose command fails stays cordoned and holds one
    // of the two slots, so the later nodes go one at a time beside it.
    const pool = ['pool-1', 'pool-2', 'pool-3'];
    const planned = await finish(
      await start(['plan', ...pool, '--max-unavailable', '2', '--ignore-daemonsets', '-o', 'json']),
    );
    const plan = JSON.parse(planned.stdout) as { batches: Array<{ nodes: string[] }> };
    expect(plan.batches[0]!.nodes).toHaveLength(2);
    const failing = plan.batches[0]!.nodes[0]!;
    const watch = await watchCordons();
    const r = await finish(
      await start(['run', ...pool, '--max-unavailable', '2', '--keep-going', ...RUN_FLAGS, '--', reboot, '{node}'], {
        REBOOT_FAIL_NODE: failing,
      }),
    );
    const why = described(r);
    // The watch has seen the run's end: the failed node alone cordoned.
    await eventually(
      async () => [...watch.cordoned()].join() === failing,
      30_000,
      `the watch to see ${failing} alone cordoned`,
    );
    const { most } = await watch.stop();
    expect(most, why).toHaveLength(2);
    expect(r.exitCode, why).toBe(1);
    const finished = finishedOf(r.events)!;
    expect(finished.result, why).toBe('failed');
    expect(finished.nodes.find((n) => n.node === failing)).toMatchObject({
      phase: 'command-failed',
      problem: 'command exited 1',
    });
    expect(finished.nodes.filter((n) => n.node !== failing).map((n) => n.phase)).toEqual(['done', 'done']);
    const oks = r.events.flatMap((e) => (e.type === 'batch-finished' ? [e.ok] : []));
    expect(oks, why).toEqual(plan.batches.map((_, i) => i > 0));
    const nodes = await poolNodes();
    expect(nodes.filter((n) => n.spec.unschedulable).map((n) => n.metadata.name)).toEqual([failing]);
    expect(nodes.find((n) => n.metadata.name === failing)!.metadata.annotations?.[PHASE]).toBe('command-failed');
    expect(finished.resumeCommand).toMatch(/^kubectl maint run --resume \S+ --rerun-command$/);
  });

  it('--keep-going stops, failed, once failed nodes still cordoned hold every slot of the window', async () => {
    // One at a time: the first node's command fails, it stays cordoned and holds the only slot.
    const pool = ['pool-1', 'pool-2'];
    const planned = await finish(
      await start(['plan', ...pool, '--max-unavailable', '1', '--ignore-daemonsets', '-o', 'json']),
    );
    const plan = JSON.parse(planned.stdout) as { batches: Array<{ nodes: string[] }> };
    const failing = plan.batches[0]!.nodes[0]!;
    const other = pool.find((n) => n !== failing)!;
    const r = await finish(
      await start(['run', ...pool, '--keep-going', ...RUN_FLAGS, '--', reboot, '{node}'], {
        REBOOT_FAIL_NODE: failing,
      }),
    );
    const why = described(r);
    expect(r.exitCode, why).toBe(1);
    const finished = finishedOf(r.events)!;
    expect(finished.result, why).toBe('failed');
    expect(
      r.events.find((e) => e.type === 'warning'),
      why,
    ).toMatchObject({
      message: `every slot of the window (1 at once) is held by a node still out of service after a failure ("${failing}"): no further node starts`,
    });
    expect(finished.nodes.find((n) => n.node === failing)?.phase, why).toBe('command-failed');
    expect(finished.nodes.find((n) => n.node === other)?.phase, why).toBe('pending');
    expect(r.events.filter((e) => e.type === 'batch-started').length, why).toBe(1);
    expect(finished.resumeCommand).toMatch(/^kubectl maint run --resume \S+ --rerun-command$/);
    const nodes = await poolNodes();
    expect(nodes.filter((n) => n.spec.unschedulable).map((n) => n.metadata.name)).toEqual([failing]);
  });

  it('--resume waits again for a node that did not come back, without running its command again', async () => {
    // A command that does not reboot: with --expect-reboot the node keeps its bootID and is not-returned.
    const log = path.join(work, 'not-returned.log');
    rmSync(log, { force: true });
    const command = ['sh', '-c', `echo {node} >> ${log}`];
    const flags = ['--ignore-daemonsets', '--expect-reboot', '--node-ready-timeout', '1s', '-o', 'json'];
    const first = await finish(await start(['run', 'pool-1', ...flags, '--', ...command]));
    let why = described(first);
    expect(first.exitCode, why).toBe(1);
    expect(finishedOf(first.events)?.nodes, why).toMatchObject([{ node: 'pool-1', phase: 'not-returned' }]);
    // The operator brings the node back by hand (a reboot with a new bootID), then resumes.
    const before = (await kubectlJson<NodeStatus>(['get', 'node', 'pool-1'])).status.nodeInfo.bootID;
    const lab = await labEnv();
    await execa('bash', [reboot, 'pool-1'], {
      env: { KUBECONFIG: lab.KUBECONFIG, PATH: lab.PATH, REBOOT_SECONDS: '0' },
    });
    await eventually(
      async () => {
        const node = await kubectlJson<NodeStatus>(['get', 'node', 'pool-1']);
        const ready = node.status.conditions.some((c) => c.type === 'Ready' && c.status === 'True');
        return ready && node.status.nodeInfo.bootID !== before;
      },
      60_000,
      'pool-1 Ready again with a new bootID',
    );
    const resumed = await finish(await start(['run', '--resume', '-o', 'json']));
    why = described(resumed);
    expect(resumed.exitCode, why).toBe(0);
    expect(
      resumed.events.flatMap((e) => (e.type === 'phase' ? [e.phase] : [])),
      why,
    ).toEqual(['returning', 'returned', 'done']);
    expect(readFileSync(log, 'utf8')).toBe('pool-1\n');
    expect((await poolNodes()).find((n) => n.metadata.name === 'pool-1')!.spec.unschedulable).toBeUndefined();
  });

  it('a user who may patch nodes but not nodes/status gets one note; the phases are in the annotations', async () => {
    const kubeconfig = await labUserWithRules(
      'maint-runner',
      [
        '{apiGroups: ["", apps, policy, batch], resources: ["*"], verbs: [get, list, watch]}',
        '{apiGroups: [""], resources: [nodes], verbs: [patch]}',
        '{apiGroups: [""], resources: [pods/eviction], verbs: [create]}',
        '{apiGroups: [coordination.k8s.io], resources: [leases], verbs: [get, list, watch, create, update, delete]}',
      ],
      work,
    );
    // No command (it would run as this user, who may not simulate a reboot): drain, back, uncordon.
    const run = await start(
      ['run', 'pool-1', 'pool-2', '--max-unavailable', '2', '--ignore-daemonsets', '-o', 'json'],
      {
        KUBECONFIG: kubeconfig,
      },
    );
    const r = await finish(run);
    expect(r.stderr).toBe(
      'note: cannot patch nodes/status: the node lifecycle conditions are not written; the phases are in the node annotations',
    );
    expect(r.exitCode).toBe(0);
    expect(
      r.events.filter((e) => e.type === 'phase' && e.node === 'pool-1').map((e) => e.type === 'phase' && e.phase),
    ).toEqual(['draining', 'drained', 'command-done', 'returning', 'returned', 'done']);
    const conditions = await kubectlJson<{ status: { conditions: Array<{ type: string }> } }>([
      'get',
      'node',
      'pool-1',
    ]);
    expect(conditions.status.conditions.map((c) => c.type)).not.toContain('DrainInProgress');
    expect((await poolNodes()).filter((n) => n.spec.unschedulable)).toEqual([]);
  });

  it('--pause without a terminal stops once the batch is drained; --resume takes it back into service', async () => {
    const first = await finish(await start(PAUSE_POOL_1_2));
    const why = described(first);
    expect(first.stderr, why).toBe('');
    expect(first.exitCode, why).toBe(0);
    const paused = first.events.find((e) => e.type === 'paused');
    expect(paused, why).toMatchObject({ batch: 1, waitingFor: 'resume' });
    // The batch's nodes in the pool plan's order, fewest pods first: the seed's scheduling decides which
    // of the two has fewer (either way round), so the order is not asserted.
    expect(paused?.type === 'paused' && [...paused.nodes].sort(), why).toEqual(['pool-1', 'pool-2']);
    const finished = finishedOf(first.events)!;
    expect(finished.result, why).toBe('paused');
    expect(
      finished.nodes.map((n) => n.phase),
      why,
    ).toEqual(['drained', 'drained']);
    expect(finished.resumeCommand).toMatch(/^kubectl maint run --resume \S+$/);
    let nodes = await poolNodes();
    for (const name of ['pool-1', 'pool-2']) {
      const node = nodes.find((n) => n.metadata.name === name)!;
      expect(node.spec.unschedulable).toBe(true);
      expect(node.metadata.annotations?.[PHASE]).toBe('drained');
    }
    const pods = await kubectlJson<{ items: Array<{ spec: { nodeName: string } }> }>(['get', 'pods', '-n', 'shop']);
    expect(pods.items.filter((p) => ['pool-1', 'pool-2'].includes(p.spec.nodeName))).toEqual([]);

    const resumed = await finish(await start(['run', '--resume', '-o', 'json']));
    expect(resumed.exitCode, described(resumed)).toBe(0);
    expect(resumed.events.some((e) => e.type === 'paused')).toBe(false);
    expect(finishedOf(resumed.events)?.result).toBe('done');
    nodes = await poolNodes();
    expect(nodes.filter((n) => n.spec.unschedulable)).toEqual([]);
  });

  it('--pause where one node of the batch fails its drain exits 1; the pause names only the drained node', async () => {
    // A pod of one of the batch's nodes held by a finalizer: evicted, it stays terminating, so that node's
    // drain ends at --timeout. A cache pod if one of the two has one (its budget, 50 %, leaves the other
    // node's pods free to go), else any pod: the seed's scheduling decides where pods are (cache's four
    // spread over six hosts), so the held node is pool-2 or pool-1, whichever has one.
    const pods = await kubectlJson<{
      items: Array<{ metadata: { name: string; labels: Record<string, string> }; spec: { nodeName: string } }>;
    }>(['get', 'pods', '-n', 'shop']);
    const candidates = [
      ...pods.items.filter((p) => p.metadata.labels.app === 'cache'),
      ...pods.items.filter((p) => p.metadata.labels.app !== 'cache'),
    ];
    const pick =
      candidates.find((p) => p.spec.nodeName === 'pool-2') ?? candidates.find((p) => p.spec.nodeName === 'pool-1');
    expect(pick, 'a shop pod on pool-1 or pool-2').toBeDefined();
    const held = pick!.metadata.name;
    const heldNode = pick!.spec.nodeName;
    const drainedNode = heldNode === 'pool-2' ? 'pool-1' : 'pool-2';
    const finalizer = 'lab.kubectl-maint.io/hold';
    await kubectl([
      'patch',
      'pod',
      '-n',
      'shop',
      held,
      '--type=merge',
      '-p',
      JSON.stringify({ metadata: { finalizers: [finalizer] } }),
    ]);
    try {
      const r = await finish(await start([...PAUSE_POOL_1_2, '--timeout', '20s']));
      const why = described(r);
      expect(r.exitCode, why).toBe(1);
      const finished = finishedOf(r.events)!;
      expect(finished.result, why).toBe('paused');
      expect(
        finished.nodes.find((n) => n.node === heldNode),
        why,
      ).toMatchObject({
        phase: 'drain-failed',
        problem: expect.stringContaining(`shop/${held} is still on it`),
      });
      expect(finished.nodes.find((n) => n.node === drainedNode)?.phase, why).toBe('drained');
      expect(
        r.events.find((e) => e.type === 'paused'),
        why,
      ).toMatchObject({ batch: 1, nodes: [drainedNode] });
    } finally {
      await kubectl(['patch', 'pod', '-n', 'shop', held, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
    }
  });
});
