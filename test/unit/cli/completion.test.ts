import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { complete, Directive, formatCompletions, type NodeLister } from '../../../src/cli/completion.js';
import { completionScript } from '../../../src/cli/completion-scripts.js';
import { buildProgram } from '../../../src/cli/main.js';
import { cliBundlePath, runCli, scratchDir } from './cli-from-source.js';

// The completion logic over the real command tree; the node names come from a list here (the lab's
// test, test/e2e/completion.test.ts, reads them from a real cluster through kubectl).
const nodes = ['k8s-master-1', 'k8s-node-1', 'k8s-node-2'];
const fromList: NodeLister = async () => nodes;
const values = async (...args: string[]) =>
  (await complete(await buildProgram(), args, fromList)).candidates.map((c) => c.value);

describe('complete', () => {
  it('subcommands at the first word, with their summaries', async () => {
    expect(await values('')).toEqual([
      'plan',
      'audit',
      'drain',
      'run',
      'runs',
      'cordon',
      'uncordon',
      'rbac',
      'demo',
      'version',
      'completion',
    ]);
    const result = await complete(await buildProgram(), ['dr'], fromList);
    expect(result).toEqual({
      candidates: [{ value: 'drain', description: expect.stringContaining('cordon nodes and evict') }],
      directive: Directive.NoFileComp,
    });
  });

  it('live node names for plan, audit, drain, cordon and uncordon, without those already given', async () => {
    expect(await values('drain', 'k8s-')).toEqual(nodes);
    expect(await values('audit', '--force', 'k8s-node-2', 'k8s-')).toEqual(['k8s-master-1', 'k8s-node-1']);
    expect(await values('plan', 'k8s-node-1', '--ignore-daemonsets', 'k8s-')).toEqual(['k8s-master-1', 'k8s-node-2']);
    expect(await values('uncordon', 'k8s-n')).toEqual(['k8s-node-1', 'k8s-node-2']);
    expect(await values('drain', '--dry-run', '')).toEqual(nodes); // bare --dry-run takes no value
    expect(await values('version', '')).toEqual([]);
  });

  it("completion's help says that kubectl's bash completion needs the bash-completion package", async () => {
    const help = (await buildProgram()).commands.find((c) => c.name() === 'completion')!.helpInformation();
    expect(help.replace(/\s+/g, ' ')).toContain("In bash, kubectl's script needs the bash-completion package");
  });

  it('--context, --cluster and --user: the names in the kubeconfig the typed flags choose', async () => {
    const kubeconfig = path.resolve(import.meta.dirname, '../../fixtures/kubeconfig/several-contexts.yaml');
    expect(await values('drain', '--kubeconfig', kubeconfig, '--context', '')).toEqual([
      'a-admin',
      'b-anonymous',
      'b-admin',
    ]);
    expect(await values('plan', '--kubeconfig', kubeconfig, '--context', 'b-')).toEqual(['b-anonymous', 'b-admin']);
    expect(await values('plan', '--kubeconfig', kubeconfig, '--context=a')).toEqual(['--context=a-admin']);
    expect(await values('cordon', '--kubeconfig', kubeconfig, '--cluster', '')).toEqual(['a', 'b']);
    expect(await values('cordon', '--kubeconfig', kubeconfig, '--user', 'n')).toEqual(['nobody']);
    // A kubeconfig that cannot be read completes nothing (a shell is waiting: no error).
    expect(await values('drain', '--kubeconfig', '/nonexistent', '--context', '')).toEqual([]);
  });

  it('the flags the command has, long forms after --, not those already given', async () => {
    const flags = await values('drain', '--ignore-daemonsets', '--');
    expect(flags).toContain('--force');
    expect(flags).toContain('--kubeconfig');
    expect(flags).not.toContain('--ignore-daemonsets');
    expect(flags.every((f) => f.startsWith('--'))).toBe(true);
    expect(await values('plan', '-')).toContain('-o');
  });

  it('-o values, --dry-run= values, and file names for --kubeconfig and --snapshot', async () => {
    expect(await values('plan', '-o', '')).toEqual(['text', 'json', 'yaml']);
    expect(await values('drain', '--output', 'j')).toEqual(['json']);
    expect(await values('drain', '--dry-run=s')).toEqual(['server']);
    expect(await complete(await buildProgram(), ['plan', '--snapshot', ''], fromList)).toEqual({
      candidates: [],
      directive: Directive.Default,
    });
    expect(await values('completion', '')).toEqual(['bash', 'zsh', 'fish', 'powershell']);
  });

  it('passes the connection flags typed so far to the node lister', async () => {
    let seen: unknown;
    await complete(await buildProgram(), ['drain', '--kubeconfig', '/k.yaml', '--context', 'lab', ''], async (v) => {
      seen = v;
      return [];
    });
    expect(seen).toMatchObject({ kubeconfig: '/k.yaml', context: 'lab' });
  });

  it('connection flags typed before the subcommand count as after it', async () => {
    let seen: unknown;
    const lister: NodeLister = async (v) => {
      seen = v;
      return nodes;
    };
    const program = await buildProgram();
    const args = ['--context', 'lab', '--kubeconfig=/k.yaml', 'drain', 'k8s-node-1', ''];
    const names = (await complete(program, args, lister)).candidates.map((c) => c.value);
    expect(names).toEqual(['k8s-master-1', 'k8s-node-2']);
    expect(seen).toMatchObject({ kubeconfig: '/k.yaml', context: 'lab' });
    expect(await values('--context', 'lab', 'plan', '--ignore-d')).toEqual(['--ignore-daemonsets']);
  });

  it("a connection flag's value typed before the subcommand: the kubeconfig's names, files, or nothing", async () => {
    const kubeconfig = path.resolve(import.meta.dirname, '../../fixtures/kubeconfig/several-contexts.yaml');
    expect(await values('--kubeconfig', kubeconfig, '--context', 'b-')).toEqual(['b-anonymous', 'b-admin']);
    expect(await values('--kubeconfig', kubeconfig, '--context=a')).toEqual(['--context=a-admin']);
    expect(await values('--kubeconfig', kubeconfig, '--user', '')).toEqual(['admin', 'nobody']);
    const file = await complete(await buildProgram(), ['--kubeconfig', ''], fromList);
    expect(file).toEqual({ candidates: [], directive: Directive.Default });
    expect(await values('--server', '')).toEqual([]);
    // After the value, the subcommands again.
    expect(await values('--context', 'lab', 'dr')).toEqual(['drain']);
  });

  it("prints cobra's format: value<TAB>description lines, then :directive", () => {
    const text = formatCompletions({
      candidates: [{ value: 'a', description: 'first\nmore' }, { value: 'b' }],
      directive: 4,
    });
    expect(text).toBe('a\tfirst\nb\n:4\n');
  });
});

describe('the executables and scripts', () => {
  let bin: string;
  beforeAll(async () => {
    // A PATH directory as npm or krew lays it out: kubectl-maint and kubectl_complete-maint side by side.
    bin = scratchDir();
    writeFileSync(
      path.join(bin, 'kubectl-maint'),
      `#!/bin/sh\nexec "${process.execPath}" "${await cliBundlePath()}" "$@"\n`,
    );
    chmodSync(path.join(bin, 'kubectl-maint'), 0o755);
    copyFileSync(
      path.resolve(import.meta.dirname, '../../../bin/kubectl_complete-maint'),
      path.join(bin, 'kubectl_complete-maint'),
    );
  });

  it('kubectl_complete-maint ARGS… PARTIAL answers as kubectl expects (kubectl passes no __complete)', () => {
    const r = spawnSync(path.join(bin, 'kubectl_complete-maint'), ['plan', '-o', 'y'], { encoding: 'utf8' });
    expect([r.status, r.stdout, r.stderr]).toEqual([0, 'yaml\n:4\n', '']);
  });

  it('__complete with no cluster offers no node and prints nothing on stderr', async () => {
    const r = await runCli(['__complete', 'drain', 'k8s-']);
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, ':4', '']);
  });

  it('the bash script completes subcommands, flags and values through kubectl-maint __complete', () => {
    const script = path.join(bin, 'completion.bash');
    writeFileSync(script, completionScript('bash'));
    const words = (line: string) => {
      const r = spawnSync(
        'bash',
        [
          '--norc',
          '--noprofile',
          '-c',
          `source "${script}"; COMP_WORDS=(${line}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); ` +
            '_kubectl_maint_complete; printf "%s\\n" "${COMPREPLY[@]}"',
        ],
        { encoding: 'utf8', env: { PATH: `${bin}:${process.env.PATH}` } },
      );
      expect(r.stderr).toBe('');
      return r.stdout.trim().split('\n');
    };
    expect(words('kubectl-maint dr')).toEqual(['drain']);
    expect(words("kubectl-maint plan -o ''")).toEqual(['text', 'json', 'yaml']);
    expect(words('kubectl-maint drain --ignore-d')).toEqual(['--ignore-daemonsets']);
  });

  it.each(['bash', 'zsh', 'fish', 'powershell'] as const)(
    'completion %s prints a script that asks __complete',
    async (shell) => {
      const r = await runCli(['completion', shell]);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain('__complete');
      expect(r.stdout).toContain('kubectl-maint');
    },
  );

  it('completion with no shell, or another one, is a usage error', async () => {
    expect((await runCli(['completion', 'tcsh'])).exitCode).toBe(2);
    expect((await runCli(['completion'])).exitCode).toBe(2);
  });
});
