// `npm run demo` (and anything else that wants dist/ current without waiting): runs the TypeScript build
// only when a source is newer than the last build. tsc's own --incremental check still takes seconds on
// a busy machine; comparing modification times takes milliseconds.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';

/** What the build reads, relative to the repository. */
const SOURCES = ['src', 'examples', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];
/** Written by tsc --incremental (tsconfig.build.json), and touched here after each build. */
const STAMP = 'dist/.tsbuildinfo';

function newest(entry: string): number {
  const stat = statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(entry).map((name) => newest(path.join(entry, name))));
}

/** True when dist/ was never built or a source changed since. */
export function isStale(root: string): boolean {
  const built = statSync(path.join(root, STAMP), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return Math.max(...SOURCES.map((s) => newest(path.join(root, s)))) > built;
}

/** How the build is said and run; tests pass their own. */
export interface BuildSteps {
  readonly say: (text: string) => void;
  readonly run: (file: string, args: readonly string[], cwd: string) => void;
}

const REAL_STEPS: BuildSteps = {
  say: (text) => process.stderr.write(text),
  run: (file, args, cwd) => void execFileSync(file, args, { cwd, stdio: 'inherit' }),
};

export function buildIfStale(root: string, steps: BuildSteps = REAL_STEPS): boolean {
  if (!isStale(root)) return false;
  // The build takes half a minute the first time on a busy machine: said at once, not a blank screen.
  steps.say('building kubectl-maint from its sources first (tsc, then the bundle; once per change)…\n');
  const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
  steps.run(process.execPath, [tsc, '-p', 'tsconfig.build.json'], root);
  steps.run(process.execPath, [path.join(root, 'scripts/build-bundle.ts')], root);
  // tsc leaves its build info untouched when no output changed (a file saved as it was): mark the check.
  const now = new Date();
  utimesSync(path.join(root, STAMP), now, now);
  return true;
}

if (import.meta.main) buildIfStale(path.resolve(import.meta.dirname, '..'));
