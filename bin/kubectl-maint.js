#!/usr/bin/env node
// Entry point for `kubectl maint` (krew links this as kubectl-maint). The code lives in dist/, built by `npm run build`.
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
