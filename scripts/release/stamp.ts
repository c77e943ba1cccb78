import { execFileSync } from 'node:child_process';
import type { BuildInfo } from '../../src/version.js';

/** krew wants `spec.version` to be semver with a leading v, and the docs ask that it match the git tag. */
const RELEASE_VERSION = /^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

/**
 * Refuses a release version that is not `vX.Y.Z[-pre]` or that differs from package.json, so the
 * tag, the archives, the manifest and `npm run build` all report one version.
 */
export function checkReleaseVersion(version: string, packageVersion: string): void {
  if (!RELEASE_VERSION.test(version)) {
    throw new Error(`--version ${version}: expected a semantic version with a leading v, e.g. v${packageVersion}`);
  }
  if (version !== `v${packageVersion}`) {
    throw new Error(`--version ${version} does not match package.json (${packageVersion}): bump package.json first`);
  }
}

/** What the bundle reports through `kubectl maint version`. */
export function releaseStamp(version: string, commit: string, buildDate: string): BuildInfo {
  return { version, build: 'release', commit, buildDate };
}

/**
 * The build date: SOURCE_DATE_EPOCH when set (reproducible builds, reproducible-builds.org), else
 * now; RFC 3339 in UTC, to the second.
 */
export function buildDate(sourceDateEpoch: string | undefined, now: Date): string {
  const date = sourceDateEpoch ? new Date(Number(sourceDateEpoch) * 1000) : now;
  if (Number.isNaN(date.getTime())) throw new Error(`SOURCE_DATE_EPOCH=${sourceDateEpoch} is not a number of seconds`);
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The commit being released; a working tree with uncommitted changes is marked `-dirty`. */
export function gitCommit(repoDir: string): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repoDir, encoding: 'utf8' }).trim();
  const commit = git('rev-parse', 'HEAD');
  return git('status', '--porcelain', '--untracked-files=no') === '' ? commit : `${commit}-dirty`;
}
