import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { addDrainFlags, drainOptionsFrom, parseTaint, type DrainFlagValues } from '../../../src/cli/drain-flags.js';
import { parseCount, parseDurationMs, parseDurationSeconds } from '../../../src/cli/flag-values.js';
import { kubeConfigFlags, type KubeFlagValues } from '../../../src/cli/kube-flag-values.js';
import { addKubeFlags } from '../../../src/cli/kube-flags.js';

describe('parseDurationMs', () => {
  it.each([
    { text: '50s', ms: 50_000 },
    { text: '2m', ms: 120_000 },
    { text: '1h30m', ms: 5_400_000 },
    { text: '500ms', ms: 500 },
    { text: '1.5s', ms: 1500 },
    { text: '30', ms: 30_000 },
    { text: '0', ms: 0 },
  ])('"$text" is $ms ms (Go duration syntax, or plain seconds)', ({ text, ms }) => {
    expect(parseDurationMs(text)).toBe(ms);
  });

  it.each(['', 'soon', '5 minutes', '-3s', '1d', '10s5'])('"%s" is refused', (text) => {
    expect(() => parseDurationMs(text)).toThrow('expected a duration such as 50s, 2m, 1h30m or a number of seconds.');
  });

  it('whole seconds round up, so a short duration never becomes 0 (off)', () => {
    expect([parseDurationSeconds('500ms'), parseDurationSeconds('2m'), parseDurationSeconds('0')]).toEqual([1, 120, 0]);
  });
});

describe('parseCount', () => {
  it('takes whole numbers and refuses the rest', () => {
    expect(parseCount('500')).toBe(500);
    expect(() => parseCount('-1')).toThrow('expected a whole number');
    expect(() => parseCount('2.5')).toThrow('expected a whole number');
  });
});

describe('parseTaint', () => {
  it.each([
    { text: 'maintenance', taint: { key: 'maintenance' } },
    { text: 'example.com/maint=now', taint: { key: 'example.com/maint', value: 'now' } },
    { text: 'maint=now:NoExecute', taint: { key: 'maint', value: 'now' } },
    { text: 'maint=', taint: { key: 'maint', value: '' } },
  ])('"$text" is KEY[=VALUE][:NoExecute]', ({ text, taint }) => {
    expect(parseTaint(text)).toEqual(taint);
  });

  it.each([
    { text: 'maint:NoSchedule', message: 'only a NoExecute taint evicts pods (got effect "NoSchedule").' },
    { text: '=x', message: '"" is not a valid taint key.' },
    { text: 'bad key', message: '"bad key" is not a valid taint key.' },
    { text: 'k=not valid', message: '"not valid" is not a valid taint value.' },
  ])('"$text" is refused: $message', ({ text, message }) => {
    expect(() => parseTaint(text)).toThrow(message);
  });
});

/** Parses argv with the plan's flag set, the way the command does (commander, exitOverride). */
function parse(argv: string[]): DrainFlagValues & KubeFlagValues {
  const command = new Command('plan').exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
  addDrainFlags(command);
  addKubeFlags(command);
  command.parse(argv, { from: 'user' });
  return command.opts();
}

describe('the plan command flags', () => {
  it('defaults: no drain overrides, the default maintenance taint, a 50s grace period, pages of 500, no timeout', () => {
    const values = parse([]);
    expect(drainOptionsFrom(values)).toEqual({
      ignoreDaemonSets: false,
      deleteEmptyDirData: false,
      force: false,
      podSelector: undefined,
      disableEviction: false,
      skipWaitForDeleteTimeoutSeconds: 0,
      taint: { key: 'kubectl-maint/maintenance' },
      nodeMonitorGracePeriodSeconds: 50,
    });
    expect(kubeConfigFlags(values)).toEqual({
      kubeconfig: undefined,
      context: undefined,
      cluster: undefined,
      user: undefined,
      requestTimeoutMs: 0,
      insecureSkipTlsVerify: false,
    });
    // Unset: pages of DEFAULT_CHUNK_SIZE, or one request where the server answers from its watch cache.
    expect(values.chunkSize).toBeUndefined();
  });

  it("kubectl drain's flags map onto PlanOptions", () => {
    const values = parse([
      '--ignore-daemonsets',
      '--delete-emptydir-data',
      '--force',
      '--pod-selector',
      'app=web,tier!=cache',
      '--disable-eviction',
      '--skip-wait-for-delete-timeout',
      '30',
      '--taint',
      'maintenance=now',
      '--node-monitor-grace-period',
      '2m',
    ]);
    expect(drainOptionsFrom(values)).toMatchObject({
      ignoreDaemonSets: true,
      deleteEmptyDirData: true,
      force: true,
      podSelector: 'app=web,tier!=cache',
      disableEviction: true,
      skipWaitForDeleteTimeoutSeconds: 30,
      taint: { key: 'maintenance', value: 'now' },
      nodeMonitorGracePeriodSeconds: 120,
    });
  });

  it('the connection flags map onto the kubeconfig loader', () => {
    const values = parse([
      '--kubeconfig=/k',
      '--context=lab',
      '--cluster=c',
      '--user=u',
      '--request-timeout=5s',
      '--insecure-skip-tls-verify',
      '--chunk-size=0',
    ]);
    expect(kubeConfigFlags(values)).toEqual({
      kubeconfig: '/k',
      context: 'lab',
      cluster: 'c',
      user: 'u',
      requestTimeoutMs: 5000,
      insecureSkipTlsVerify: true,
    });
    expect(values.chunkSize).toBe(0);
  });

  it.each([
    { argv: ['--request-timeout', 'soon'], flag: '--request-timeout' },
    { argv: ['--node-monitor-grace-period', 'x'], flag: '--node-monitor-grace-period' },
    { argv: ['--pod-selector', 'a in (b'], flag: '--pod-selector' },
    { argv: ['--taint', 'k:NoSchedule'], flag: '--taint' },
    { argv: ['--chunk-size', '-5'], flag: '--chunk-size' },
  ])('a bad value for $flag is a usage error naming the flag', ({ argv, flag }) => {
    let error: unknown;
    try {
      parse(argv);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(CommanderError);
    expect((error as CommanderError).code).toBe('commander.invalidArgument');
    expect((error as CommanderError).message).toContain(flag);
  });
});
