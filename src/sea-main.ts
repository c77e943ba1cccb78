// Main script of the single executable (scripts/release). The CLI is not in it: the bundle's entry and
// chunks (scripts/release/bundle.ts) are the executable's assets, and this loads each one the first time
// something imports it, so a command compiles and runs only its own code (`version` never touches the
// Kubernetes client or Ink). V8's code for them is kept by Node's compile cache (in the OS temp dir, or
// NODE_COMPILE_CACHE), as from source: from the second run on, start-up skips their compiling.
//
// A SEA main script may import built-in modules only; modules Node's default loader loads (through the
// hooks below) may import anything the hooks resolve, so the entry is imported through that loader.
import module from 'node:module';
import { getAsset } from 'node:sea';
import vm from 'node:vm';

declare const __KUBECTL_MAINT_ENTRY__: string;

/** The URL scheme of the bundle's files inside the executable: never a path on disk. */
const SCHEME = 'kubectl-maint-sea:';

module.enableCompileCache?.();
module.registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier.startsWith(SCHEME)) return { url: specifier, shortCircuit: true };
    // The chunks import each other as "./chunk-HASH.js".
    if (context.parentURL?.startsWith(SCHEME) && specifier.startsWith('./')) {
      return { url: `${SCHEME}${specifier.slice(2)}`, shortCircuit: true };
    }
    return nextResolve(specifier, context);
  },
  load(url, context, nextLoad) {
    if (!url.startsWith(SCHEME)) return nextLoad(url, context);
    return { format: 'module', source: getAsset(url.slice(SCHEME.length), 'utf8'), shortCircuit: true };
  },
});

dropExperimentalWarningOfTheLoader();
const importModule = new vm.Script('(specifier) => import(specifier)', {
  importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
}).runInThisContext() as (specifier: string) => Promise<{ main(argv: readonly string[]): Promise<number> }>;
const { main } = await importModule(`${SCHEME}${__KUBECTL_MAINT_ENTRY__}`);
// In a single executable argv[0] and argv[1] are both the executable's path, as under `node script.js`.
process.exitCode = await main(process.argv.slice(2));

/**
 * Node announces USE_MAIN_CONTEXT_DEFAULT_LOADER as experimental on stderr at every start (at the first
 * import through it), which would break the one-line error contract and every script reading stderr:
 * that one warning is dropped, every other one still goes through.
 */
function dropExperimentalWarningOfTheLoader(): void {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (String(warning).includes('USE_MAIN_CONTEXT_DEFAULT_LOADER')) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
}
