import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type DocFigures,
  fenced,
  type Machine,
  missingMarkers,
  replaceMarked,
  writeFigures,
} from '../../../scripts/bench/docs-writer.js';

/**
 * `npm run bench -- --write-docs` rewrites docs/benchmarks.md between each benchmark's markers: the rest
 * of the doc must come out as it went in, a second run must replace the first's block rather than add to
 * it, and every block the runner writes must have its markers in the doc (or a long run would end in an
 * error instead of the doc).
 */
const root = path.resolve(import.meta.dirname, '../../..');
const runner = readFileSync(path.join(root, 'scripts/bench/run.ts'), 'utf8');
const doc = readFileSync(path.join(root, 'docs/benchmarks.md'), 'utf8');

const machine: Machine = {
  cpu: 'AMD EPYC',
  cores: 2,
  memoryGiB: 24,
  node: 'v26.10.0',
  kubernetes: 'v1.37.2',
  load: [0.5, 2.25],
};
const eta = (text: string): DocFigures => ({ name: 'eta', command: 'npm run bench -- --scenario eta', body: text });

describe('the benchmarks doc writer', () => {
  const sample = ['# B', '', 'before', '<!-- bench:x -->', 'old', 'figures', '<!-- /bench:x -->', 'after', ''].join(
    '\n',
  );

  it('replaces only the block between the markers, keeping them', () => {
    expect(replaceMarked(sample, 'x', 'new\n')).toBe(
      ['# B', '', 'before', '<!-- bench:x -->', 'new', '<!-- /bench:x -->', 'after', ''].join('\n'),
    );
  });

  it('gives the same doc when written twice with the same figures', () => {
    const once = replaceMarked(sample, 'x', 'new');
    expect(replaceMarked(once, 'x', 'new')).toBe(once);
    expect(replaceMarked(replaceMarked(once, 'x', 'newer'), 'x', 'new')).toBe(once);
  });

  it('refuses a block without its markers, or with them twice', () => {
    expect(() => replaceMarked(sample, 'y', 'z')).toThrow('<!-- bench:y --> and <!-- /bench:y -->');
    expect(missingMarkers(`${sample}<!-- bench:x -->\n`, ['x'])).toEqual(['x']);
    expect(missingMarkers(sample, ['x', 'y'])).toEqual(['y']);
  });

  it('finds in the doc the markers of every block the runner writes', () => {
    const names = new Set([...runner.matchAll(/(?:keep\(|written\.push\(\{\s*name: )'([\w-]+)'/g)].map((m) => m[1]!));
    const drain = /const DRAIN_BLOCK = '([\w-]+)'/.exec(runner)?.[1];
    expect(drain).toBeDefined();
    names.add(drain!);
    expect([...names].sort()).toEqual(
      [
        'audit-live',
        'audit-scale',
        'drain',
        'eta',
        'fleet-run',
        'plan-scale',
        'pool-plan-scale',
        'run',
        'startup',
        'surge',
      ].sort(),
    );
    // live-read writes one block per LIVE_NODES: the sizes the doc shows.
    expect(runner).toContain('`live-read-${process.env.LIVE_NODES}`');
    expect(missingMarkers(doc, [...names, 'live-read-1000', 'live-read-1500'])).toEqual([]);
  });

  it('writes a benchmark into the doc with its command, the machine and the load, leaving the others', () => {
    const printed = 'eta: error of the estimate\n  2 s   +1.6 %  worst +7.8 %';
    const out = writeFigures(doc, [eta(fenced(printed))], machine);
    const block = out.slice(out.indexOf('<!-- bench:eta -->'), out.indexOf('<!-- /bench:eta -->'));
    expect(block).toContain(
      '| `npm run bench -- --scenario eta` | 2 cores (AMD EPYC), 24 GiB, Node v26.10.0, the lab at Kubernetes v1.37.2 | 0.5 → 2.3 |',
    );
    expect(block).toContain(`\`\`\`text\n${printed}\n\`\`\``);
    // Everything outside the eta block is as it was.
    const outside = (text: string) =>
      text.slice(0, text.indexOf('<!-- bench:eta -->')) + text.slice(text.indexOf('<!-- /bench:eta -->'));
    expect(outside(out)).toBe(outside(doc));
    expect(writeFigures(out, [eta(fenced(printed))], machine)).toBe(out);
  });
});
