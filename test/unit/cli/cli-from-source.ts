import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, vi } from 'vitest';
import { bundleCli, ENTRY_FILE } from '../../../scripts/release/bundle.js';

// The CLI as a user runs it, built from the sources under test by esbuild (as the release is), so these
// tests need no `npm run build` first and never run a stale dist/.
const root = path.resolve(import.meta.dirname, '../../..');
const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
let bundled: Promise<string> | undefined;
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
// Each test starts the CLI, some several times: on a busy 2-core machine that takes seconds, not the
// default 5 s limit's worth.
vi.setConfig({ testTimeout: 60_000 });
// Bundling takes a second or two, more on a busy machine: once per set of sources (see cliBundle), before
// a file's tests.
beforeAll(() => cliBundle().then(() => undefined), 120_000);

/** A scratch directory removed after the file's tests. */
export function scratchDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'maint-cli-'));
  dirs.push(dir);
  return dir;
}

/** The path of the bundled CLI (built once for the sources as they are, see cliBundle). */
export function cliBundlePath(): Promise<string> {
  return cliBundle();
}

/** What the bundle is made of: the sources, the bundler's settings and every locked dependency. */
const BUNDLE_INPUTS = [
  'src',
  'scripts/release/bundle.ts',
  'scripts/release/stubs',
  'package.json',
  'package-lock.json',
];

function bundleInputsHash(): string {
  const digest = createHash('sha256');
  for (const input of BUNDLE_INPUTS) {
    const full = path.join(root, input);
    const files = statSync(full).isDirectory()
      ? (readdirSync(full, { recursive: true, encoding: 'utf8' }) as string[]).map((f) => path.join(input, f))
      : [input];
    for (const file of files.sort()) {
      if (statSync(path.join(root, file)).isFile()) {
        digest
          .update(`${file}\0`)
          .update(readFileSync(path.join(root, file)))
          .update('\0');
      }
    }
  }
  return digest.digest('hex').slice(0, 16);
}

/**
 * The bundled CLI, built once for a set of sources and kept in the temp directory under their hash: the
 * CLI test files of one run (and the next run, if nothing changed) share it, instead of each bundling it
 * again. Built beside its place and renamed into it, so that two files bundling at once both end with a
 * whole bundle.
 */
function cliBundle(): Promise<string> {
  bundled ??= (async () => {
    const outDir = path.join(tmpdir(), `kubectl-maint-cli-${bundleInputsHash()}`);
    const entry = path.join(outDir, 'run.mjs');
    if (existsSync(entry)) return entry;
    const building = mkdtempSync(`${outDir}-building-`);
    try {
      // Written beside a package.json of its own: the chunks are ES modules named .js.
      writeFileSync(path.join(building, 'package.json'), '{"type":"module"}\n');
      await bundleCli({
        repoDir: root,
        outDir: building,
        stamp: { version: `v${version}`, build: 'dev', commit: null, buildDate: null },
        runtime: 'node',
      });
      writeFileSync(
        path.join(building, 'run.mjs'),
        `import { main } from './${ENTRY_FILE}';\nprocess.exitCode = await main(process.argv.slice(2));\n`,
      );
      renameSync(building, outDir);
    } catch (error) {
      // Another file renamed its bundle of the same sources into place first: that one is used.
      if (!existsSync(entry)) throw error;
    } finally {
      rmSync(building, { recursive: true, force: true });
    }
    return entry;
  })();
  return bundled;
}

export interface CliResult {
  readonly exitCode: number | undefined;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `kubectl-maint ARGS` with an environment that has no kubeconfig unless the case gives one. */
export async function runCli(args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> {
  const result = await execa(process.execPath, [await cliBundle(), ...args], {
    reject: false,
    cwd: root,
    env: { HOME: scratchDir(), KUBECONFIG: '', NO_COLOR: '1', ...env },
    extendEnv: false,
    // A hang guard below the unit tests' 60 s one, so that a CLI that never ends is killed, not left
    // running after its test failed.
    timeout: 50_000,
  });
  return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
}
