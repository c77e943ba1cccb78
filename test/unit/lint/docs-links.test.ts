import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** The README is the front door (short); every page it and docs/ link to exists. */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const PAGES = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).map((file) => `docs/${file}`)].filter((file) =>
  file.endsWith('.md'),
);

/** Relative link targets of a Markdown page that do not exist, as `page: target`. */
function brokenLinks(page: string): string[] {
  const text = readFileSync(path.join(ROOT, page), 'utf8');
  return [...text.matchAll(/\]\(([^)\s#]+)(#[^)\s]*)?\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z]+:/.test(target))
    .filter((target) => !existsSync(path.resolve(ROOT, path.dirname(page), target)))
    .map((target) => `${page}: ${target}`);
}

describe('README and docs/', () => {
  it('keeps the README to 150 lines', () => {
    expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(150);
  });

  it('links only to files that exist', () => {
    expect(PAGES.length).toBeGreaterThan(5);
    expect(PAGES.flatMap(brokenLinks)).toEqual([]);
  });
});
