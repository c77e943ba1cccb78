import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { drainOptionsFrom } from '../../../src/cli/drain-flags.js';
import { planSnapshot } from '../../../src/cli/plan-input.js';
import { parseMaxUnavailable, resolveMaxUnavailable } from '../../../src/cli/pool-flags.js';
import type { DrainPlan } from '../../../src/plan/types.js';
import { snapshotFromText } from '../../../src/snapshot/load-file.js';
import { renderPlanText } from '../../../src/ui/plan-text.js';
import { runCli as run } from './cli-from-source.js';

// Runs the CLI bundled from source, as plan-cli.test.ts does.
const root = path.resolve(import.meta.dirname, '../../..');
const hello = path.join(root, 'examples/hello.json');
const helloBlocked = path.join(root, 'examples/hello-blocked.json');
/** The lab's `pool` scenario as `npm run lab -- snapshot` printed it (managedFields dropped). */
const labPool = path.join(root, 'test/fixtures/plan/lab-pool.json');

describe('--max-unavailable', () => {
  it('takes a count or a percentage of the pool, rounded down but at least one node', () => {
    expect(resolveMaxUnavailable(parseMaxUnavailable('2'), 8)).toBe(2);
    expect(resolveMaxUnavailable(parseMaxUnavailable('25%'), 8)).toBe(2);
    expect(resolveMaxUnavailable(parseMaxUnavailable('10%'), 8)).toBe(1);
    expect(resolveMaxUnavailable(parseMaxUnavailable('100%'), 8)).toBe(8);
  });

  it('refuses 0, 0% and words', () => {
    expect(() => parseMaxUnavailable('0')).toThrow(
      'must be at least 1: it is how many nodes are out of service at once, so with 0 no node could ever be drained.',
    );
    expect(() => parseMaxUnavailable('0%')).toThrow('between 1% and 100%');
    expect(() => parseMaxUnavailable('two')).toThrow('expected a number of nodes');
  });
});

/** `plan k8s-node-1 k8s-node-2` of this snapshot as a pool, one node at a time. */
const poolOfTwo = (snapshot: string, ...more: string[]) => [
  'plan',
  'k8s-node-1',
  'k8s-node-2',
  '--snapshot',
  snapshot,
  '--ignore-daemonsets',
  '--max-unavailable',
  '1',
  ...more,
];

describe('kubectl maint plan over a pool', () => {
  it('--max-unavailable 1 over two nodes: kind PoolPlan, one node a batch, every node in a batch', async () => {
    const r = await run(poolOfTwo(hello, '-o', 'json'));
    expect(r.exitCode).toBe(0);
    const plan = JSON.parse(r.stdout) as { kind: string; maxUnavailable: number; batches: { nodes: string[] }[] };
    expect(plan.kind).toBe('PoolPlan');
    expect(plan.maxUnavailable).toBe(1);
    expect(plan.batches.flatMap((b) => b.nodes).sort()).toEqual(['k8s-node-1', 'k8s-node-2']);
  });

  it('--command-time without --max-unavailable is a usage error: it estimates batches', async () => {
    const r = await run(['plan', 'k8s-node-1', 'k8s-node-2', '--snapshot', hello, '--command-time', '5m']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: --command-time estimates the batches of a pool plan: add --max-unavailable N/);
  });

  it('one node with --max-unavailable is a pool of one; text leads with the verdict and the batches', async () => {
    const r = await run(['plan', 'k8s-node-1', '--snapshot', hello, '--ignore-daemonsets', '--max-unavailable', '1']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('SLOW: 1 node in 1 batch of at most 1');
    expect(r.stdout).toMatch(/^ {2}BATCH {3}NODES/m);
  });

  it('estimates each batch and the run, naming --command-time as the assumption it is', async () => {
    const args = poolOfTwo(hello);
    const r = await run([...args, '--command-time', '5m', '-o', 'json']);
    expect(r.exitCode).toBe(0);
    const plan = JSON.parse(r.stdout) as {
      batches: { eta: { totalSeconds: number; drainSeconds: number; commandSeconds: number } }[];
      eta: { totalSeconds: number; commandSeconds: number; basis: string[] };
    };
    for (const b of plan.batches) {
      expect(b.eta.commandSeconds).toBe(300);
      expect(b.eta.totalSeconds).toBeGreaterThanOrEqual(b.eta.drainSeconds + 300);
    }
    expect(plan.eta.totalSeconds).toBeCloseTo(
      plan.batches.reduce((sum, b) => sum + b.eta.totalSeconds, 0),
      5,
    );
    expect(plan.eta.basis[0]).toBe("the command and the node's return take 300 s per batch (assumed: --command-time)");
    const text = await run(args);
    expect(text.stdout).toMatch(/^Estimate: about \S+ for the run$/m);
    expect(text.stdout).toContain("the command and the node's return are not counted (no --command-time)");
  });

  it('a blocked batch blocks the run: exit 3 and the batch named first', async () => {
    const r = await run(poolOfTwo(helloBlocked));
    expect(r.exitCode).toBe(3);
    expect(r.stdout.split('\n')[0]).toMatch(/^BLOCKED: /);
    expect(r.stdout.split('\n')[1]).toMatch(/^ {2}- batch \d \(k8s-node-\d\) is blocked: /);
  });

  it("--max-unavailable 0 is a usage error in kubectl's words (the error, then where the help is), exit 2", async () => {
    const r = await run(['plan', 'k8s-node-1', '--snapshot', hello, '--max-unavailable', '0']);
    expect(r.exitCode).toBe(2);
    const [line, see, ...rest] = r.stderr.trim().split('\n');
    expect(line).toMatch(/^error: invalid argument "0" for "--max-unavailable" flag: .*must be at least 1/);
    expect([see, rest]).toEqual(["See 'kubectl maint plan --help' for usage.", []]);
  });
});

describe("the lab's pool scenario as a snapshot", () => {
  // Six workers whose pods are fine to drain alone but offend together at --max-unavailable 3: a
  // batching change once looped for ever on exactly this (every node of an attempt offending).
  it('--max-unavailable 3 ends with every node in exactly one batch, none larger than 3', async () => {
    const nodes = ['pool-1', 'pool-2', 'pool-3', 'pool-4', 'pool-5', 'pool-6'];
    const r = await run([
      'plan',
      ...nodes,
      '--snapshot',
      labPool,
      '--ignore-daemonsets',
      '--max-unavailable',
      '3',
      '-o',
      'json',
    ]);
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    const plan = JSON.parse(r.stdout) as { verdict: string; batches: { nodes: string[] }[] };
    expect(plan.batches.flatMap((b) => b.nodes).sort()).toEqual(nodes);
    expect(Math.max(...plan.batches.map((b) => b.nodes.length))).toBeLessThanOrEqual(3);
    expect(plan.verdict).toBe('slow');
  });
});

describe('kubectl maint plan NODE… previews kubectl maint drain NODE…', () => {
  const snapshot = () => {
    const text = readFileSync(hello, 'utf8');
    return snapshotFromText(text, { type: 'file', path: hello }, 'hello');
  };
  const flags = drainOptionsFrom({
    ignoreDaemonsets: true,
    taint: { key: 'kubectl-maint/maintenance' },
    nodeMonitorGracePeriod: 50,
  });

  it('two nodes without --max-unavailable: one DrainPlan, both cordoned and drained together, as drain plans them', async () => {
    const r = await run(['plan', 'k8s-node-1', 'k8s-node-2', '--snapshot', hello, '--ignore-daemonsets', '-o', 'json']);
    const plan = JSON.parse(r.stdout) as DrainPlan;
    expect(plan.kind).toBe('DrainPlan');
    expect(plan.nodes).toEqual(['k8s-node-1', 'k8s-node-2']);
    // drain builds its plan with planSnapshot from the same words: the same verdict, reasons and pods.
    const drains = planSnapshot(snapshot(), { names: ['k8s-node-1', 'k8s-node-2'] }, flags);
    expect([plan.verdict, plan.verdictReasons]).toEqual([drains.verdict, drains.verdictReasons]);
    const fate = (p: DrainPlan['pods'][number]) => [p.namespace, p.name, p.node, p.action, p.outcome, p.wave];
    expect(plan.pods.map(fate)).toEqual(drains.pods.map(fate));
    // Both workers out at once: hello's replacements have nowhere to go but the tainted control plane.
    expect(plan.verdict).not.toBe('clear');
    expect(r.exitCode).toBe(plan.verdict === 'blocked' ? 3 : plan.verdict === 'disruptive' ? 5 : 0);
  });

  it('the text plan opens with what drain --dry-run prints before its dry-run lines: the same verdict, way out and pods', async () => {
    const r = await run(['plan', 'k8s-node-1', 'k8s-node-2', '--snapshot', hello, '--ignore-daemonsets', '--no-tui']);
    const preface = renderPlanText(planSnapshot(snapshot(), { names: ['k8s-node-1', 'k8s-node-2'] }, flags), {
      brief: true,
    });
    const paragraphs = (text: string) => text.split('\n\n');
    // The verdict, its reasons and what to do: word for word.
    expect(paragraphs(preface)[0]).toBe(paragraphs(r.stdout)[0]);
    expect(r.stdout.split('\n')[0]).toMatch(/^[A-Z]+: draining k8s-node-1, k8s-node-2 /);
    // The pods: the same ones, counted in brief.
    expect(paragraphs(r.stdout)[1]!.split('\n')[0]).toBe('Pods on k8s-node-1, k8s-node-2 (8)');
    expect(paragraphs(preface)[1]!.split('\n')[0]).toBe(
      'Pods on k8s-node-1, k8s-node-2 (8): 3 blocked, 1 evicted at once, 4 left on the node',
    );
  });

  it("the drain's preface says the plan's estimate in one line, the text plan's estimate title", async () => {
    const r = await run(['plan', 'k8s-node-1', '--snapshot', hello, '--ignore-daemonsets', '--no-tui']);
    const preface = renderPlanText(planSnapshot(snapshot(), { names: ['k8s-node-1'] }, flags), { brief: true });
    const estimate = r.stdout.split('\n').find((line) => line.startsWith('Estimate: '));
    expect(estimate).toMatch(/^Estimate: about \S.* from the first eviction/);
    expect(preface.split('\n')).toContain(estimate);
  });
});
