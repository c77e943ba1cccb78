import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { connect } from '../../src/cli/kube-connect.js';
import { runApi } from '../../src/kube/run-api.js';
import { claimRun, RunRefused } from '../../src/run/claim.js';
import type { RunDefinition, RunOptions } from '../../src/run/state.js';
import { POOL_WINDOW, poolRunArgs, RUN_FLAGS } from '../../scripts/lab/pool-run.js';
import { eventually, kubectl, kubectlJson, labEnv, labUserWithRules } from './lab.js';
import {
  described,
  deploymentsReady,
  finish,
  finishedOf,
  poolNodes,
  reboot,
  root,
  scratch,
  seedPool,
  start,
  untilEvent,
} from './run-helpers.js';

// `kubectl maint run` over the lab's `pool` scenario: six KWOK workers in three zones, three budgeted
// workloads, and scripts/lab/reboot-node.sh as the operator's command (NotReady, then Ready with a new bootID).

const work = scratch();
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('kubectl maint run over a pool of six KWOK workers', () => {
  beforeEach(async () => {
    await seedPool();
  });

  it('Ctrl-C twice during a command leaves each node in a recorded phase; --resume from another directory finishes', async () => {
    // The command as the docs give it: relative to the checkout, where the run starts.
    const run = await start(poolRunArgs([path.relative(root, reboot), '{node}']), { REBOOT_SECONDS: '30' }, root);
    await untilEvent(
      run,
      (events) => events.some((e) => e.type === 'phase' && e.phase === 'command-running'),
      120_000,
      'a command to start',
    );
    // The first lets the commands finish, the second kills them.
    run.child.kill('SIGINT');
    await untilEvent(run, (events) => events.some((e) => e.type === 'interrupt'), 30_000, 'the run to say it stops');
    run.child.kill('SIGINT');
    const first = await finish(run);
    expect(first.exitCode).toBe(130);
    const interrupted = finishedOf(first.events);
    expect(interrupted?.result).toBe('interrupted');
    // The commands the second Ctrl-C killed are said so: a phase of their own, never command-running.
    expect(interrupted!.nodes.filter((n) => n.phase === 'command-running')).toEqual([]);
    const running = interrupted!.nodes.filter((n) => n.phase === 'command-killed').map((n) => n.node);
    expect(running.length).toBeGreaterThan(0);
    // The phases are on the nodes, and those nodes stay cordoned.
    const nodes = await poolNodes();
    for (const name of running) {
      const node = nodes.find((n) => n.metadata.name === name)!;
      expect(node.metadata.annotations?.['maint.kubectl.io/phase']).toBe('command-killed');
      expect(node.spec.unschedulable).toBe(true);
    }
    expect(interrupted!.resumeCommand).toMatch(/^kubectl maint run --resume \S+ --rerun-command$/);

    // From another directory with no local files: refused until --rerun-command, then it finishes.
    const elsewhere = mkdtempSync(path.join(work, 'elsewhere-'));
    const refused = await finish(await start(['run', '--resume', '-o', 'json'], {}, elsewhere));
    expect(refused.exitCode).toBe(1);
    // Without an id, the one run to resume is taken, and named.
    const [note, error, ...rest] = refused.stderr.trim().split('\n');
    expect(rest).toEqual([]);
    expect(note).toMatch(/^note: resuming \S+ \(started \S+, stopped\), the only run to resume$/);
    expect(error).toMatch(
      /^error: node "pool-\d": its command was killed \(interrupted\); re-run it with kubectl maint run --resume \S+ --rerun-command/,
    );
    const resumed = await finish(
      await start(['run', '--resume', '--rerun-command', '-o', 'json'], { REBOOT_SECONDS: '1' }, elsewhere),
    );
    expect(resumed.exitCode, described(resumed)).toBe(0);
    expect(finishedOf(resumed.events)?.result, described(resumed)).toBe('done');
    // The recorded command, run from the directory the run started in.
    expect(resumed.events.find((e) => e.type === 'run-started')).toMatchObject({ command: [reboot, '{node}'] });
    // The resumed run starts from the phases recorded on the nodes, not from pending.
    const restarted = resumed.events.find((e) => e.type === 'run-started');
    const recorded = restarted?.type === 'run-started' ? restarted.phases : {};
    for (const node of running) expect(recorded[node], node).toBe('command-killed');
    expect((await poolNodes()).filter((n) => n.spec.unschedulable)).toEqual([]);
    await eventually(deploymentsReady, 30_000, 'every deployment of shop to be Ready');
  });

  it('two runs claiming the same nodes at once (both found them free) never both hold them; the refused one leaves nothing', async () => {
    // Two `kubectl maint run`s started together both pass the check that the nodes are free; what keeps
    // them apart is the claim itself. Both claims here, at once, against the lab's API server.
    const client = await connect({ kubeconfig: (await labEnv()).KUBECONFIG });
    const api = runApi(client);
    const definition = (id: string): RunDefinition => ({
      id,
      batches: [['pool-1', 'pool-2']],
      command: [],
      // A claim records the run's options on its Lease, it does not read them.
      options: {} as RunOptions,
    });
    const ids = ['race-a', 'race-b'];
    // Both claim from the same read of free nodes, as a run claims from the read it planned on and judged
    // free: each patch is guarded by that read's resourceVersion, so the second to land finds the node
    // changed, reads it again and finds it taken.
    const judgedFree = new Map(
      await Promise.all(['pool-1', 'pool-2'].map(async (name) => [name, await api.readNode(name)] as const)),
    );
    const claims = await Promise.allSettled(
      ids.map((id) =>
        claimRun(
          { api, namespace: 'kubectl-maint', holder: `e2e ${id}`, nowMs: Date.now() },
          definition(id),
          false,
          judgedFree,
        ),
      ),
    );
    const held = ids.filter((_, i) => claims[i]!.status === 'fulfilled');
    const why = JSON.stringify(claims.map((c) => (c.status === 'rejected' ? String(c.reason) : 'claimed')));
    expect(held.length, why).toBeLessThanOrEqual(1);
    for (const claim of claims.filter((c) => c.status === 'rejected')) {
      expect(claim.reason, why).toBeInstanceOf(RunRefused);
      expect(String(claim.reason.message), why).toMatch(
        /^node "pool-[12]" is in run race-[ab] held by e2e race-[ab] \(its lease expires in \d+s unless renewed\): this run had created its Lease kubectl-maint\/maint-run-race-[ab]( and claimed "pool-[12]")? \(the other run claimed its node meanwhile\), and undid (it|them)$/,
      );
    }
    const leases = await kubectlJson<{ items: Array<{ metadata: { labels: Record<string, string> } }> }>([
      'get',
      'leases',
      '-n',
      'kubectl-maint',
      '-l',
      'maint.kubectl.io/run',
    ]);
    expect(
      leases.items.map((l) => l.metadata.labels['maint.kubectl.io/run']),
      why,
    ).toEqual(held);
    const nodes = (await poolNodes()).filter((n) => ['pool-1', 'pool-2'].includes(n.metadata.name));
    expect(
      nodes.map((n) => n.metadata.annotations?.['maint.kubectl.io/run']),
      why,
    ).toEqual(held.length === 1 ? [held[0], held[0]] : [undefined, undefined]);
  });

  it('a second run over a node of a running one refuses, naming the holder, and writes nothing', async () => {
    const first = await start(['run', 'pool-1', 'pool-2', ...RUN_FLAGS, '--', reboot, '{node}'], {
      REBOOT_SECONDS: '30',
    });
    await untilEvent(
      first,
      (events) => events.some((e) => e.type === 'phase'),
      60_000,
      'the first run to claim its nodes',
    );
    const second = await finish(await start(['run', 'pool-2', 'pool-3', ...RUN_FLAGS, '--', reboot, '{node}']));
    expect(second.exitCode).toBe(1);
    expect(second.stderr.trim().split('\n')).toHaveLength(1);
    expect(second.stderr).toMatch(
      /^error: node "pool-2" is in run \S+ held by \S+@\S+ pid \d+ \(its lease expires in \d+s unless renewed\): nothing was changed$/,
    );
    const pool3 = (await poolNodes()).find((n) => n.metadata.name === 'pool-3')!;
    expect(pool3.metadata.annotations?.['maint.kubectl.io/run']).toBeUndefined();
    expect(pool3.spec.unschedulable).toBeUndefined();
    // The first run is done with: a second Ctrl-C stops its reboot, which the first would let run its 30 s.
    first.child.kill('SIGINT');
    await untilEvent(
      first,
      (events) => events.some((e) => e.type === 'interrupt'),
      30_000,
      'the first run to say it stops',
    );
    first.child.kill('SIGINT');
    await finish(first);
  });

  it('an API failure under the run (a node deleted mid-run) still ends with every node and the resume command', async () => {
    const planned = await finish(
      await start(['plan', 'pool-1', 'pool-2', '--max-unavailable', '1', '--ignore-daemonsets', '-o', 'json']),
    );
    const plan = JSON.parse(planned.stdout) as { batches: Array<{ nodes: string[] }> };
    const [first, second] = plan.batches.map((b) => b.nodes[0]!);
    const run = await start(['run', 'pool-1', 'pool-2', ...RUN_FLAGS, '--', reboot, '{node}'], { REBOOT_SECONDS: '3' });
    // The second node goes away (scaled down, replaced) while the first is in its command.
    await untilEvent(
      run,
      (events) => events.some((e) => e.type === 'phase' && e.node === first && e.phase === 'command-running'),
      120_000,
      `${first} to be in its command`,
    );
    await kubectl(['delete', 'node', second!, '--wait=false']);
    const r = await finish(run);
    const why = described(r);
    expect(r.exitCode, why).toBe(1);
    expect(r.stderr, why).toMatch(new RegExp(`^error: .*${second}.*\\n?$`));
    const finished = finishedOf(r.events)!;
    expect(finished.result, why).toBe('failed');
    expect(
      finished.nodes.map((n) => [n.node, n.phase]),
      why,
    ).toEqual([
      [first, 'done'],
      [second, 'pending'],
    ]);
    expect(finished.resumeCommand, why).toMatch(/^kubectl maint run --resume \S+$/);
  });

  it('a command that exits 1 leaves its node cordoned and stops the run before the next batch', async () => {
    // The node that fails is the first of the first batch, as the pool plan chooses it.
    const planned = await start(['plan', ...POOL_WINDOW, '--ignore-daemonsets', '-o', 'json']);
    const plan = JSON.parse(String((await planned.child).stdout)) as { batches: Array<{ nodes: string[] }> };
    const first = plan.batches[0]!.nodes[0]!;
    const run = await start(poolRunArgs([reboot, '{node}']), {
      REBOOT_FAIL_NODE: first,
    });
    const r = await finish(run);
    expect(r.exitCode).toBe(1);
    const finished = finishedOf(r.events)!;
    expect(finished.result).toBe('failed');
    const failed = finished.nodes.find((n) => n.node === first)!;
    expect(failed).toMatchObject({ phase: 'command-failed', problem: 'command exited 1' });
    const nodes = await poolNodes();
    expect(nodes.find((n) => n.metadata.name === first)!.spec.unschedulable).toBe(true);
    // Nodes of later batches were never touched.
    const later = finished.nodes.filter((n) => n.batch > failed.batch);
    expect(later.length).toBeGreaterThan(0);
    for (const n of later) {
      expect(n.phase).toBe('pending');
      expect(nodes.find((x) => x.metadata.name === n.node)!.spec.unschedulable).toBeUndefined();
    }
    expect(finished.resumeCommand).toMatch(/^kubectl maint run --resume \S+ --rerun-command$/);
  });

  it('--keep-going: a later batch whose fresh plan is blocked (a budget that never frees) fails without a cordon; the run ends', async () => {
    // The first batch's command adds a budget over every pod of shop that allows no disruption, and waits
    // until the disruption controller has computed it: from then on every later batch's plan is blocked.
    const freeze = path.join(work, 'freeze.yaml');
    writeFileSync(
      freeze,
      'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: freeze, namespace: shop}\nspec: {maxUnavailable: 0, selector: {}}\n',
    );
    const command = [
      'bash',
      '-c',
      `kubectl apply -f ${freeze} >/dev/null && kubectl wait -n shop pdb/freeze --for=jsonpath='{.status.observedGeneration}'=1 >/dev/null && exec ${reboot} "$0"`,
      '{node}',
    ];
    const pool = ['pool-1', 'pool-2', 'pool-3'];
    const r = await finish(
      await start(['run', ...pool, '--max-unavailable', '1', '--keep-going', ...RUN_FLAGS, '--', ...command], {
        REBOOT_SECONDS: '1',
      }),
    );
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(1);
    const finished = finishedOf(r.events)!;
    expect(finished.result).toBe('failed');
    const [first, ...later] = [...finished.nodes].sort((a, b) => a.batch - b.batch);
    expect(first).toMatchObject({ batch: 1, phase: 'done' });
    // A later node with pods of shop on it is blocked by the budget: not cordoned, not drained, the plan's
    // reason given; one without (every pod moved elsewhere) has nothing to evict and is done.
    const pods = await kubectlJson<{ items: Array<{ spec: { nodeName: string } }> }>(['get', 'pods', '-n', 'shop']);
    const holding = new Set(pods.items.map((p) => p.spec.nodeName));
    const blocked = later.filter((n) => holding.has(n.node));
    expect(blocked.length).toBeGreaterThan(0);
    for (const n of blocked) {
      expect(n.phase).toBe('drain-failed');
      expect(n.problem).toMatch(
        /^not cordoned or drained: the batch's plan is blocked \(.*shop\/freeze.*\); no --timeout bounds the wait$/,
      );
    }
    for (const n of later.filter((x) => !holding.has(x.node))) expect(n.phase).toBe('done');
    expect((await poolNodes()).filter((n) => n.spec.unschedulable)).toEqual([]);
    const cordoned = r.events.flatMap((e) => (e.type === 'drain' && e.event.type === 'cordoned' ? [e.event.node] : []));
    expect(cordoned).not.toEqual(expect.arrayContaining(blocked.map((n) => n.node)));
    expect(finished.resumeCommand).toMatch(/^kubectl maint run --resume \S+$/);
  });

  it('a user who cannot create Leases gets one line before anything is written', async () => {
    const kubeconfig = await labUserWithRules(
      'maint-drainer',
      [
        '{apiGroups: ["", apps, policy, batch], resources: ["*"], verbs: [get, list, watch]}',
        '{apiGroups: [""], resources: [nodes], verbs: [patch]}',
        '{apiGroups: [""], resources: [pods/eviction], verbs: [create]}',
      ],
      work,
    );
    const r = await finish(
      await start(['run', '-l', 'pool=blue', ...RUN_FLAGS, '--', reboot, '{node}'], { KUBECONFIG: kubeconfig }),
    );
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(
      'error: cannot create leases.coordination.k8s.io in namespace "kubectl-maint" (the run\'s state, kept in a Lease): nothing was changed',
    );
    const nodes = await poolNodes();
    expect(nodes.filter((n) => n.spec.unschedulable || n.metadata.annotations?.['maint.kubectl.io/run'])).toEqual([]);
  });
});
