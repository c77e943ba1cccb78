import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { clusterRolesYaml } from '../../src/kube/cluster-roles.js';
import { RBAC_COMMANDS } from '../../src/kube/permissions.js';
import { goPlatform } from '../../src/version.js';
import { sha256File, writeArchive } from './archive.js';
import { bundleCli, bundleFiles, bundleSeaMain } from './bundle.js';
import { krewReleaseBotTemplate, manifestPlatforms, renderManifest } from './manifest.js';
import { nodeBinaryCacheDir, nodeBinaryFor } from './node-binary.js';
import { thirdPartyNotices } from './notices.js';
import { buildExecutable } from './sea.js';
import { buildDate, checkReleaseVersion, gitCommit, releaseStamp } from './stamp.js';
import {
  archiveName,
  binaryName,
  completionName,
  parseTarget,
  rbacFileName,
  TARGETS,
  targetName,
  type Target,
} from './targets.js';

const USAGE = `usage: npm run release -- --version vX.Y.Z [options]

Builds kubectl-maint as a Node.js single executable per platform, packs each with kubectl_complete-maint, LICENSE,
THIRD_PARTY_LICENSES and the ClusterRoles of plan, drain and run (rbac-*.yaml), and writes into --out: the archives, their sha256 (…_checksums.txt) and
plugin.yaml, the krew manifest for this version.

  --version vX.Y.Z     the release; must equal package.json's version with a leading v
  --platforms LIST     os/arch list, default: every platform this machine can build
                       (${TARGETS.map(targetName).join(', ')}; darwin only on macOS, which signs it)
  --out DIR            default: release/ in the repository
  --manifest-only      build nothing: checksum the archives already in --out, write plugin.yaml
  --complete           fail unless every platform of plugin.yaml has its archive
  --krew-template      only regenerate krew/.krew.yaml from plugin.yaml
`;

const REPO_DIR = resolve(import.meta.dirname, '../..');

export async function runRelease(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      version: { type: 'string' },
      platforms: { type: 'string' },
      out: { type: 'string' },
      'manifest-only': { type: 'boolean', default: false },
      complete: { type: 'boolean', default: false },
      'krew-template': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const pluginYaml = readFileSync(join(REPO_DIR, 'plugin.yaml'), 'utf8');
  const packageVersion = (JSON.parse(readFileSync(join(REPO_DIR, 'package.json'), 'utf8')) as { version: string })
    .version;
  if (values['krew-template']) {
    writeFileSync(join(REPO_DIR, 'krew/.krew.yaml'), krewReleaseBotTemplate(pluginYaml, `v${packageVersion}`));
    log('wrote krew/.krew.yaml');
    return 0;
  }
  if (!values.version) throw new Error(`--version is required\n\n${USAGE}`);
  const version = values.version;
  checkReleaseVersion(version, packageVersion);
  const out = resolve(values.out ?? join(REPO_DIR, 'release'));
  mkdirSync(out, { recursive: true });

  if (!values['manifest-only']) {
    const targets = values.platforms ? values.platforms.split(',').map(parseTarget) : defaultTargets();
    await buildArchives(version, targets, out);
  }
  await writeManifest(pluginYaml, version, out, values.complete);
  return 0;
}

/** Every platform, except darwin away from macOS: its executables must be signed with Apple's codesign. */
function defaultTargets(): Target[] {
  if (process.platform === 'darwin') return [...TARGETS];
  const skipped = TARGETS.filter((t) => t.os === 'darwin');
  log(`skipping ${skipped.map(targetName).join(', ')}: built and signed on macOS by .github/workflows/release.yml`);
  return TARGETS.filter((t) => t.os !== 'darwin');
}

async function buildArchives(version: string, targets: readonly Target[], out: string): Promise<void> {
  const stamp = releaseStamp(version, gitCommit(REPO_DIR), buildDate(process.env.SOURCE_DATE_EPOCH, new Date()));
  const host = goPlatform(process.platform, process.arch);
  const work = mkdtempSync(join(tmpdir(), 'kubectl-maint-release-'));
  try {
    const bundle = join(work, 'bundle');
    log(`bundling src/cli/entry.ts and src/cli/standalone-main.ts (${version}, commit ${stamp.commit})`);
    const metafile = await bundleCli({ repoDir: REPO_DIR, outDir: bundle, stamp, runtime: 'sea' });
    const assets = Object.fromEntries(bundleFiles(bundle).map((name) => [name, join(bundle, name)]));
    const main = join(work, 'sea-main.mjs');
    await bundleSeaMain(REPO_DIR, main);
    const notices = thirdPartyNotices(REPO_DIR, metafile);
    for (const target of targets) {
      const isHost = targetName(target) === host;
      const stage = join(work, `${target.os}_${target.arch}`);
      mkdirSync(stage);
      const nodeBinary = nodeBinaryFor(target, isHost, process.versions.node, nodeBinaryCacheDir());
      const binary = join(stage, binaryName(target));
      log(`${targetName(target)}: building ${binaryName(target)} from ${nodeBinary}`);
      const configFile = join(work, `sea-${target.os}-${target.arch}.json`);
      buildExecutable({ target, main, assets, nodeBinary, isHost, configFile, output: binary });
      if (isHost) smokeTest(binary, version);
      copyFileSync(join(REPO_DIR, 'LICENSE'), join(stage, 'LICENSE'));
      copyFileSync(join(REPO_DIR, 'bin', completionName(target)), join(stage, completionName(target)));
      chmodSync(join(stage, completionName(target)), 0o755);
      writeFileSync(join(stage, 'THIRD_PARTY_LICENSES'), notices);
      // The ClusterRoles each command needs, from the code that makes its requests (deploy/rbac/ holds the same).
      const roles = RBAC_COMMANDS.map((command) => rbacFileName(command));
      RBAC_COMMANDS.forEach((command, i) => writeFileSync(join(stage, roles[i]!), clusterRolesYaml(command)));
      const archive = join(out, archiveName(version, target));
      rmSync(archive, { force: true });
      writeArchive(archive, stage, [
        binaryName(target),
        completionName(target),
        'LICENSE',
        'THIRD_PARTY_LICENSES',
        ...roles,
      ]);
      log(`${targetName(target)}: ${archiveName(version, target)} ${mb(archive)} (executable ${mb(binary)})`);
      rmSync(stage, { recursive: true, force: true });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The host's executable must start and report the version it was stamped with. */
function smokeTest(binary: string, version: string): void {
  const report = JSON.parse(execFileSync(binary, ['version', '-o', 'json'], { encoding: 'utf8' })) as {
    version: string;
    build: string;
    singleExecutable: boolean;
  };
  if (report.version !== version || report.build !== 'release' || !report.singleExecutable) {
    throw new Error(`${binary} version -o json reported ${JSON.stringify(report)}`);
  }
}

async function writeManifest(pluginYaml: string, version: string, out: string, complete: boolean): Promise<void> {
  const sha256ByTarget = new Map<string, string>();
  const missing: string[] = [];
  for (const { target } of manifestPlatforms(pluginYaml)) {
    const archive = join(out, archiveName(version, target));
    if (existsSync(archive)) sha256ByTarget.set(targetName(target), await sha256File(archive));
    else missing.push(targetName(target));
  }
  if (sha256ByTarget.size === 0) throw new Error(`no archives for ${version} in ${out}`);
  if (missing.length > 0) {
    if (complete) throw new Error(`--complete: no archive in ${out} for ${missing.join(', ')}`);
    log(`plugin.yaml leaves out ${missing.join(', ')} (no archive in ${out})`);
  }
  const checksums = [...sha256ByTarget].map(([name, sha]) => `${sha}  ${archiveName(version, parseTarget(name))}\n`);
  writeFileSync(join(out, `kubectl-maint_${version}_checksums.txt`), checksums.join(''));
  writeFileSync(join(out, 'plugin.yaml'), renderManifest(pluginYaml, version, sha256ByTarget));
  log(`wrote ${join(out, 'plugin.yaml')} (${[...sha256ByTarget.keys()].join(', ')})`);
}

function mb(path: string): string {
  return `${(statSync(path).size / 1e6).toFixed(1)} MB`;
}

function log(message: string): void {
  process.stderr.write(`release: ${message}\n`);
}
