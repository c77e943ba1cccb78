#!/usr/bin/env node
// Entry point for `kubectl maint` when run from source or an npm install (the krew release is a single
// executable with its own runtime). The code lives in dist/, built by `npm run build`.
const major = Number(process.versions.node.split('.')[0]);
if (major < 26) {
  // Checked before anything is imported: @kubernetes/client-node 2 cannot even load on older runtimes.
  process.stderr.write(
    `error: kubectl-maint needs Node.js 26 or newer, this is ${process.version}; ` +
      'run it through npm (npm start -- ARGS) which uses the pinned runtime, or install the krew binary\n',
  );
  process.exit(1);
}
const { main } = await import('../dist/cli/main.js');
process.exitCode = await main(process.argv.slice(2));
