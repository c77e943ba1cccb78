import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { krewReleaseBotTemplate, manifestPlatforms, renderManifest } from '../../../scripts/release/manifest.js';
import { binaryName, releaseUrl, TARGETS, targetName } from '../../../scripts/release/targets.js';

const REPO = resolve(import.meta.dirname, '../../..');
const PLUGIN_YAML = readFileSync(join(REPO, 'plugin.yaml'), 'utf8');
const KREW_TEMPLATE = readFileSync(join(REPO, 'krew/.krew.yaml'), 'utf8');
const VERSION = `v${(JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version}`;

interface Manifest {
  metadata: { name: string };
  spec: { version: string; shortDescription: string; description: string; caveats: string; platforms: unknown[] };
}

/** A stand-in checksum per URL, so a mix-up between platforms shows. */
const fakeSha256 = (url: string) => createHash('sha256').update(url).digest('hex');

/**
 * What krew-release-bot does with the template (rajatjindal/krew-release-bot pkg/source/template.go):
 * `{{ .TagName }}` becomes the tag; `addURIAndSha` becomes "uri: URL" and, 4 spaces in or at the
 * depth `| indent N` names, "sha256: SHA" of the downloaded asset.
 */
function renderLikeKrewReleaseBot(template: string, tag: string): string {
  return template
    .replace(
      /\{\{addURIAndSha "([^"]+)" \.TagName(?: \| indent (\d+))? \}\}/g,
      (_call, url: string, indent?: string) => {
        const resolved = url.replaceAll('{{ .TagName }}', tag);
        return `uri: ${resolved}\n${' '.repeat(indent ? Number(indent) : 4)}sha256: ${fakeSha256(resolved)}`;
      },
    )
    .replaceAll('{{ .TagName }}', tag);
}

function allChecksums(version: string): Map<string, string> {
  return new Map(TARGETS.map((t) => [targetName(t), fakeSha256(releaseUrl(version, t))]));
}

describe('the committed plugin.yaml', () => {
  const manifest = parse(PLUGIN_YAML) as Manifest;

  it("is the krew manifest of package.json's version, named maint", () => {
    expect(manifest.metadata.name).toBe('maint');
    expect(manifest.spec.version).toBe(VERSION);
  });

  it('lists every release platform once, in order, with its download URL and its executable', () => {
    const platforms = manifestPlatforms(PLUGIN_YAML);
    expect(platforms.map((p) => targetName(p.target))).toEqual(TARGETS.map(targetName));
    for (const p of platforms) {
      expect(p.uri).toBe(releaseUrl(VERSION, p.target));
      expect(p.bin).toBe(binaryName(p.target));
      expect(p.sha256).toMatch(/^[a-f0-9]{64}$/);
    }
  });

  it("keeps krew-index's limits: a one-line tagline of at most 50 characters, description lines of at most 80", () => {
    expect(manifest.spec.shortDescription).not.toMatch(/[\r\n]/);
    expect(manifest.spec.shortDescription.length).toBeLessThanOrEqual(50);
    for (const line of manifest.spec.description.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('its caveats point at the ClusterRoles each command needs: the rbac command and the files beside the plugin', () => {
    const caveats = manifest.spec.caveats;
    expect(caveats).toContain('`kubectl maint rbac plan|drain|run`');
    expect(caveats).toContain('(rbac-*.yaml)');
    expect(caveats).toContain('kubectl maint rbac drain | kubectl apply -f -');
    for (const line of caveats.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });
});

describe('krew/.krew.yaml, the krew-release-bot template', () => {
  it('is generated from plugin.yaml (regenerate: npm run release -- --krew-template)', () => {
    expect(KREW_TEMPLATE).toBe(krewReleaseBotTemplate(PLUGIN_YAML, VERSION));
  });

  it('renders, the way the bot renders it, into the manifest npm run release writes for the same tag', () => {
    const tag = 'v9.8.7';
    const template = PLUGIN_YAML.replaceAll(VERSION, tag);
    const byBot = parse(renderLikeKrewReleaseBot(KREW_TEMPLATE, tag)) as Manifest;
    expect(byBot).toEqual(parse(renderManifest(template, tag, allChecksums(tag))));
    expect(byBot.spec.version).toBe(tag);
  });

  it('refuses a plugin.yaml whose version line is not the expected version', () => {
    expect(() => krewReleaseBotTemplate(PLUGIN_YAML, 'v0.0.0-other')).toThrow('no "  version: v0.0.0-other" line');
  });
});

describe('renderManifest', () => {
  it('sets the version, and each platform’s uri and sha256 from its archive', () => {
    const rendered = parse(renderManifest(PLUGIN_YAML, VERSION, allChecksums(VERSION))) as Manifest;
    expect(rendered.spec.version).toBe(VERSION);
    for (const p of manifestPlatforms(renderManifest(PLUGIN_YAML, VERSION, allChecksums(VERSION)))) {
      expect(p.uri).toBe(releaseUrl(VERSION, p.target));
      expect(p.sha256).toBe(fakeSha256(releaseUrl(VERSION, p.target)));
    }
  });

  it('leaves out the platforms whose archive was not built', () => {
    const onlyLinux = new Map([['linux/amd64', 'a'.repeat(64)]]);
    const platforms = manifestPlatforms(renderManifest(PLUGIN_YAML, VERSION, onlyLinux));
    expect(platforms.map((p) => [targetName(p.target), p.sha256])).toEqual([['linux/amd64', 'a'.repeat(64)]]);
  });

  it("drops the template's comments about placeholder checksums", () => {
    expect(renderManifest(PLUGIN_YAML, VERSION, allChecksums(VERSION))).not.toContain('#');
  });
});
