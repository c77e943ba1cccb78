import { spawnSync } from 'node:child_process';
import type { V1Node } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { DRAIN_MARK, liveDrainMark } from '../../../src/drain/drain-mark.js';
import { holderGone, processHolder } from '../../../src/process-holder.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const here = processHolder().replace(/ pid \d+$/, '');

/** The pid of a process that has ended (its exit waited for, so the pid no longer exists unless reused). */
function endedPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

function marked(holder: string, expiresInMs: number): V1Node {
  const mark = { holder, expires: new Date(NOW + expiresInMs).toISOString() };
  return { metadata: { name: 'n1', annotations: { [DRAIN_MARK]: JSON.stringify(mark) } } };
}

describe('holderGone', () => {
  it('knows a process of this user on this host has ended', () => {
    expect(holderGone(`${here} pid ${endedPid()}`)).toBe(true);
  });

  it('does not call a running process, this one, another host or another form gone', () => {
    expect(holderGone(processHolder())).toBe(false);
    expect(holderGone(`${here} pid ${process.ppid}`)).toBe(false);
    expect(holderGone(`someone@elsewhere pid ${endedPid()}`)).toBe(false);
    expect(holderGone('a controller')).toBe(false);
  });
});

describe('liveDrainMark', () => {
  const alive = () => false;
  it('is the mark until it expires', () => {
    expect(liveDrainMark(marked('a@b pid 1', 1000), NOW, alive)).toMatchObject({ holder: 'a@b pid 1' });
    expect(liveDrainMark(marked('a@b pid 1', 0), NOW, alive)).toBeNull();
    expect(liveDrainMark({ metadata: { name: 'n1' } }, NOW, alive)).toBeNull();
  });

  it('is no mark once its process is known to have ended, however long it had left', () => {
    expect(liveDrainMark(marked('a@b pid 1', 30_000), NOW, (h) => h === 'a@b pid 1')).toBeNull();
    expect(liveDrainMark(marked(`${here} pid ${endedPid()}`, 30_000), NOW)).toBeNull();
  });

  it('ignores an annotation that is not a mark', () => {
    const node: V1Node = { metadata: { name: 'n1', annotations: { [DRAIN_MARK]: 'not json' } } };
    expect(liveDrainMark(node, NOW, alive)).toBeNull();
  });
});
