import type { Metafile } from 'esbuild';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BundledPackage {
  /** Directory relative to the repository, e.g. `node_modules/ink`. */
  readonly dir: string;
  readonly name: string;
  readonly version: string;
  readonly license: string;
}

/**
 * The package directories the bundle took code from, from esbuild's metafile inputs
 * (`node_modules/ink/build/index.js` → `node_modules/ink`, nested and scoped packages included).
 */
export function bundledPackageDirs(metafile: Metafile): string[] {
  const dirs = new Set<string>();
  for (const input of Object.keys(metafile.inputs)) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match?.[1]) dirs.add(match[1]);
  }
  return [...dirs].sort();
}

/**
 * THIRD_PARTY_LICENSES for the archive: the single executable carries these packages' code, and
 * their licenses (MIT, ISC, Apache-2.0, …) ask that their notices travel with it.
 */
export function thirdPartyNotices(repoDir: string, metafile: Metafile): string {
  const sections = bundledPackageDirs(metafile).map((dir) => {
    const pkg = readPackage(repoDir, dir);
    const text =
      licenseText(join(repoDir, dir)) ?? `(the package ships no license file; package.json says ${pkg.license})`;
    const rule = '='.repeat(80);
    return `${rule}\n${pkg.name} ${pkg.version} (${pkg.license})\n${rule}\n\n${text.trim()}\n`;
  });
  return `kubectl-maint bundles the packages below into its executable. Their licenses follow.\n\n${sections.join('\n')}`;
}

function readPackage(repoDir: string, dir: string): BundledPackage {
  const json = JSON.parse(readFileSync(join(repoDir, dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  const license = typeof json.license === 'string' ? json.license : 'license not stated';
  return { dir, name: String(json.name), version: String(json.version), license };
}

function licenseText(packageDir: string): string | null {
  const file = readdirSync(packageDir).find((name) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(name));
  return file ? readFileSync(join(packageDir, file), 'utf8') : null;
}
