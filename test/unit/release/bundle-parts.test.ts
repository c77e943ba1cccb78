import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundledPackageDirs } from '../../../scripts/release/notices.js';
import { seaConfig } from '../../../scripts/release/sea.js';
import { parseTarget } from '../../../scripts/release/targets.js';

const metafile = (inputs: string[]): Metafile => ({
  inputs: Object.fromEntries(inputs.map((path) => [path, { bytes: 1, imports: [] }])),
  outputs: {},
});

describe('bundledPackageDirs', () => {
  it('names each package the bundle took code from once: plain, scoped and nested, but not our own sources', () => {
    const dirs = bundledPackageDirs(
      metafile([
        'src/cli/main.ts',
        'node_modules/ink/build/index.js',
        'node_modules/ink/build/render.js',
        'node_modules/@kubernetes/client-node/dist/index.js',
        'node_modules/wrap-ansi/node_modules/string-width/index.js',
        'scripts/release/stubs/react-devtools-core.js',
      ]),
    );
    expect(dirs).toEqual([
      'node_modules/@kubernetes/client-node',
      'node_modules/ink',
      'node_modules/wrap-ansi/node_modules/string-width',
    ]);
  });
});

describe('seaConfig', () => {
  const base = {
    main: 'm.mjs',
    assets: { 'kubectl-maint.js': 'b/kubectl-maint.js' },
    nodeBinary: 'node',
    configFile: 'c.json',
    output: 'out',
  };

  it('builds an ESM main, without the start-up snapshot, which an ESM main cannot use', () => {
    const config = seaConfig({ ...base, target: parseTarget('linux/amd64'), isHost: true });
    expect(config).toMatchObject({ main: 'm.mjs', mainFormat: 'module', useSnapshot: false, executable: 'node' });
  });

  it('carries the bundle as assets, which the main script loads on demand', () => {
    const config = seaConfig({ ...base, target: parseTarget('linux/amd64'), isHost: true });
    expect(config.assets).toEqual({ 'kubectl-maint.js': 'b/kubectl-maint.js' });
  });

  it.each([
    ['the host platform', true, true],
    ['another platform (V8 code cache of this machine would crash it)', false, false],
  ])('carries a code cache only when built for %s', (_case, isHost, useCodeCache) => {
    expect(seaConfig({ ...base, target: parseTarget('linux/arm64'), isHost }).useCodeCache).toBe(useCodeCache);
  });
});
