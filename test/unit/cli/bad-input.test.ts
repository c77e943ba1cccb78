import { writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseDurationMs, parseWholeSeconds } from '../../../src/cli/flag-values.js';
import { nodeNameProblem, nodeSelection } from '../../../src/cli/node-selection.js';
import { MAX_TIMER_MS, setLongTimeout, timeoutSignal } from '../../../src/timers.js';
import { runCli, scratchDir } from './cli-from-source.js';

// Numbers, durations and node names are checked before anything is sent. The
// "cluster" here is a socket that counts connections: a refused input must not open one.
let server: net.Server;
let connections = 0;
let kubeconfig: string;

beforeAll(async () => {
  server = net.createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
  );
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
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function refused(args: string[]): Promise<{ exitCode: number | undefined; stderr: string }> {
  const before = connections;
  const r = await runCli([...args, '--kubeconfig', kubeconfig]);
  expect(connections - before, 'connections to the cluster').toBe(0);
  return r;
}

describe('durations and numbers', () => {
  it('a duration above 2^31-1 ms (Node timer limit) is accepted as kubectl accepts it', () => {
    expect(parseDurationMs('600h')).toBe(2_160_000_000);
  });

  it("a duration above Go's longest (2562047h) is refused, as kubectl refuses it", () => {
    expect(parseDurationMs('2562047h')).toBe(2562047 * 3_600_000);
    expect(() => parseDurationMs('3000000h')).toThrow('duration out of range (at most 2562047h, as in kubectl).');
  });

  it('a whole number beyond what a JavaScript number holds exactly is refused', () => {
    expect(parseWholeSeconds('-1')).toBe(-1);
    expect(parseWholeSeconds(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => parseWholeSeconds('99999999999999999999')).toThrow('value out of range');
  });

  it('drain --grace-period 99999999999999999999: one line, exit 2, nothing sent (no cordon)', async () => {
    const r = await refused(['drain', 'k8s-node-1', '--grace-period', '99999999999999999999']);
    expect(r.stderr.split('\n')[0]).toBe(
      `error: invalid argument "99999999999999999999" for "--grace-period" flag: value out of range (at most ${Number.MAX_SAFE_INTEGER} in absolute value)`,
    );
    expect(r.exitCode).toBe(2);
  });

  it('drain --timeout 3000000h: one line, exit 2, nothing sent', async () => {
    const r = await refused(['drain', 'k8s-node-1', '--timeout', '3000000h']);
    expect(r.stderr.split('\n')[0]).toMatch(
      /^error: invalid argument "3000000h" for "--timeout" flag: duration out of range/,
    );
    expect(r.exitCode).toBe(2);
  });
});

describe('timers for long durations', () => {
  it("setLongTimeout waits the whole delay past Node's 2^31-1 ms limit, with no overflow warning", () => {
    vi.useFakeTimers();
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const fired = vi.fn();
      setLongTimeout(fired, 600 * 3_600_000);
      vi.advanceTimersByTime(MAX_TIMER_MS);
      expect(fired).not.toHaveBeenCalled();
      vi.advanceTimersByTime(600 * 3_600_000 - MAX_TIMER_MS - 1);
      expect(fired).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(fired).toHaveBeenCalledOnce();
    } finally {
      process.off('warning', onWarning);
      vi.useRealTimers();
    }
    expect(warnings).toEqual([]);
  });

  it('a cleared long timeout never fires', () => {
    vi.useFakeTimers();
    try {
      const fired = vi.fn();
      setLongTimeout(fired, 3 * MAX_TIMER_MS).clear();
      vi.advanceTimersByTime(4 * MAX_TIMER_MS);
      expect(fired).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('timeoutSignal(600h) (--request-timeout 600h) is not aborted at once, and aborts with TimeoutError at the end', () => {
    vi.useFakeTimers();
    try {
      const signal = timeoutSignal(600 * 3_600_000);
      vi.advanceTimersByTime(1000);
      expect(signal.aborted).toBe(false);
      vi.advanceTimersByTime(600 * 3_600_000);
      expect(signal.aborted).toBe(true);
      expect((signal.reason as DOMException).name).toBe('TimeoutError');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('node names are Kubernetes names (RFC 1123 subdomains)', () => {
  it.each(['k8s-node-1', 'ip-10-0-0-1.ec2.internal', 'a'])('%s is a valid node name', (name) => {
    expect(nodeNameProblem(name)).toBeUndefined();
  });

  it.each(['k8s-node-1/status', '..', '.', 'Node-1', '-a', 'a_b', 'a'.repeat(254), ''])('%j is not', (name) => {
    expect(nodeNameProblem(name)).toBeDefined();
    expect(() => nodeSelection([name], undefined)).toThrow(`invalid node name "${name}"`);
  });

  it.each([['cordon'], ['uncordon'], ['drain'], ['plan']])(
    '%s k8s-node-1/status and ..: one line, exit 1, nothing sent',
    async (command) => {
      for (const name of ['k8s-node-1/status', '..']) {
        const r = await refused([command, name]);
        expect(r.stderr).toBe(
          `error: invalid node name "${name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character`,
        );
        expect(r.exitCode).toBe(1);
      }
    },
  );
});

describe("the drain's clock", () => {
  it('sleeps a --timeout of 600h for 600h, not 1 ms', async () => {
    const { systemClock } = await import('../../../src/drain/clock.js');
    vi.useFakeTimers();
    try {
      let done = false;
      void systemClock.sleep(600 * 3_600_000).then(() => (done = true));
      await vi.advanceTimersByTimeAsync(MAX_TIMER_MS + 1);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(600 * 3_600_000);
      expect(done).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
