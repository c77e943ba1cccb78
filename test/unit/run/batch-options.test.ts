import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { register as registerDrain } from '../../../src/cli/commands/drain.js';
import { register as registerRun, type RunCommandValues } from '../../../src/cli/commands/run.js';
import { drainSettingsFrom, type DrainingFlagValues } from '../../../src/cli/drain-flags.js';
import { runOptionsFrom } from '../../../src/cli/run-action.js';
import { drainRequestFor, planOptionsOf } from '../../../src/drain/drain-settings.js';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { batchDrainRequest, batchPlanOptions, planBatch } from '../../../src/run/batch-drain.js';
import { definitionOf, leaseFor } from '../../../src/run/state.js';
import { ClusterIndex } from '../../../src/snapshot/cluster-index.js';
import { makeDeployment, makeNode, makePdb, makePod, makeReplicaSet, makeSnapshot } from '../builders.js';

/** The flags as the command line gives them to `command` (drain or run), parsed by the program's own declarations. */
function flagsOf<T>(command: 'drain' | 'run', argv: readonly string[]): T {
  const program = new Command('kubectl-maint').exitOverride();
  registerDrain(program);
  registerRun(program);
  let values: T | undefined;
  const sub = program.commands.find((c) => c.name() === command)!;
  sub.exitOverride().action((_operands: unknown, opts: T) => void (values = opts));
  program.parse([command, ...argv], { from: 'user' });
  return values!;
}

/** One replica of demo/solo on n1 under minAvailable 1: blocked, but for --surge. */
const snapshot = makeSnapshot({
  nodes: [makeNode().name('n1').obj(), makeNode().name('n2').obj()],
  pods: [
    makePod()
      .name('solo-1')
      .ns('demo')
      .node('n1')
      .label('app', 'solo')
      .owner('ReplicaSet', 'solo-rs')
      .requests('100m')
      .obj(),
  ],
  pdbs: [
    makePdb()
      .name('solo')
      .ns('demo')
      .selector({ app: 'solo' })
      .minAvailable(1)
      .status({ disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 })
      .obj(),
  ],
  replicaSets: [makeReplicaSet().name('solo-rs').ns('demo').owner('Deployment', 'solo').obj()],
  deployments: [makeDeployment().name('solo').ns('demo').replicas(1).obj()],
});
const NOW_MS = Date.parse('2026-12-01T14:00:00Z');

describe("run's batches take drain's flags whole", () => {
  it.each([
    { name: 'the defaults', flags: [] },
    {
      name: 'every strategy and comparison',
      flags: [
        '--ignore-daemonsets',
        '--delete-emptydir-data',
        '--force',
        '--surge=demo/solo',
        '--order',
        'priority',
        '--escalate-after',
        '2m',
        '--escalate-namespace',
        'demo',
        '--taint',
        'example.com/maint=now',
        '--node-monitor-grace-period',
        '40s',
        '--grace-period',
        '30',
        '--timeout',
        '5m',
        '--concurrency',
        '4',
        '--skip-wait-for-delete-timeout',
        '60',
        '--pod-selector',
        'app=solo',
      ],
    },
    { name: '--surge for all, --disable-eviction', flags: ['--surge', '--disable-eviction'] },
  ])(
    '$name: the same plan options and the same drain as `drain`, after the run records and reads them back',
    ({ flags }) => {
      const drain = drainSettingsFrom(flagsOf<DrainingFlagValues>('drain', ['n1', ...flags]));
      const recorded = runOptionsFrom(flagsOf<RunCommandValues>('run', ['n1', ...flags, '--', 'true']));
      // What a batch reads is what --resume reads: the definition back from the run's Lease.
      const options = definitionOf(
        leaseFor({ id: 'r1', batches: [['n1']], command: ['true'], options: recorded }, 'ops', NOW_MS, 'kube-system'),
      ).options;

      expect(options.drain).toEqual(drain);
      const now = Math.floor(NOW_MS / 1000);
      expect(batchPlanOptions(options, ['n1'], now)).toEqual(planOptionsOf(drain, ['n1'], now));

      const plan = buildPlan(new ClusterIndex(snapshot), planOptionsOf(drain, ['n1'], now));
      expect(planBatch(snapshot, ['n1'], options, NOW_MS)).toEqual(plan);
      const signal = new AbortController().signal;
      const {
        commands: _ours,
        classifyLate: batchLate,
        ...batch
      } = batchDrainRequest(snapshot, plan, ['n1'], options, signal);
      const {
        commands: _theirs,
        classifyLate: aloneLate,
        ...alone
      } = drainRequestFor(drain, plan, snapshot, { dryRun: 'none', signal });
      expect(batch).toEqual(alone);
      // A pod found on the node after the plan is treated alike too: n1's pods, as if bound anew.
      const anew = snapshot.pods
        .filter((p) => p.spec?.nodeName === 'n1')
        .map((p) => ({ ...p, metadata: { ...p.metadata, uid: `${p.metadata?.uid}-anew` } }));
      expect(anew.length).toBeGreaterThan(0);
      expect(batchLate?.(anew, now)).toEqual(aloneLate?.(anew, now));
      expect(batchLate?.(anew, now).targets.length).toBeGreaterThan(0);
    },
  );

  it('with --surge the batch of the solo node is planned and drained as drain does it: surged, not blocked', () => {
    const options = runOptionsFrom(
      flagsOf<RunCommandValues>('run', ['n1', '--ignore-daemonsets', '--surge', '--', 'true']),
    );
    const plan = planBatch(snapshot, ['n1'], options, NOW_MS);
    expect(plan.verdict).not.toBe('blocked');
    const request = batchDrainRequest(snapshot, plan, ['n1'], options, new AbortController().signal);
    expect(request.surge?.deployments.map((d) => `${d.namespace}/${d.name} +${d.extra}`)).toEqual(['demo/solo +1']);
  });
});
