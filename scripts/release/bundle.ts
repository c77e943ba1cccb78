import { build, type Metafile, type Plugin } from 'esbuild';
import { builtinModules } from 'node:module';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
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

/** The entry's file name in outDir; it exports `main(argv)` (src/cli/entry.ts). */
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

/** The standalone CLI's entry file in outDir (src/cli/standalone-main.ts), which ENTRY_FILE imports. */
export const STANDALONE_FILE = 'kubectl-maint-standalone.js';

/**
 * Bundles the CLI into ESM chunks, in two builds. The whole CLI: the entry holds what every command needs
 * (commander, the CLI's wiring), and each `await import()` of src/cli (the Kubernetes client, Ink and
 * React, the planner, YAML) becomes a chunk of its own, loaded only by the command that needs it. Start-up
 * then compiles and runs only the code of that command, instead of the whole 5.5 MB of one file. But
 * esbuild puts every module shared by two of those imports in a chunk of its own: `cordon` loaded twenty
 * files, each a few tenths of a millisecond of Node's module loading. So the short standalone commands
 * (cordon, uncordon, version: src/cli/standalone-main.ts) are a second build of their own (STANDALONE_FILE,
 * its chunks named standalone-*), which the entry (src/cli/entry.ts) imports for them: a plain cordon
 * loads a dozen small files and js-yaml, none of commander or the whole CLI. The second build repeats what it shares with the first (commander, the kube code) and its
 * rare paths (client-node for a legacy auth-provider, undici for a proxy) are chunks of its own. ESM
 * because ink and yoga-layout use top-level await, which CommonJS output cannot carry. Returns esbuild's
 * metafile of both builds, which lists the packages the bundle took code from.
 */
export async function bundleCli(options: BundleOptions): Promise<Metafile> {
  // Bundled CommonJS dependencies still call require() for built-ins; ESM output has none. A chunk of the
  // single executable has a sea: URL, which createRequire refuses: there it requires relative to the
  // executable (built-ins only, either way).
  const requireFrom = options.runtime === 'sea' ? 'process.execPath' : 'import.meta.url';
  const common = {
    absWorkingDir: options.repoDir,
    outdir: options.outDir,
    splitting: true,
    ...FOR_NODE,
    metafile: true,
    banner: {
      // process.getBuiltinModule, not an import: an ESM import of node:module builds a facade of all it exports.
      js: `${REQUIRE_BANNER_START}${requireFrom});`,
    },
    define: { __KUBECTL_MAINT_BUILD__: JSON.stringify(options.stamp) },
    alias: { 'react-devtools-core': join(options.repoDir, 'scripts/release/stubs/react-devtools-core.js') },
  } as const;
  const standaloneMain = join(options.repoDir, 'src/cli/standalone-main.ts');
  const [whole, standalone] = await Promise.all([
    build({
      ...common,
      entryPoints: { [ENTRY_FILE.replace(/\.js$/, '')]: join(options.repoDir, 'src/cli/entry.ts') },
      chunkNames: 'chunk-[hash]',
      plugins: [
        {
          // The entry's import of the standalone CLI is the second build's output, not a chunk of this one.
          name: 'standalone-cli',
          setup(build) {
            build.onResolve({ filter: /\/standalone-main\.js$/ }, (args) =>
              join(args.resolveDir, args.path.replace(/\.js$/, '.ts')) === standaloneMain
                ? { path: `./${STANDALONE_FILE}`, external: true }
                : undefined,
            );
          },
        },
      ],
    }),
    build({
      ...common,
      entryPoints: { [STANDALONE_FILE.replace(/\.js$/, '')]: standaloneMain },
      chunkNames: 'standalone-[hash]',
      plugins: [builtinsTakenNotImported],
    }),
  ]);
  const outputs = { ...whole.metafile.outputs, ...standalone.metafile.outputs };
  for (const file of Object.keys(outputs)) if (file.endsWith('.js')) dropUnusedRequire(join(options.repoDir, file));
  return { inputs: { ...whole.metafile.inputs, ...standalone.metafile.inputs }, outputs };
}

const REQUIRE_BANNER_START = "const require = process.getBuiltinModule('node:module').createRequire(";

/**
 * esbuild writes the banner at the top of every chunk, but few chunks call require() (esbuild's runtime
 * and the CommonJS packages that require built-ins): in the others, creating a require function for
 * nothing cost a cordon, which loads a dozen chunks, over a millisecond. Where nothing after the banner
 * names `require`, the banner goes.
 */
function dropUnusedRequire(file: string): void {
  const text = readFileSync(file, 'utf8');
  if (!text.startsWith(REQUIRE_BANNER_START)) return;
  const bannerEnd = text.indexOf('\n') + 1;
  if (!/\brequire\b/.test(text.slice(bannerEnd))) writeFileSync(file, text.slice(bannerEnd));
}

/**
 * `import fs from 'node:fs'` in ESM makes Node build a module facade of every export of the built-in: it
 * reads them all, and some load more of Node when read (node:util's parseArgs, diff and setTraceSigInt
 * load ten internal modules, worker_threads among them; node:http's WebSocket loads Node's own undici).
 * process.getBuiltinModule returns the module itself. So a bundle's static imports of built-ins become
 * that call, in a module of the bundle with one export per export of the built-in, each read by a call
 * marked pure: esbuild drops the ones nothing imports, and only what the code imports is ever read.
 * require() and import() of built-ins are left alone.
 */
const builtinsTakenNotImported: Plugin = {
  name: 'builtins-taken-not-imported',
  setup(build) {
    const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
    build.onResolve({ filter: /^[a-z_:/]+$/ }, (args) =>
      args.kind === 'import-statement' && builtins.has(args.path)
        ? { path: args.path.startsWith('node:') ? args.path : `node:${args.path}`, namespace: 'builtin' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => {
      const builtin = process.getBuiltinModule(args.path) as Record<string, unknown>;
      const names = Object.getOwnPropertyNames(builtin).filter(
        (name) => name !== 'default' && /^[A-Za-z_$][\w$]*$/.test(name),
      );
      const contents = LOADED_ON_FIRST_CALL.has(args.path)
        ? loadedOnFirstCall(args.path, builtin, names)
        : [
            // Local names no built-in exports.
            `const builtin$ = process.getBuiltinModule(${JSON.stringify(args.path)});`,
            'const read$ = (name) => builtin$[name];',
            'export default builtin$;',
            ...names.map((name) => `export const ${name} = /* @__PURE__ */ read$(${JSON.stringify(name)});`),
          ].join('\n');
      return { contents, loader: 'js' };
    });
  },
};

/**
 * Built-ins that Node does not load at start-up, that take a short command milliseconds to load, and that
 * the code only calls now and then: node:child_process (3-5 ms) is imported by commander for executable
 * subcommands, which this CLI has none of, and by the exec credential plugin, which few kubeconfigs use.
 * A cordon never calls it.
 */
const LOADED_ON_FIRST_CALL = new Set(['node:child_process']);

/**
 * A built-in's module that loads the built-in when first used: the default export reads through to it,
 * each function export calls through to it. A class (a capitalised name: ChildProcess) is read as it is,
 * for `new` and instanceof, so importing one loads the built-in at once.
 */
function loadedOnFirstCall(
  builtin: string,
  module: Readonly<Record<string, unknown>>,
  names: readonly string[],
): string {
  return [
    `const load$ = () => process.getBuiltinModule(${JSON.stringify(builtin)});`,
    'export default new Proxy({}, { get: (_, name) => load$()[name], has: (_, name) => name in load$() });',
    ...names.map((name) =>
      typeof module[name] === 'function' && !/^[A-Z]/.test(name)
        ? `export const ${name} = (...args) => load$().${name}(...args);`
        : `export const ${name} = /* @__PURE__ */ (() => load$()[${JSON.stringify(name)}])();`,
    ),
  ].join('\n');
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
    plugins: [builtinsTakenNotImported],
  });
}
