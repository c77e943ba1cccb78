// `npm run release -- --version vX.Y.Z`: see run-release.ts (or `npm run release -- --help`).
//
// Node runs this file with its built-in type stripping, which loads `.ts` files but does not map the
// repository's NodeNext-style `./x.js` imports to their `./x.ts` sources, as tsc and vitest do. This
// hook does exactly that for relative imports that fail as written, before anything else loads.
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (err) {
      if (!specifier.startsWith('.') || !specifier.endsWith('.js')) throw err;
      return nextResolve(`${specifier.slice(0, -'.js'.length)}.ts`, context);
    }
  },
});

const { runRelease } = await import('./run-release.js');
try {
  process.exitCode = await runRelease(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`release: error: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
