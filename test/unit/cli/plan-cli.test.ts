import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli as run, scratchDir } from './cli-from-source.js';

const root = path.resolve(import.meta.dirname, '../../..');
const hello = path.join(root, 'examples/hello.json');
const helloBlocked = path.join(root, 'examples/hello-blocked.json');
const dir = scratchDir();

/** Every failure is one `error: …` line, never a stack trace. */
function expectOneLineError(stderr: string, message: string | RegExp): void {
  const lines = stderr.split('\n').filter((l) => l.trim() !== '');
  expect(lines).toHaveLength(1);
  if (typeof message === 'string') expect(lines[0]).toBe(`error: ${message}`);
  else expect(lines[0]).toMatch(message);
  expect(stderr).not.toMatch(/^\s+at /m);
}

function file(name: string, content: string): string {
  const p = path.join(dir, name);
  writeFileSync(p, content);
  return p;
}

describe('kubectl maint plan: exit codes and one-line errors', () => {
  it('an unknown flag is a usage error (exit 2)', async () => {
    const r = await run(['plan', 'k8s-node-1', '--snapshot', hello, '--no-such-flag']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe("error: unknown flag: --no-such-flag\nSee 'kubectl maint plan --help' for usage.");
  });

  it('a bad flag value is a usage error naming the flag (exit 2)', async () => {
    const r = await run(['plan', 'k8s-node-1', '--snapshot', hello, '--node-monitor-grace-period', 'soon']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--node-monitor-grace-period');
  });

  it('no node and no selector is a usage error (exit 2)', async () => {
    const r = await run(['plan', '--snapshot', hello]);
    expect(r.exitCode).toBe(2);
    expectOneLineError(r.stderr, 'specify the nodes to drain: NODE… or -l SELECTOR');
  });

  it('a missing snapshot file (exit 1)', async () => {
    const missing = path.join(dir, 'nope.json');
    const r = await run(['plan', 'k8s-node-1', '--snapshot', missing]);
    expect(r.exitCode).toBe(1);
    expectOneLineError(r.stderr, `cannot read snapshot "${missing}": no such file`);
  });

  it('a malformed snapshot (exit 1)', async () => {
    const broken = file('broken.json', '{"kind": "List", "items": [\n  {"kind": "Node"\n');
    const r = await run(['plan', 'k8s-node-1', '--snapshot', broken]);
    expect(r.exitCode).toBe(1);
    expectOneLineError(
      r.stderr,
      new RegExp(`^error: cannot read snapshot "${broken}": not valid JSON at line \\d+, column \\d+: .+$`),
    );
  });

  it('an unknown node (exit 1)', async () => {
    const r = await run(['plan', 'k8s-node-9', '--snapshot', hello]);
    expect(r.exitCode).toBe(1);
    expectOneLineError(
      r.stderr,
      'node "k8s-node-9" not found (the snapshot has: k8s-master-1, k8s-node-1, k8s-node-2)',
    );
  });

  it('no kubeconfig at all (exit 1)', async () => {
    const r = await run(['plan', 'k8s-node-1']);
    expect(r.exitCode).toBe(1);
    expectOneLineError(r.stderr, 'no kubeconfig: set KUBECONFIG or --kubeconfig');
  });

  it('a cluster that cannot be reached: kubeconfig pointing at a closed loopback port (exit 1)', async () => {
    const probe = net.createServer();
    const port = await new Promise<number>((resolve) =>
      probe.listen(0, '127.0.0.1', () => resolve((probe.address() as net.AddressInfo).port)),
    );
    await new Promise((resolve) => probe.close(resolve));
    const kubeconfig = file(
      'closed.yaml',
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        '- name: closed',
        '  cluster:',
        `    server: https://127.0.0.1:${port}`,
        'users:',
        '- name: u',
        '  user:',
        '    token: t',
        'contexts:',
        '- name: closed',
        '  context: {cluster: closed, user: u}',
        'current-context: closed',
        '',
      ].join('\n'),
    );
    const r = await run(['plan', 'k8s-node-1', '--kubeconfig', kubeconfig]);
    expect(r.exitCode).toBe(1);
    expectOneLineError(
      r.stderr,
      `the connection to the server 127.0.0.1:${port} was refused - did you specify the right host or port?`,
    );
  });

  it('a server that accepts and never answers, with --server and --request-timeout 1s: one line at the timeout (exit 1)', async () => {
    const blackHole = net.createServer((socket) => socket.on('error', () => {}));
    const port = await new Promise<number>((resolve) =>
      blackHole.listen(0, '127.0.0.1', () => resolve((blackHole.address() as net.AddressInfo).port)),
    );
    try {
      const r = await run([
        'plan',
        'k8s-node-1',
        '-s',
        `https://127.0.0.1:${port}`,
        '--token',
        't',
        '--request-timeout',
        '1s',
      ]);
      expect(r.exitCode).toBe(1);
      expectOneLineError(r.stderr, 'unable to connect to the server: timed out after 1s (--request-timeout)');
    } finally {
      blackHole.close();
    }
  });

  it('a plan that can finish exits 0, and -o json prints the DrainPlan', async () => {
    const r = await run(['plan', 'k8s-node-1', '--snapshot', hello, '--ignore-daemonsets', '-o', 'json']);
    expect(r.exitCode).toBe(0);
    const plan = JSON.parse(r.stdout) as { kind: string; nodes: string[]; verdict: string };
    expect([plan.kind, plan.nodes, plan.verdict]).toEqual(['DrainPlan', ['k8s-node-1'], 'slow']);
  });

  it('a blocked plan exits 3, text on a pipe, verdict first', async () => {
    const r = await run(['plan', 'k8s-node-1', '--snapshot', helloBlocked, '--ignore-daemonsets']);
    expect(r.exitCode).toBe(3);
    expect(r.stdout.split('\n')[0]).toMatch(/^BLOCKED/);
  });

  it('a snapshot without budgets is incomplete: exit 4, 0 with --allow-incomplete, the verdict says so either way', async () => {
    const full = JSON.parse(readFileSync(hello, 'utf8')) as { items: Array<{ kind: string }> };
    const noBudgets = file(
      'no-budgets.json',
      JSON.stringify({ ...full, items: full.items.filter((o) => o.kind !== 'PodDisruptionBudget') }),
    );
    const gate = await run(['plan', 'k8s-node-1', '--snapshot', noBudgets, '--ignore-daemonsets', '-o', 'json']);
    expect(gate.exitCode).toBe(4);
    const plan = JSON.parse(gate.stdout) as {
      verdict: string;
      assumedVerdict: string;
      unread: Array<{ kind: string }>;
    };
    expect([plan.verdict, plan.assumedVerdict, plan.unread.map((u) => u.kind)]).toEqual([
      'incomplete',
      'clear',
      ['PodDisruptionBudget'],
    ]);
    const allowed = await run([
      'plan',
      'k8s-node-1',
      '--snapshot',
      noBudgets,
      '--ignore-daemonsets',
      '--allow-incomplete',
    ]);
    expect(allowed.exitCode).toBe(0);
    expect(allowed.stdout.split('\n')[0]).toBe(
      'INCOMPLETE: the plan for k8s-node-1 could not read all it needs (from what it read: clear)',
    );
  });

  it('a snapshot with no Pod object is an incomplete plan, not an error', async () => {
    const full = JSON.parse(readFileSync(hello, 'utf8')) as { items: Array<{ kind: string }> };
    const nodesOnly = file(
      'nodes-only.json',
      JSON.stringify({ ...full, items: full.items.filter((o) => o.kind === 'Node') }),
    );
    const r = await run(['plan', 'k8s-node-1', '--snapshot', nodesOnly]);
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toContain('cannot tell an empty cluster from pods not asked for');
  });

  it('-l selects nodes by label; -o yaml prints the same plan as YAML', async () => {
    const r = await run([
      'plan',
      '-l',
      'kubernetes.io/hostname=k8s-node-2',
      '--snapshot',
      hello,
      '--ignore-daemonsets',
      '-o',
      'yaml',
    ]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^kind: DrainPlan\n/);
    expect(r.stdout).toContain('nodes:\n  - k8s-node-2\n');
  });
});

describe('kubectl maint demo', () => {
  it('plans k8s-node-1 in both bundled snapshots, text on a pipe, and exits 0', async () => {
    const r = await run(['demo']);
    expect(r.exitCode).toBe(0);
    const verdicts = r.stdout.split('\n').filter((l) => /^(CLEAR|SLOW|BLOCKED)\b/.test(l));
    expect(verdicts.map((l) => l.split(':')[0])).toEqual(['SLOW', 'BLOCKED']);
  });
});

describe('kubectl maint plan A B: the text plan of a blocked pair', () => {
  it('never suggests itself as the next command; a flag it advises makes a different one', async () => {
    const same = ['plan', 'k8s-node-1', 'k8s-node-2', '--snapshot', helloBlocked, '--ignore-daemonsets', '--no-tui'];
    const r = await run(same);
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toMatch(/^BLOCKED: draining k8s-node-1, k8s-node-2 cannot finish/);
    // No flag makes room for the replacement: no next command at all, least of all this one.
    expect(r.stdout).not.toMatch(/^Next/m);
    expect(r.stdout).not.toContain('kubectl maint plan k8s-node-1 k8s-node-2');
    // Without --ignore-daemonsets the advice adds it: the plan to run next differs from this one.
    const without = await run(same.filter((w) => w !== '--ignore-daemonsets'));
    const suggested = [...without.stdout.matchAll(/kubectl maint plan k8s-node-1 k8s-node-2 .*$/gm)].map((m) => m[0]);
    expect(suggested).toEqual([
      `kubectl maint plan k8s-node-1 k8s-node-2 --snapshot ${helloBlocked} --no-tui --ignore-daemonsets`,
    ]);
  });
});
