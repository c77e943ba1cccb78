import { isMap, isSeq, parse, parseDocument } from 'yaml';
import { parseTarget, releaseUrl, targetName, type Target } from './targets.js';

/**
 * The krew manifest. The committed plugin.yaml is the template for the current version (placeholder
 * checksums); a release renders it with its archives' URLs and sha256 into release/plugin.yaml, and
 * krew/.krew.yaml, krew-release-bot's template, is generated from it, so the three never drift.
 */

export interface ManifestPlatform {
  readonly target: Target;
  readonly uri: string;
  readonly sha256: string;
  readonly bin: string;
}

interface PlatformYaml {
  selector?: { matchLabels?: { os?: string; arch?: string } };
  uri?: string;
  sha256?: string;
  bin?: string;
}

/** The platforms a manifest lists, in its order, each named by its selector's os and arch labels. */
export function manifestPlatforms(manifestText: string): ManifestPlatform[] {
  const manifest = parse(manifestText) as { spec?: { platforms?: PlatformYaml[] } };
  return (manifest.spec?.platforms ?? []).map((platform, i) => {
    const labels = platform.selector?.matchLabels;
    if (!labels?.os || !labels.arch) throw new Error(`spec.platforms[${i}]: selector.matchLabels needs os and arch`);
    return {
      target: parseTarget(`${labels.os}/${labels.arch}`),
      uri: platform.uri ?? '',
      sha256: platform.sha256 ?? '',
      bin: platform.bin ?? '',
    };
  });
}

/**
 * release/plugin.yaml: the template with `version`, and each platform's `uri` and `sha256`, set for
 * this release. A platform without a checksum (its archive was not built here) is left out.
 */
export function renderManifest(
  templateText: string,
  version: string,
  sha256ByTarget: ReadonlyMap<string, string>,
): string {
  const doc = parseDocument(templateText);
  doc.setIn(['spec', 'version'], version);
  const platforms = doc.getIn(['spec', 'platforms']);
  if (!isSeq(platforms)) throw new Error('plugin.yaml: spec.platforms is not a list');
  const listed = manifestPlatforms(templateText);
  platforms.items = platforms.items.filter((item, i) => {
    const target = listed[i]?.target;
    const sha256 = target && sha256ByTarget.get(targetName(target));
    if (!target || !sha256 || !isMap(item)) return false;
    item.set('uri', releaseUrl(version, target));
    item.set('sha256', sha256);
    return true;
  });
  // The template's note about placeholder checksums does not apply to the rendered manifest.
  platforms.commentBefore = undefined;
  const spec = doc.get('spec');
  if (isMap(spec)) spec.items.forEach((pair) => Object.assign(pair.key ?? {}, { commentBefore: undefined }));
  return doc.toString({ lineWidth: 0 });
}

/**
 * krew/.krew.yaml from the committed plugin.yaml, line for line: the version becomes `{{ .TagName }}`
 * and each `uri:` + `sha256:` pair becomes krew-release-bot's `addURIAndSha` call, which downloads
 * the release asset and writes both lines back. The bot's helper assumes a 4-space indent;
 * `| indent N` fixes other depths (pkg/source/template.go in rajatjindal/krew-release-bot). Comment
 * lines, which are about the template, are dropped so they do not reach krew-index.
 */
export function krewReleaseBotTemplate(pluginYamlText: string, version: string): string {
  const versionLine = new RegExp(`^(  version: )${escapeRegExp(version)}$`, 'm');
  if (!versionLine.test(pluginYamlText)) throw new Error(`plugin.yaml: no "  version: ${version}" line`);
  let calls = 0;
  const template = pluginYamlText
    .replace(/^ *#.*\n/gm, '')
    .replace(versionLine, '$1{{ .TagName }}')
    .replace(/^( +)uri: (\S+)\n\1sha256: .*$/gm, (_line, indent: string, uri: string) => {
      calls += 1;
      const url = uri.replaceAll(version, '{{ .TagName }}');
      const fix = indent.length === 4 ? '' : ` | indent ${indent.length}`;
      return `${indent}{{addURIAndSha "${url}" .TagName${fix} }}`;
    });
  const expected = manifestPlatforms(pluginYamlText).length;
  if (calls !== expected) throw new Error(`plugin.yaml: ${calls} uri/sha256 pairs for ${expected} platforms`);
  return template;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
