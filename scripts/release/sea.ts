import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { targetName, type Target } from './targets.js';

export interface SeaOptions {
  readonly target: Target;
  /** The executable's main script (bundle.ts bundleSeaMain). */
  readonly main: string;
  /** The CLI bundle's files (bundle.ts bundleCli), by asset name: the main script loads them on demand. */
  readonly assets: Readonly<Record<string, string>>;
  /** The Node.js binary to inject into (node-binary.ts). */
  readonly nodeBinary: string;
  /** True when the target is the platform this runs on. */
  readonly isHost: boolean;
  readonly configFile: string;
  readonly output: string;
}

/**
 * The single-executable config for `node --build-sea` (Node >= 25.7 for an ESM main). The code cache
 * is V8 data for this machine's CPU and Node build: only a build for the host may carry it, a
 * cross-built executable with one crashes (nodejs/node#52420); it covers the small main script only (the
 * chunks are compiled when first loaded, then kept by Node's compile cache). The start-up snapshot cannot
 * be combined with an ESM main.
 */
export function seaConfig(options: SeaOptions): Record<string, unknown> {
  return {
    main: options.main,
    mainFormat: 'module',
    executable: options.nodeBinary,
    output: options.output,
    disableExperimentalSEAWarning: true,
    useSnapshot: false,
    useCodeCache: options.isHost,
    assets: options.assets,
  };
}

/**
 * Writes the executable. On macOS the injected binary's signature no longer matches and the kernel
 * would kill it, so it is signed again, ad hoc, as Node's SEA documentation prescribes; that needs
 * Apple's codesign, hence darwin builds run on macOS.
 */
export function buildExecutable(options: SeaOptions): void {
  writeFileSync(options.configFile, JSON.stringify(seaConfig(options), null, 2));
  execFileSync(process.execPath, ['--build-sea', options.configFile], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (options.target.os === 'darwin') {
    if (process.platform !== 'darwin') throw new Error(`${targetName(options.target)}: signing needs macOS codesign`);
    execFileSync('codesign', ['--sign', '-', '--force', options.output], { stdio: 'inherit' });
    execFileSync('codesign', ['--verify', '--strict', options.output], { stdio: 'inherit' });
  }
}
