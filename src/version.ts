import { readFileSync } from 'node:fs';
import { isSea } from 'node:sea';

/** How this copy of kubectl maint was built. */
export interface BuildInfo {
  /** Semantic version with the leading `v` krew asks for, e.g. `v0.1.0`. */
  readonly version: string;
  /** `release`: the bundle `npm run release` built; `dev`: running from source (`npm run build`). */
  readonly build: 'release' | 'dev';
  /** Git commit the release was built from (null from source). */
  readonly commit: string | null;
  /** When the release was built, RFC 3339 UTC (null from source). */
  readonly buildDate: string | null;
}

/** Where this copy is running. */
export interface RuntimeInfo {
  /** The Node.js version inside (a single executable carries its own). */
  readonly node: string;
  /** GOOS/GOARCH style, as krew's platform selectors name it: `linux/amd64`. */
  readonly platform: string;
  /** True for the single executable krew installs, false under a separate `node`. */
  readonly singleExecutable: boolean;
}

// Replaced by esbuild's `define` in the release bundle (scripts/release/bundle.ts); an undeclared
// global when running from source, which `typeof` tolerates.
declare const __KUBECTL_MAINT_BUILD__: BuildInfo | undefined;

export function buildInfo(): BuildInfo {
  if (typeof __KUBECTL_MAINT_BUILD__ !== 'undefined') return __KUBECTL_MAINT_BUILD__;
  return { version: `v${packageVersion()}`, build: 'dev', commit: null, buildDate: null };
}

export function runtimeInfo(): RuntimeInfo {
  return {
    node: process.version,
    platform: goPlatform(process.platform, process.arch),
    singleExecutable: isSea(),
  };
}

/** Node's names for the platform, in the GOOS/GOARCH spelling that krew manifests use. */
export function goPlatform(nodePlatform: string, nodeArch: string): string {
  const os = nodePlatform === 'win32' ? 'windows' : nodePlatform;
  const arch = ({ x64: 'amd64', ia32: '386' } as Record<string, string>)[nodeArch] ?? nodeArch;
  return `${os}/${arch}`;
}

/** package.json sits one level above both src/ (tests) and dist/ (npm run build). */
function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
