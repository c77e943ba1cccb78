import { beforeEach, describe, expect, it } from 'vitest';
import { eventually, kubectl, kubectlJson, seedScenario } from './lab.js';
import { auditMark, evictionsInOrderSince } from './audit.js';
import { runMaint, type DrainRun, planRun } from './drain-run.js';

// Eviction order on hello: three single-replica Deployments on k8s-node-1 whose drain-order annotation
// runs one way (first, second, third) and whose priority runs the other way (third lowest). The drain
// must have each group gone before it sends the next group's eviction.

const PRIORITY_CLASSES = ['low', 'mid', 'high']
  .map(
    (name, i) => `
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: maint-e2e-${name}}
value: ${(i + 1) * 100}
`,
  )
  .join('---');

const deployment = (name: string, order: number, priority: string) => `
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: demo}
spec:
  replicas: 1
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata:
      labels: {app: ${name}, tier: ordered}
      annotations: {maint.kubectl.io/drain-order: '${order}'}
    spec:
      priorityClassName: maint-e2e-${priority}
      terminationGracePeriodSeconds: 2
      nodeSelector: {kubernetes.io/hostname: k8s-node-1}
      containers: [{name: main, image: registry.k8s.io/pause:3.10}]
`;

const WORKLOADS = [
  deployment('first', 10, 'high'),
  deployment('second', 20, 'mid'),
  deployment('third', 30, 'low'),
].join('---');

const ONLY_ORDERED = ['k8s-node-1', '--ignore-daemonsets', '--pod-selector', 'tier=ordered'];

/** The app label of each pod name (the Deployment's name is the pod name's prefix). */
const appOf = (pod: string) => pod.split('-')[0]!;

/** For each group, in the order the drain started them: its apps, when it started, and when its last pod was gone. */
function groupsOf(run: DrainRun) {
  const goneAt = new Map<string, number>();
  const evictingAt = new Map<string, number>();
  for (const e of run.events) {
    if (e.type !== 'pod') continue;
    if (e.state.phase === 'gone') goneAt.set(e.pod.uid, e.atMs);
    if (e.state.phase === 'evicting' && !evictingAt.has(e.pod.uid)) evictingAt.set(e.pod.uid, e.atMs);
  }
  return run.events.flatMap((e) =>
    e.type === 'group'
      ? [
          {
            apps: e.pods.map((p) => appOf(p.name)),
            startedAt: e.atMs,
            firstEviction: Math.min(...e.pods.map((p) => evictingAt.get(p.uid) ?? Infinity)),
            lastGone: Math.max(...e.pods.map((p) => goneAt.get(p.uid) ?? Infinity)),
          },
        ]
      : [],
  );
}

function expectEachGoneBeforeTheNext(groups: ReturnType<typeof groupsOf>): void {
  for (let i = 1; i < groups.length; i++) {
    expect(groups[i - 1]!.lastGone).toBeLessThanOrEqual(groups[i]!.startedAt);
    expect(groups[i - 1]!.lastGone).toBeLessThanOrEqual(groups[i]!.firstEviction);
  }
}

describe('kubectl maint drain with an eviction order', () => {
  beforeEach(async () => {
    await seedScenario('hello');
    await kubectl(['apply', '-f', '-'], { input: PRIORITY_CLASSES });
    await kubectl(['apply', '-f', '-'], { input: WORKLOADS });
    for (const name of ['first', 'second', 'third'])
      await kubectl(['rollout', 'status', '-n', 'demo', `deployment/${name}`, '--timeout=60s']);
  });

  it('by the drain-order annotation: the plan shows three groups, and each is gone before the next starts', async () => {
    const plan = await planRun([...ONLY_ORDERED, '-o', 'json']);
    // Each Deployment is pinned to k8s-node-1: its one replica is down until the node returns (exit 5).
    expect(plan.exitCode, plan.stderr).toBe(5);
    const planned = JSON.parse(plan.stdout) as {
      verdict: string;
      outages: Array<{ name: string; until: string; returnsOn: string[] }>;
      order: { by: string; groups: Array<{ key: number; pods: string[] }> };
    };
    expect(planned.verdict).toBe('disruptive');
    expect(planned.outages.map((o) => [o.name, o.until, o.returnsOn])).toEqual(
      ['first', 'second', 'third'].map((name) => [name, 'node-returns', ['k8s-node-1']]),
    );
    expect(planned.order.by).toBe('annotation');
    expect(planned.order.groups.map((g) => [g.key, g.pods.map((p) => appOf(p.slice('demo/'.length)))])).toEqual([
      [10, ['first']],
      [20, ['second']],
      [30, ['third']],
    ]);
    const text = await planRun([...ONLY_ORDERED]);
    expect(text.stdout).toContain('Eviction order (3 groups by annotation maint.kubectl.io/drain-order');

    const run = await runMaint(['drain', ...ONLY_ORDERED, '-o', 'json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.finished?.result).toBe('drained');
    const groups = groupsOf(run);
    expect(groups.map((g) => g.apps)).toEqual([['first'], ['second'], ['third']]);
    expectEachGoneBeforeTheNext(groups);
    // As the plan said: the real scheduler leaves each replacement Pending while k8s-node-1 is cordoned.
    await eventually(
      async () => {
        const pods = await kubectlJson<{
          items: Array<{ status: { phase: string; conditions?: Array<{ reason?: string }> } }>;
        }>(['get', 'pods', '-n', 'demo', '-l', 'tier=ordered']);
        return (
          pods.items.length === 3 &&
          pods.items.every(
            (p) => p.status.phase === 'Pending' && p.status.conditions?.some((c) => c.reason === 'Unschedulable'),
          )
        );
      },
      30_000,
      'the replacements to be Pending, unschedulable',
    );
  });

  it('--order priority: lowest priority first, whatever the annotation says', async () => {
    const run = await runMaint(['drain', ...ONLY_ORDERED, '--order', 'priority', '-o', 'json']);
    expect(run.exitCode, run.stderr).toBe(0);
    const groups = groupsOf(run);
    expect(groups.map((g) => g.apps)).toEqual([['third'], ['second'], ['first']]);
    expectEachGoneBeforeTheNext(groups);
  });

  it('the text output says when each group starts', async () => {
    const run = await runMaint(['drain', ...ONLY_ORDERED, '--order', 'priority']);
    expect(run.exitCode, run.stderr).toBe(0);
    const starts = run.stdout.split('\n').filter((l) => l.startsWith('drain-order group'));
    expect(starts.map((l) => l.replace(/demo\/(\w+)-\S+/g, '$1'))).toEqual([
      'drain-order group 1 of 3 starts (the groups before it are gone): third',
      'drain-order group 2 of 3 starts (the groups before it are gone): second',
      'drain-order group 3 of 3 starts (the groups before it are gone): first',
    ]);
  });

  it('run --order priority: each batch evicts lowest priority first, as drain does (the API server saw it so)', async () => {
    await kubectl(['delete', 'leases', '-n', 'kubectl-maint', '-l', 'maint.kubectl.io/run', '--ignore-not-found']);
    const mark = await auditMark();
    const run = await runMaint(['run', ...ONLY_ORDERED, '--order', 'priority', '--yes', '-o', 'json', '--', 'true']);
    expect(run.exitCode, run.stderr).toBe(0);
    const evicted = await evictionsInOrderSince(mark);
    expect(evicted.map((pod) => appOf(pod.slice('demo/'.length)))).toEqual(['third', 'second', 'first']);
  });
});
