import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The tree speaks of what is true now: no issue or session numbers, no "tried and left" or "before/now"
 * stories, no dated run labels in code, tests, scripts or docs. The history is in `git log`. A number
 * after `owner/repo#` (an upstream issue or pull request) is a citation a reader can follow, and stays.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const SCANNED = ['src', 'test', 'scripts', 'docs', 'bin', '.ci', 'README.md', 'eslint.config.js', 'vitest.config.ts'];
/** Data, not prose: generated fixtures, the lab's Go wrapper modules. */
const SKIPPED = ['test/fixtures', 'scripts/lab/go'];
const TEXT = /\.(ts|tsx|js|mjs|sh|md|yaml|yml|json|steps)$|^run$/;

/** An abbreviated or full commit hash: hex with a digit in it, so that a word like `defaced` is not one. */
const HASH = String.raw`(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b`;
/** A result or a build tied to a commit: "commit 3ff54df", "against 01e8668", "the plan of b81ec8e". */
const COMMIT_NARRATIVE = new RegExp(
  String.raw`\b(commit|build|against|(plan|build|run) of|judged by) (the (build|plan) of )?(commit )?${HASH}`,
  'i',
);

const HISTORY_LABELS: ReadonlyArray<readonly [what: string, pattern: RegExp]> = [
  ['an issue number', /\bissues?\s*#?\d+/i],
  ["the issue's wording", /\bthe issue's\b/i],
  ['a bare #number', /(?<![\w./-])#\d{1,5}\b/],
  ['a session number', /\bsessions?\s*#?\d+\b/i],
  ['a before/now story', /\bBefore\s*\/\s*(Now|After)\b/],
  ['a tried-and-left story', /\btried and left\b/i],
  ['a finding or item of an issue', /\b(finding|item)s? \d+(,| and)/i],
  ['a commit narrative', COMMIT_NARRATIVE],
  ['an earlier-run story', /\b(earlier|older|previous) (runs?|builds?)\b|\bfixed the same way\b/i],
  ['a before-the-fix story', /\bbefore (the|this|its) (rule|fix)\b/i],
];

/** Dated labels, in prose only (fixtures and code hold timestamps as data). */
const DATED = /\b20\d\d-\d\d-\d\d\b/;

function files(entry: string): string[] {
  const full = path.join(ROOT, entry);
  if (SKIPPED.some((skip) => entry === skip)) return [];
  const children = (() => {
    try {
      return readdirSync(full, { withFileTypes: true });
    } catch {
      return null;
    }
  })();
  if (children === null) return TEXT.test(path.basename(entry)) ? [entry] : [];
  return children.flatMap((child) => files(path.join(entry, child.name)));
}

/** Each line of the scanned tree that carries a history label, as `file:line: what: text`. */
function historyLabels(relativeFiles: readonly string[], read: (file: string) => string): string[] {
  const found: string[] = [];
  for (const file of relativeFiles) {
    read(file)
      .split('\n')
      .forEach((line, index) => {
        const labels = [...HISTORY_LABELS, ...(file.endsWith('.md') ? [['a date', DATED] as const] : [])];
        const label = labels.find(([, pattern]) => pattern.test(line));
        if (label) found.push(`${file}:${index + 1}: ${label[0]}: ${line.trim()}`);
      });
  }
  return found;
}

const self = path.relative(ROOT, import.meta.filename);

describe('no history in the tree', () => {
  it('finds no issue or session numbers, before/now stories or dated labels', () => {
    const scanned = SCANNED.flatMap(files).filter((file) => file !== self);
    expect(scanned.length).toBeGreaterThan(100);
    expect(historyLabels(scanned, (file) => readFileSync(path.join(ROOT, file), 'utf8'))).toEqual([]);
  });

  it.each([
    ['// fixed in issue 12', 'an issue number'],
    ['/** Issue #8: a bad snapshot */', 'an issue number'],
    ["the issue's targets", "the issue's wording"],
    ['see #42 for why', 'a bare #number'],
    ['measured in session 6', 'a session number'],
    ['| Before/Now |', 'a before/now story'],
    ['Tried and left: a larger heap', 'a tried-and-left story'],
    ['(finding 4, item 7)', 'a finding or item of an issue'],
    ['against the build of commit b81ec8e', 'a commit narrative'],
    ['Earlier runs, of seeds 1–200', 'an earlier-run story'],
    ['(absent on older runs)', 'an earlier-run story'],
    ['(`--replay`, commit 3ff54df)', 'a commit narrative'],
    ['seeds 1–200 against 01e8668 (load 13–20)', 'a commit narrative'],
    ['judged again by the plan of 3ff54df, 194/194', 'a commit narrative'],
    ['a run of seeds 201–230 against an earlier build', 'an earlier-run story'],
    ['An earlier run of the same seeds', 'an earlier-run story'],
    ['Seeds 9001–9159, run with the plan before the rule on several denying policies', 'a before-the-fix story'],
  ])('catches %j as %s', (line, what) => {
    expect(historyLabels(['src/probe.ts'], () => line)).toEqual([`src/probe.ts:1: ${what}: ${line}`]);
  });

  it.each([
    'fixed after 1.37 by kubernetes/kubernetes#141340',
    'the Deployment to its own replica count (kubernetes#66811)',
    "color: '#000000'",
    'items[4]: Pod shop/web-1',
    'one tmux session on a tmux server of its own',
    'the pod we meant no longer exists',
    '`budgets-waiting` (budgets with before/now)',
    "creationTimestamp: '2026-01-01T00:00:00Z'",
    'compared against the pods recorded before the drain',
    'against defaced budgets',
    "uid: 'a3f5c2e1-0000-4000-8000-000000000001'",
  ])('lets %j stand', (line) => {
    expect(historyLabels(['src/probe.ts'], () => line)).toEqual([]);
  });

  it('holds dates to prose', () => {
    expect(historyLabels(['docs/x.md'], () => 'measured 2026-11-30')).toEqual([
      'docs/x.md:1: a date: measured 2026-11-30',
    ]);
  });
});
