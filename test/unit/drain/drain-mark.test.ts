import { spawnSync } from 'node:child_process';
import type { V1Node } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { DRAIN_MARK, DrainMarked, DrainMarks, liveDrainMark } from '../../../src/drain/drain-mark.js';
import type { RunApi } from '../../../src/kube/run-api.js';
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

/**
 * A RunApi over nodes n1…n3 whose guarded patches wait for the test; `taken` holds a node marked by
 * another drain. Every call is recorded in order.
 */
function markApi(taken?: string) {
  const calls: string[] = [];
  const patches: Array<() => void> = [];
  const marks = new Map<string, string>(
    taken ? [[taken, marked('other@host pid 7', 30_000).metadata!.annotations![DRAIN_MARK]!]] : [],
  );
  const nodeOf = (name: string): V1Node => {
    const mark = marks.get(name);
    return { metadata: { name, resourceVersion: '1', annotations: mark ? { [DRAIN_MARK]: mark } : {} } };
  };
  const api = {
    canI: () => {
      calls.push('can-i patch nodes');
      return Promise.resolve(true);
    },
    readNode: (name: string) => {
      calls.push(`get ${name}`);
      return Promise.resolve(nodeOf(name));
    },
    annotateNodeIfUnchanged: (name: string, annotations: Record<string, string | null>) => {
      const mark = annotations[DRAIN_MARK];
      calls.push(`${mark ? 'mark' : 'unmark'} ${name}`);
      return new Promise((resolve) =>
        patches.push(() => {
          if (mark) marks.set(name, mark);
          else marks.delete(name);
          resolve(nodeOf(name));
        }),
      );
    },
  } as unknown as RunApi;
  /** Answers every patch sent so far. */
  const answer = () => patches.splice(0).forEach((resolve) => resolve());
  return { api, calls, answer };
}

const flush = () => new Promise((r) => setImmediate(r));

describe('DrainMarks take', () => {
  it("Marks every node at once; a run's drain does not ask again whether it may patch nodes", async () => {
    const { api, calls, answer } = markApi();
    const marks = new DrainMarks(api, 'me@host pid 1', () => NOW, 'r-1');
    const taking = marks.take(['n1', 'n2', 'n3']);
    await flush();
    expect(calls).toEqual(['get n1', 'get n2', 'get n3', 'mark n1', 'mark n2', 'mark n3']);
    answer();
    await taking;
    const releasing = marks.release();
    await flush();
    answer();
    await releasing;
  });

  it('Asks a plain drain whether it may patch nodes first', async () => {
    const { api, calls, answer } = markApi();
    const taking = new DrainMarks(api, 'me@host pid 1', () => NOW).take(['n1']);
    await flush();
    answer();
    await taking;
    expect(calls).toEqual(['can-i patch nodes', 'get n1', 'mark n1']);
  });

  it('Refuses a node another drain marks once the other writes have ended, and removes the marks taken', async () => {
    const { api, calls, answer } = markApi('n2');
    let refused: unknown;
    const taking = new DrainMarks(api, 'me@host pid 1', () => NOW, 'r-1').take(['n1', 'n2', 'n3']).catch((err) => {
      refused = err;
    });
    await flush();
    expect(refused).toBeUndefined();
    answer();
    await flush();
    answer();
    await taking;
    expect(refused).toBeInstanceOf(DrainMarked);
    expect((refused as Error).message).toMatch(/^node "n2" is being drained by other@host pid 7/);
    expect(calls.filter((c) => c.startsWith('unmark')).toSorted()).toEqual(['unmark n1', 'unmark n3']);
  });
});
