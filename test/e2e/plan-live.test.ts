import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, labEnv, labUserKubeconfig, labUserWithRules, seedScenario } from './lab.js';

// `kubectl maint plan` against the lab's real API server: the live read path (pagination, RBAC) and the
// plan it leads to. The command is the built binary, run the way kubectl runs a plugin.

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin/kubectl-maint.js');
const work = mkdtempSync(path.join(tmpdir(), 'maint-plan-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Plan {
  verdict: string;
  assumedVerdict: string;
  verdictReasons: string[];
  unread: Array<{ kind: string; why: string; pods: string[] }>;
  nodes: string[];
  pods: Array<{ namespace: string; name: string; action: string; outcome: string | null; wave: number | null }>;
  budgets: Array<{ namespace: string; name: string; waves: number; perWave: number }>;
  caveats: string[];
  kubernetes: { server: string | null; modelled: string };
}

async function plan(args: string[], kubeconfig?: string) {
  const env = await labEnv();
  const result = await execa(process.execPath, [bin, 'plan', ...args], {
    reject: false,
    env: { ...process.env, KUBECONFIG: kubeconfig ?? env.KUBECONFIG, NO_COLOR: '1' },
  });
  return { exitCode: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** The kinds of the README's snapshot command. */
const ALL_KINDS =
  'nodes,pods,poddisruptionbudgets,replicasets,deployments,statefulsets,daemonsets,replicationcontrollers,jobs,services';

/** `kubectl get KINDS -A -o json` saved to a file, as an operator makes a snapshot. */
async function saveSnapshot(name: string, kinds: string): Promise<string> {
  const { stdout } = await kubectl(['get', kinds, '-A', '-o', 'json']);
  const file = path.join(work, name);
  writeFileSync(file, String(stdout));
  return file;
}

/** The parts of a plan that must not depend on how the cluster was read. */
function outline(p: Plan) {
  return {
    verdict: p.verdict,
    pods: p.pods.map((pod) => `${pod.namespace}/${pod.name} ${pod.action} ${pod.outcome} ${pod.wave}`).sort(),
    budgets: p.budgets.map((b) => `${b.namespace}/${b.name} ${b.waves}x${b.perWave}`),
  };
}

describe('kubectl maint plan against the lab (hello)', () => {
  let live: Plan;

  beforeAll(async () => {
    await seedScenario('hello');
    const r = await plan(['k8s-node-1', '--ignore-daemonsets', '-o', 'json']);
    if (r.exitCode !== 0) throw new Error(`plan failed (${r.exitCode}): ${r.stderr}`);
    live = JSON.parse(r.stdout) as Plan;
  });

  it('is slow: the budget lets one hello pod go at a time, so two waves', () => {
    expect(live.verdict).toBe('slow');
    expect(live.budgets.find((b) => b.namespace === 'demo' && b.name === 'hello')).toMatchObject({
      waves: 2,
      perWave: 1,
    });
    const hello = live.pods.filter((p) => p.namespace === 'demo');
    expect(hello.map((p) => p.wave).sort()).toEqual([1, 2]);
  });

  it("models the server's own version, read from /version, and says so in the JSON", async () => {
    const { stdout } = await kubectl(['version', '-o', 'json']);
    const server = (JSON.parse(String(stdout)) as { serverVersion: { gitVersion: string } }).serverVersion.gitVersion;
    expect(live.kubernetes).toEqual({ server, modelled: server.replace(/^v/, '').replace(/[-+].*$/, '') });
    expect(live.caveats.filter((c) => c.startsWith('Kubernetes version'))).toEqual([]);
  });

  it('reads every kind: no caveat about kinds that were not loaded', () => {
    expect(live.caveats.filter((c) => /not loaded/.test(c))).toEqual([]);
  });

  it('gives the same plan when the lists are read one object per page', async () => {
    const r = await plan(['k8s-node-1', '--ignore-daemonsets', '-o', 'json', '--chunk-size', '1']);
    expect(r.exitCode).toBe(0);
    expect(outline(JSON.parse(r.stdout) as Plan)).toEqual(outline(live));
  });

  it('gives the same plan from `kubectl get … -o json` saved to a file', async () => {
    const snapshot = await saveSnapshot('hello.json', ALL_KINDS);
    const r = await plan(['k8s-node-1', '--ignore-daemonsets', '-o', 'json', '--snapshot', snapshot]);
    expect(r.exitCode).toBe(0);
    expect(outline(JSON.parse(r.stdout) as Plan)).toEqual(outline(live));
  });

  it('a `kubectl get` without budgets saved to a file is not clear: incomplete, exit 4', async () => {
    const snapshot = await saveSnapshot('hello-no-budgets.json', ALL_KINDS.replace('poddisruptionbudgets,', ''));
    const r = await plan(['k8s-node-1', '--ignore-daemonsets', '-o', 'json', '--snapshot', snapshot]);
    expect(r.exitCode).toBe(4);
    const p = JSON.parse(r.stdout) as Plan;
    expect([p.verdict, p.assumedVerdict]).toEqual(['incomplete', 'clear']);
    expect(p.verdictReasons[0]).toMatch(
      /^PodDisruptionBudgets not read: snapshot ".*" holds no PodDisruptionBudget object/,
    );
  });

  it('an unknown node is one line and exit 1', async () => {
    const r = await plan(['k8s-node-9', '--ignore-daemonsets']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe('error: node "k8s-node-9" not found (list nodes with: kubectl get nodes)');
  });
});

describe('kubectl maint plan with least-privilege users (RBAC on the lab)', () => {
  const kubeconfigFor = (user: string) => labUserKubeconfig(user, work);

  beforeAll(async () => {
    await seedScenario('hello');
    // maint-nodes-pods may read nodes and pods only; maint-nobody may read nothing.
    await labUserWithRules('maint-nodes-pods', ['{apiGroups: [""], resources: [nodes, pods], verbs: [list]}'], work);
  });

  it('a user who may not list nodes gets one forbidden line and exit 1', async () => {
    const r = await plan(['k8s-node-1', '--ignore-daemonsets'], await kubeconfigFor('maint-nobody'));
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe('error: forbidden: user "maint-nobody" cannot list nodes at the cluster scope');
  });

  it('a user who may list only nodes and pods still gets a plan, with a warning per kind it could not read', async () => {
    const r = await plan(['k8s-node-1', '--ignore-daemonsets', '-o', 'json'], await kubeconfigFor('maint-nodes-pods'));
    expect(r.exitCode).not.toBe(1);
    const warnings = r.stderr.split('\n').filter((l) => l !== '');
    expect(warnings).toContain(
      'warning: forbidden: user "maint-nodes-pods" cannot list poddisruptionbudgets.policy at the cluster scope (PodDisruptionBudget objects not loaded)',
    );
    expect(warnings).toHaveLength(8);
    const p = JSON.parse(r.stdout) as Plan;
    expect(p.caveats.some((c) => /PodDisruptionBudget/i.test(c))).toBe(true);
    // Not CLEAR or SLOW with exit 0: what it could not read could hold the drain back.
    expect(r.exitCode).toBe(4);
    expect(p.verdict).toBe('incomplete');
    expect(p.assumedVerdict).toBe('clear');
    expect(p.unread.map((u) => u.kind)).toEqual(['PodDisruptionBudget', 'ReplicaSet', 'DaemonSet']);
    expect(p.unread[0]?.why).toBe(
      'forbidden: user "maint-nodes-pods" cannot list poddisruptionbudgets.policy at the cluster scope',
    );
  });

  it('--allow-incomplete lets the same user gate on the verdict from what was read (exit 0)', async () => {
    const r = await plan(
      ['k8s-node-1', '--ignore-daemonsets', '--allow-incomplete', '-o', 'json'],
      await kubeconfigFor('maint-nodes-pods'),
    );
    expect(r.exitCode).toBe(0);
    expect((JSON.parse(r.stdout) as Plan).verdict).toBe('incomplete');
  });
});
