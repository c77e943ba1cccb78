import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIfStale, isStale } from '../../../scripts/build-if-stale.js';

// `npm run demo` recompiled TypeScript on every run (16 of its 22 s): now only when a source changed.
const root = mkdtempSync(path.join(tmpdir(), 'maint-stale-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function at(file: string, seconds: number): void {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), '');
  // The file and its folders (a folder's time changes when a file in it is added or removed).
  for (let entry = file; entry !== '.'; entry = path.dirname(entry)) {
    utimesSync(path.join(root, entry), seconds, seconds);
  }
}

describe('isStale', () => {
  it('is stale before the first build, fresh after it, stale again when a source changes', () => {
    at('src/cli/main.ts', 1000);
    at('package.json', 1000);
    expect(isStale(root)).toBe(true);
    at('dist/.tsbuildinfo', 2000);
    expect(isStale(root)).toBe(false);
    at('src/ui/plan-text.ts', 3000);
    expect(isStale(root)).toBe(true);
    at('dist/.tsbuildinfo', 4000);
    at('tsconfig.build.json', 5000);
    expect(isStale(root)).toBe(true);
  });
});

describe('buildIfStale', () => {
  it('says it is building before the build starts (no blank screen), and builds nothing when fresh', () => {
    const steps: string[] = [];
    const record = {
      say: (text: string) => steps.push(`say: ${text.trim()}`),
      run: (_file: string, args: readonly string[]) => steps.push(`run: ${path.basename(args[0]!)}`),
    };
    at('dist/.tsbuildinfo', 6000);
    at('src/cli/main.ts', 7000);
    expect(buildIfStale(root, record)).toBe(true);
    expect(steps).toEqual([
      'say: building kubectl-maint from its sources first (tsc, then the bundle; once per change)…',
      'run: tsc',
      'run: build-bundle.ts',
    ]);
    steps.length = 0;
    expect(buildIfStale(root, record)).toBe(false);
    expect(steps).toEqual([]);
  });
});
