import { build, type Metafile } from 'esbuild';
import { join } from 'node:path';
import type { BuildInfo } from '../../src/version.js';

export interface BundleOptions {
  readonly repoDir: string;
  readonly outFile: string;
  readonly stamp: BuildInfo;
}

/**
 * Bundles the CLI into one ESM file for a Node single executable, whose `import` only loads built-in
 * modules. ESM because ink and yoga-layout use top-level await, which CommonJS output cannot carry.
 * Returns esbuild's metafile, which lists the packages the bundle took code from.
 */
export async function bundleCli(options: BundleOptions): Promise<Metafile> {
  const result = await build({
    absWorkingDir: options.repoDir,
    entryPoints: [join(options.repoDir, 'src/sea-entry.ts')],
    outfile: options.outFile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node26',
    // Whitespace and syntax only: identifiers stay readable in KUBECTL_MAINT_DEBUG stack traces.
    minifyWhitespace: true,
    minifySyntax: true,
    metafile: true,
    logLevel: 'warning',
    // Bundled CommonJS dependencies still call require() for built-ins; ESM output has none.
    banner: {
      js: "import { createRequire as __kubectlMaintCreateRequire } from 'node:module'; const require = __kubectlMaintCreateRequire(import.meta.url);",
    },
    define: { __KUBECTL_MAINT_BUILD__: JSON.stringify(options.stamp) },
    alias: { 'react-devtools-core': join(options.repoDir, 'scripts/release/stubs/react-devtools-core.js') },
  });
  return result.metafile;
}
