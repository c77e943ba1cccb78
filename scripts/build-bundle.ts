// The second half of `npm run build`: dist/bundle/, the CLI bundled into ESM chunks (the release's
// bundle, scripts/release/bundle.ts), which bin/kubectl-maint.js runs. From source a command then loads
// a few files instead of several hundred modules of node_modules (the Kubernetes client alone is
// hundreds), and only the chunks it needs. tsc's dist/ stays the fallback, and what the tests of each
// module's imports look at (test/unit/cli/startup-imports.test.ts).
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type * as Bundle from './release/bundle.js';

// Imported by URL: node runs these scripts from source and resolves a .ts file only by its own name.
const { bundleCli } = (await import(new URL('./release/bundle.ts', import.meta.url).href)) as typeof Bundle;

/** Where bin/kubectl-maint.js looks for the bundle's entry. */
export const BUNDLE_DIR = 'dist/bundle';

export async function buildBundle(root: string): Promise<void> {
  const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
  const outDir = path.join(root, BUNDLE_DIR);
  rmSync(outDir, { recursive: true, force: true });
  await bundleCli({
    repoDir: root,
    outDir,
    stamp: { version: `v${version}`, build: 'dev', commit: null, buildDate: null },
    runtime: 'node',
  });
}

if (import.meta.main) await buildBundle(path.resolve(import.meta.dirname, '..'));
