import { build, type Metafile } from 'esbuild';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildInfo } from '../../src/version.js';

export interface BundleOptions {
  readonly repoDir: string;
  /** The directory to write the entry (ENTRY_FILE) and its chunks into. */
  readonly outDir: string;
  readonly stamp: BuildInfo;
  /**
   * 'sea': for the single executable, whose chunks are loaded from its assets (src/sea-main.ts) and have
   * no file URL; 'node': files run by Node from disk (the from-source bundle, the CLI tests).
   */
  readonly runtime: 'sea' | 'node';
}

/** The entry's file name in outDir; it exports `main(argv)` (src/cli/main.ts). */
export const ENTRY_FILE = 'kubectl-maint.js';

/** ESM for Node 26, minified in whitespace and syntax only: identifiers stay readable in stack traces. */
const FOR_NODE = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node26',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
} as const;

/**
 * Bundles the CLI into ESM chunks: the entry holds what every command needs (commander, the CLI's
 * wiring), and each `await import()` of src/cli (the Kubernetes client, Ink and React, the planner, YAML)
 * becomes a chunk of its own, loaded only by the command that needs it. Start-up then compiles and runs
 * only the code of that command, instead of the whole 5.5 MB of one file. ESM because ink and yoga-layout
 * use top-level await, which CommonJS output cannot carry. Returns esbuild's metafile, which lists the
 * packages the bundle took code from.
 */
export async function bundleCli(options: BundleOptions): Promise<Metafile> {
  // Bundled CommonJS dependencies still call require() for built-ins; ESM output has none. A chunk of the
  // single executable has a sea: URL, which createRequire refuses: there it requires relative to the
  // executable (built-ins only, either way).
  const requireFrom = options.runtime === 'sea' ? 'process.execPath' : 'import.meta.url';
  const result = await build({
    absWorkingDir: options.repoDir,
    entryPoints: { [ENTRY_FILE.replace(/\.js$/, '')]: join(options.repoDir, 'src/cli/main.ts') },
    outdir: options.outDir,
    chunkNames: 'chunk-[hash]',
    splitting: true,
    ...FOR_NODE,
    metafile: true,
    banner: {
      js: `import { createRequire as __kubectlMaintCreateRequire } from 'node:module'; const require = __kubectlMaintCreateRequire(${requireFrom});`,
    },
    define: { __KUBECTL_MAINT_BUILD__: JSON.stringify(options.stamp) },
    alias: { 'react-devtools-core': join(options.repoDir, 'scripts/release/stubs/react-devtools-core.js') },
  });
  return result.metafile;
}

/** The files bundleCli wrote: the entry and its chunks, by name. */
export function bundleFiles(outDir: string): string[] {
  return readdirSync(outDir)
    .filter((name) => name.endsWith('.js'))
    .sort();
}

/**
 * The single executable's main script (src/sea-main.ts), built alone: it holds no application code, only
 * what loads the bundle's chunks from the executable's assets.
 */
export async function bundleSeaMain(repoDir: string, outFile: string): Promise<void> {
  await build({
    absWorkingDir: repoDir,
    entryPoints: [join(repoDir, 'src/sea-main.ts')],
    outfile: outFile,
    ...FOR_NODE,
    define: { __KUBECTL_MAINT_ENTRY__: JSON.stringify(ENTRY_FILE) },
  });
}
