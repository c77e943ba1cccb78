import { writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CliError, ExitCode } from '../../../src/cli/exit-codes.js';
import { errorText, reportFailure } from '../../../src/cli/report-error.js';
import { kubectlStyleUsageError } from '../../../src/cli/usage-errors.js';
import { KubeError } from '../../../src/kube/errors.js';
import { runCli, scratchDir } from './cli-from-source.js';

// kubectl's (Go's) style for the line after `error: `: it starts lowercase (an acronym or a kind such as
// RBAC or DaemonSet keeps its case), ends without a period, and is one line.
function expectKubectlStyle(line: string): void {
  expect(line).toMatch(/^error: \S/);
  const text = line.slice('error: '.length);
  expect(text, line).not.toMatch(/^[A-Z][a-z]*(?:[\s:,;]|\.?$)/);
  expect(text, line).not.toMatch(/(?<!\.)\.$/);
}

/** What reportFailure writes for an error, and the exit code it returns. */
function reported(err: unknown): { stderr: string; exitCode: number } {
  const writes: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    writes.push(String(chunk));
    return true;
  });
  try {
    const exitCode = reportFailure(err);
    return { stderr: writes.join(''), exitCode };
  } finally {
    spy.mockRestore();
  }
}

describe('errorText', () => {
  it('lowers a first word that is a plain capitalised word, and drops a closing period', () => {
    expect(errorText('Unable to connect to the server: EOF')).toBe('unable to connect to the server: EOF');
    expect(errorText('The connection to the server h:1 was refused - did you specify the right host or port?')).toBe(
      'the connection to the server h:1 was refused - did you specify the right host or port?',
    );
    expect(errorText('Something failed.')).toBe('something failed');
    expect(errorText('Nope')).toBe('nope');
  });

  it('keeps acronyms, kinds, names, an ellipsis and the lines after the first', () => {
    for (const kept of [
      'RBAC forbids list nodes',
      'DaemonSet demo/x has no pods',
      'ENOENT: no such file or directory',
      'Node.js refuses port 1',
      'waiting...',
      'x',
    ])
      expect(errorText(kept)).toBe(kept);
    expect(errorText('Blocked.\n  --surge=demo/solo would finish it.')).toBe(
      'blocked\n  --surge=demo/solo would finish it.',
    );
  });
});

describe('reportFailure', () => {
  it('says every kind of failure in one line of kubectl style, with its exit code', () => {
    const cases: Array<[unknown, number]> = [
      [new CliError('Run refused.', ExitCode.Blocked), ExitCode.Blocked],
      [
        new KubeError(
          'unreachable',
          'The connection to the server h:6443 was refused - did you specify the right host or port?',
        ),
        1,
      ],
      [new KubeError('timeout', 'Unable to connect to the server: timed out after 1s (--request-timeout)'), 1],
      [new TypeError('Cannot read properties of undefined (reading "spec")\n    at f (x.js:1:1)'), 1],
      ['A thrown string.', 1],
    ];
    for (const [err, code] of cases) {
      const { stderr, exitCode } = reported(err);
      expect(exitCode).toBe(code);
      expect(stderr.endsWith('\n')).toBe(true);
      const lines = stderr.slice(0, -1).split('\n');
      expect(lines, stderr).toHaveLength(1);
      expectKubectlStyle(lines[0]!);
    }
  });

  it('a wrapped error says its cause after what it was doing; a KubeError says it in its own words only', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' });
    const reading = new Error('reading nodes', { cause: new Error('listing', { cause: refused }) });
    expect(reported(reading).stderr).toBe('error: reading nodes: listing: connect ECONNREFUSED 127.0.0.1:6443\n');
    // A cause the message already says is not said twice.
    const said = new Error('reading nodes: connect ECONNREFUSED 127.0.0.1:6443', { cause: refused });
    expect(reported(said).stderr).toBe('error: reading nodes: connect ECONNREFUSED 127.0.0.1:6443\n');
    const kube = new KubeError('unreachable', 'the watch of pods is down', { cause: refused });
    expect(reported(kube).stderr).toBe('error: the watch of pods is down\n');
  });

  it("commander's usage errors come out in the same style", () => {
    for (const message of [
      "error: command-argument value 'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish, powershell.",
      "error: option '--dry-run [strategy]' argument 'x' is invalid. Invalid dry-run value (x).",
      "error: unknown option '--x'",
      'error: Missing required argument.',
    ])
      expectKubectlStyle(kubectlStyleUsageError(message, 'kubectl maint completion').split('\n')[0]!);
    expect(
      kubectlStyleUsageError(
        "error: command-argument value 'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish, powershell.",
        'kubectl maint completion',
      ),
    ).toBe(
      'error: invalid argument "tcsh" for "kubectl maint completion": expected one of bash, zsh, fish, powershell\n',
    );
  });
});

describe('the CLI says its errors in kubectl style', () => {
  let server: net.Server;
  let kubeconfig: string;
  beforeAll(async () => {
    // A port nothing listens on: every request is refused.
    server = net.createServer();
    const port = await new Promise<number>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
    );
    await new Promise<void>((resolve) => server.close(() => resolve()));
    kubeconfig = path.join(scratchDir(), 'kubeconfig.yaml');
    writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        `clusters: [{name: c, cluster: {server: 'https://127.0.0.1:${port}'}}]`,
        'users: [{name: u, user: {token: t}}]',
        'contexts: [{name: c, context: {cluster: c, user: u}}]',
        'current-context: c',
        '',
      ].join('\n'),
    );
  });
  afterAll(() => undefined);

  it.each([
    [['plan', 'k8s-node-1'], 1],
    [['cordon', 'k8s-node-1'], 1],
    [['plan', 'k8s-node-1', '--context', 'elsewhere'], 1],
    [['plan', 'k8s-node-1', '--snapshot', 'no-such-file.json'], 1],
    [['plan'], 2],
    [['completion', 'tcsh'], 2],
    [['rbac', 'foo'], 2],
    [['drain', 'k8s-node-1', '--force=maybe'], 2],
  ])('kubectl maint %j', async (args, code) => {
    const r = await runCli([...args, '--kubeconfig', kubeconfig]);
    expect(r.exitCode, r.stderr).toBe(code);
    const [first, ...rest] = r.stderr.split('\n').filter((l) => l.trim() !== '');
    expectKubectlStyle(first!);
    // A usage error may point at the help, nothing else follows.
    expect(
      rest.filter((l) => !/^See '.*--help' for usage\.$/.test(l)),
      r.stderr,
    ).toEqual([]);
  });
});
