import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { versionReport, versionText, type VersionReport } from '../../../src/cli/commands/version.js';
import { renderJson, renderYaml } from '../../../src/ui/document.js';
import { buildInfo } from '../../../src/version.js';

const REPO = resolve(import.meta.dirname, '../../..');
const PACKAGE_VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

const release: VersionReport = {
  kind: 'Version',
  apiVersion: 'maint.kubectl.io/v1alpha1',
  version: 'v1.2.3',
  build: 'release',
  commit: '0123456789abcdef0123456789abcdef01234567',
  buildDate: '2026-11-29T19:45:12Z',
  node: 'v26.10.0',
  platform: 'linux/amd64',
  singleExecutable: true,
};
const dev: VersionReport = { ...release, build: 'dev', commit: null, buildDate: null, singleExecutable: false };

describe('kubectl maint version', () => {
  it("from source reports package.json's version as a dev build", () => {
    expect(buildInfo()).toEqual({ version: `v${PACKAGE_VERSION}`, build: 'dev', commit: null, buildDate: null });
    expect(versionReport()).toMatchObject({ kind: 'Version', node: process.version, singleExecutable: false });
  });

  it.each([
    [
      'a release with its commit, build date and single-executable runtime',
      release,
      [
        'Build:    release',
        `Commit:   ${release.commit}`,
        'Built:    2026-11-29T19:45:12Z',
        'Runtime:  Node.js v26.10.0, single executable',
      ],
    ],
    [
      'a dev build without commit or build date',
      dev,
      ['Build:    dev (running from source)', 'Runtime:  Node.js v26.10.0'],
    ],
  ])('prints %s', async (_case, report, middle) => {
    const lines = ['Version:  v1.2.3', ...middle, 'Platform: linux/amd64', ''];
    expect(versionText(report)).toBe(lines.join('\n'));
  });

  it.each([
    ['json', (text: string): unknown => JSON.parse(text)],
    ['yaml', (text: string): unknown => parse(text)],
  ] as const)('-o %s prints the whole report, nulls included, as one document', async (format, read) => {
    const text = format === 'json' ? renderJson(dev) : renderYaml(dev);
    expect(text.endsWith('\n')).toBe(true);
    expect(read(text)).toEqual(dev);
  });
});
