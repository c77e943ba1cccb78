import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';

/**
 * Packs the files of one platform, flat, into a .tar.gz (system tar, which keeps the executable bit)
 * or a .zip (Info-ZIP `zip`, a Debian package and present on GitHub's runners). krew extracts
 * everything (no `files:` in the manifest) and links `bin`; its index also wants a LICENSE inside.
 */
export function writeArchive(archivePath: string, dir: string, names: readonly string[]): void {
  if (archivePath.endsWith('.zip')) {
    // -X: no extra file attributes (uid/gid, timestamps beyond DOS time), -q: quiet.
    execFileSync('zip', ['-q', '-X', archivePath, ...names], { cwd: dir });
  } else {
    execFileSync('tar', ['-czf', archivePath, ...names], { cwd: dir });
  }
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}
