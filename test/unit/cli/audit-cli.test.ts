import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { ClusterAudit } from '../../../src/plan/audit-types.js';
import { runCli as run } from './cli-from-source.js';

const root = path.resolve(import.meta.dirname, '../../..');
const hello = path.join(root, 'examples/hello.json');
const helloBlocked = path.join(root, 'examples/hello-blocked.json');

describe("kubectl maint audit on the bundled examples: exit codes as plan's, the worst node's", () => {
  it.each([
    {
      name: 'every node slow or clear: 0',
      args: ['audit', '--snapshot', hello, '--ignore-daemonsets', '-o', 'json'],
      exitCode: 0,
      verdicts: { 'k8s-master-1': 'clear', 'k8s-node-1': 'slow', 'k8s-node-2': 'slow' },
      workloads: [],
    },
    {
      name: 'the Deployment whose replacement has nowhere to go blocks both workers: 3',
      args: ['audit', '--snapshot', helloBlocked, '--ignore-daemonsets', '-o', 'json'],
      exitCode: 3,
      verdicts: { 'k8s-master-1': 'clear', 'k8s-node-1': 'blocked', 'k8s-node-2': 'blocked' },
      workloads: [['demo/Deployment/hello', ['k8s-node-1', 'k8s-node-2']]],
    },
    {
      name: "without --ignore-daemonsets every node's DaemonSet pods block it, the flag named as the way out",
      args: ['audit', 'k8s-node-1', '--snapshot', hello, '-o', 'yaml'],
      exitCode: 3,
      verdicts: { 'k8s-node-1': 'blocked' },
      workloads: [
        ['kube-system/DaemonSet/kindnet', ['k8s-node-1']],
        ['kube-system/DaemonSet/kube-proxy', ['k8s-node-1']],
      ],
    },
  ])('$name', async ({ args, exitCode, verdicts, workloads }) => {
    const r = await run(args);
    expect(r.exitCode, r.stderr).toBe(exitCode);
    const audit = parse(r.stdout) as ClusterAudit;
    expect(audit.kind).toBe('ClusterAudit');
    expect(Object.fromEntries(audit.nodes.map((n) => [n.name, n.verdict]))).toEqual(verdicts);
    expect(audit.workloads.map((w) => [w.id, w.blocks])).toEqual(workloads);
    if (!args.includes('--ignore-daemonsets')) {
      expect(audit.workloads.flatMap((w) => w.causes.map((c) => c.flag))).toEqual([
        '--ignore-daemonsets',
        '--ignore-daemonsets',
      ]);
    }
  });

  it('text off a terminal: the verdict first, then the workloads and the nodes', async () => {
    const r = await run(['audit', '--snapshot', helloBlocked, '--ignore-daemonsets']);
    expect(r.exitCode).toBe(3);
    expect(r.stdout.split('\n')[0]).toBe('BLOCKED: 2 of 3 nodes cannot be drained');
    expect(r.stdout).toContain('Workloads holding nodes back (1), most nodes first');
    expect(r.stdout).toContain('  k8s-node-1     blocked   1         Deployment demo/hello');
  });

  it('an unknown node is one error line (exit 1); a name and -l together a usage error (exit 2)', async () => {
    const unknown = await run(['audit', 'k8s-node-9', '--snapshot', hello]);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toMatch(
      /^error: node "k8s-node-9" not found \(the snapshot has: k8s-master-1, k8s-node-1, k8s-node-2\)$/,
    );
    const both = await run(['audit', 'k8s-node-1', '-l', 'a=b', '--snapshot', hello]);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('cannot specify both a node name and a --selector option');
  });
});
