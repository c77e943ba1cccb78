#!/usr/bin/env node
// Entry point for `kubectl maint` when run from source or an npm install (the krew release is a single
// executable with its own runtime). The code lives in dist/, built by `npm run build`.
//
// This file is kept to what any Node.js since 14 can run: it may be started by an older `node` on PATH.

const major = Number(process.versions.node.split('.')[0]);
if (major < 26) {
  // @kubernetes/client-node 2 cannot even load on older runtimes. From a source checkout, the project's
  // pinned Node.js sits in node_modules: run this same file with it instead of refusing.
  const { runWithPinnedNode } = await import('./pinned-node.js');
  if (!(await runWithPinnedNode(import.meta.url))) {
    process.stderr.write(
      `error: kubectl-maint needs Node.js 26 or newer, this is ${process.version}; ` +
        'run it through npm (npm start -- ARGS) which uses the pinned runtime, or install the krew binary\n',
    );
    process.exit(1);
  }
} else {
  // Started by an older Node.js through runWithPinnedNode: its signals, and its death, are ours too.
  if (process.env.KUBECTL_MAINT_PINNED_NODE && process.channel) (await import('./pinned-node.js')).followParent();
  // V8's compiled code for dist/ and node_modules, kept on disk between runs (Node's module compile
  // cache, in the OS temp dir): start-up skips most of the parsing and compiling. node:module taken as a
  // built-in, not imported: an ESM import builds a facade of its every export (2 ms of a cordon).
  process.getBuiltinModule('node:module').enableCompileCache?.();
  // `npm run build` writes the CLI bundled into chunks (dist/bundle/, scripts/build-bundle.ts): a command
  // loads a few files instead of hundreds of modules. tsc's output alone (dist/cli/) runs too.
  const { main } = await import('../dist/bundle/kubectl-maint.js').catch((err) =>
    err && err.code === 'ERR_MODULE_NOT_FOUND' && /dist[\\/]bundle[\\/]kubectl-maint\.js/.test(String(err.message))
      ? import('../dist/cli/entry.js')
      : Promise.reject(err),
  );
  process.exitCode = await main(process.argv.slice(2));
}
