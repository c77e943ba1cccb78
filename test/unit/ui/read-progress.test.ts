import { describe, expect, it } from 'vitest';
import type { ListProgress } from '../../../src/snapshot/load-live.js';
import { cacheListBrokeOff } from '../../../src/kube/informer.js';
import { fileProgressText, listProgressText, startReadProgress } from '../../../src/ui/read-progress.js';
import { FakeStdout } from './fake-terminal.js';

const progress = (resource: string, read: number, total: number | null, done = false): ListProgress => ({
  kind: 'Pod',
  resource,
  read,
  total,
  done,
});

describe('listProgressText', () => {
  it('names the kinds being read, the largest first, with the count the server announced', () => {
    const reads = new Map([
      ['Node', progress('nodes', 500, 500, true)],
      ['Pod', progress('pods', 12400, 15000)],
      ['ReplicaSet', progress('replicasets', 1000, null)],
    ]);
    expect(listProgressText(reads)).toBe(
      'Reading the cluster: pods 12,400 / 15,000 · replicasets 1,000 (1 of 3 kinds read)',
    );
  });

  it('says when the API server throttles a read and when it is sent again', () => {
    const retry = { seconds: 3, reason: 'throttled by the API server' };
    const reads = new Map([['Pod', { ...progress('pods', 0, null), retry }]]);
    expect(listProgressText(reads)).toBe(
      'Reading the cluster: pods 0 (throttled by the API server: again in 3s) (0 of 1 kinds read)',
    );
  });

  it('says when a read broke off and when it is tried again', () => {
    const retry = { seconds: 2, reason: 'broke off as the connection closed' };
    const reads = new Map([['Pod', { ...progress('pods', 12000, null), retry }]]);
    expect(listProgressText(reads)).toBe(
      'Reading the cluster: pods 12,000 (broke off as the connection closed: again in 2s) (0 of 1 kinds read)',
    );
  });

  it('says when a read is made again at once, another way', () => {
    const retry = { seconds: 0, reason: cacheListBrokeOff('the connection closed') };
    const reads = new Map([['Pod', { ...progress('pods', 0, null), retry }]]);
    expect(listProgressText(reads)).toBe(
      'Reading the cluster: pods 0 (the list from the watch cache broke off as the connection closed: read again consistently) (0 of 1 kinds read)',
    );
  });
});

describe('fileProgressText', () => {
  it('says how much of a large snapshot is read, then that it is parsed', () => {
    const base = { path: '/tmp/x/big.json', totalBytes: 1.6 * 1024 ** 3 };
    expect(fileProgressText({ ...base, bytesRead: 120 * 1024 ** 2, phase: 'reading' })).toBe(
      'Reading snapshot big.json: 120 MB / 1.6 GB',
    );
    expect(fileProgressText({ ...base, bytesRead: base.totalBytes, phase: 'parsing' })).toBe(
      'Parsing snapshot big.json (1.6 GB)',
    );
  });

  it("names a file without the control sequences in its name (a title's OSC, a screen clear)", () => {
    const path = '/tmp/x/big\u001b]0;owned\u0007\u001b[2J.json';
    expect(fileProgressText({ path, totalBytes: 1.6 * 1024 ** 3, bytesRead: 0, phase: 'reading' })).toBe(
      'Reading snapshot big.json: 0 kB / 1.6 GB',
    );
  });
});

describe('startReadProgress', () => {
  it('draws the counts on the terminal as pages arrive, the parse step, and clears its line when stopped', () => {
    const stream = new FakeStdout(true);
    const reporter = startReadProgress({ stream: stream.asStream(), colors: false, enabled: true });
    reporter.onList(progress('pods', 500, 15000));
    reporter.onList(progress('pods', 12400, 15000));
    reporter.step('Planning');
    reporter.stop();
    expect(stream.text()).toContain('Reading the cluster: pods 500 / 15,000 (0 of 1 kinds read)');
    expect(stream.text()).toContain('Reading the cluster: pods 12,400 / 15,000');
    expect(stream.text()).toContain('Planning');
  });

  it('shows nothing for a small snapshot file', () => {
    const stream = new FakeStdout(true);
    const reporter = startReadProgress({ stream: stream.asStream(), colors: false, enabled: true });
    reporter.onFile({ path: 'small.json', bytesRead: 0, totalBytes: 1024, phase: 'reading' });
    reporter.stop();
    expect(stream.text()).toBe('');
  });

  it('draws nothing when stderr is not a terminal', () => {
    const stream = new FakeStdout(false);
    const reporter = startReadProgress({ stream: stream.asStream(), colors: false });
    reporter.onList(progress('pods', 500, 15000));
    reporter.stop();
    expect(stream.writes).toEqual([]);
  });
});
