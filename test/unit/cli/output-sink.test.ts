import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ask } from '../../../src/cli/confirm.js';
import { writeDocument, writeErr, writeOut } from '../../../src/cli/output.js';
import { indexAndNodes } from '../../../src/cli/plan-input.js';
import { makeNode, makeSnapshot } from '../builders.js';

// The cluster's words with a screen clear, a window title and a bell in them.
const HOSTILE = 'webhook said \u001b[2Jno\u001b]0;owned\u0007 way\u0007';

function captured(stream: NodeJS.WriteStream): () => string {
  const spy = vi.spyOn(stream, 'write').mockImplementation(() => true);
  return () => spy.mock.calls.map(([chunk]) => String(chunk)).join('');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the output sink', () => {
  it('writes text for a person without control sequences, on stdout and stderr', () => {
    const out = captured(process.stdout);
    const err = captured(process.stderr);
    writeOut(`${HOSTILE}\n\tnext\n`);
    writeErr(`note: ${HOSTILE}\n`);
    expect(out()).toBe('webhook said no way\n\tnext\n');
    expect(err()).toBe('note: webhook said no way\n');
  });

  it('writes a serialised document as it is', () => {
    const out = captured(process.stdout);
    writeDocument('{"message":"a\\u001b[2Jb"}\n');
    expect(out()).toBe('{"message":"a\\u001b[2Jb"}\n');
  });

  it("says a snapshot's warnings without the control sequences they carry", () => {
    const err = captured(process.stderr);
    const snapshot = { ...makeSnapshot({ nodes: [makeNode().name('n1').obj()] }), warnings: [HOSTILE] };
    indexAndNodes(snapshot, { names: ['n1'] });
    expect(err()).toBe('warning: webhook said no way\n');
  });

  it('asks a question without the control sequences the cluster put in it', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    const answer = ask(`evict pods/"${HOSTILE}"? [y/N] `, { input, output });
    input.write('y\n');
    expect(await answer).toBe('yes');
    expect(shown).toBe('evict pods/"webhook said no way"? [y/N] ');
  });
});
