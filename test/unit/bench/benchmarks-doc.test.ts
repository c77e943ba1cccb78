import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/benchmarks.md gives the current figure of every benchmark `npm run bench` runs, and how to
 * reproduce it (`--scenario NAME`): a scenario added to scripts/bench/run.ts without its figure, or a
 * documented one that no longer exists, fails here.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const runner = readFileSync(path.join(root, 'scripts/bench/run.ts'), 'utf8');
const doc = readFileSync(path.join(root, 'docs/benchmarks.md'), 'utf8');

const matches = (text: string, pattern: RegExp) => new Set([...text.matchAll(pattern)].map((m) => m[1]!));

/** The scenarios the runner knows: its drain scenarios by name, and the others it selects by name. */
function scenariosOfRunner(source: string): Set<string> {
  return new Set([
    ...matches(source, /\{ name: '([\w-]+)'/g),
    ...matches(source, /wanted\('([\w-]+)'\)/g),
    ...matches(source, /scenario\?\.includes\('([\w-]+)'\)/g),
  ]);
}

describe('docs/benchmarks.md', () => {
  it('reads the runner’s scenarios', () => {
    expect([...scenariosOfRunner(runner)]).toEqual(expect.arrayContaining(['hello', 'startup', 'run']));
  });

  it('documents every scenario of npm run bench, and no other', () => {
    const documented = matches(doc, /--scenario ([a-z][\w-]*)/g);
    expect([...documented].sort()).toEqual([...scenariosOfRunner(runner)].sort());
  });

  it('gives a figure under each scenario’s section', () => {
    const sections = doc.split(/^## /m).slice(1);
    for (const scenario of scenariosOfRunner(runner)) {
      const section = sections.find((s) => s.includes(`--scenario ${scenario}`));
      expect(section, scenario).toMatch(/^\|.*\d.*\|$/m);
    }
  });
});
