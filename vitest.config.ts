import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { E2E_LABS } from './test/e2e/lab.js';

// Two projects: `unit` runs pure code on fixtures; `e2e` runs against the lab control plane, which its
// global setup starts once (and fails the run loudly when it cannot).
export default defineConfig({
  // Under CI, vitest's record of each file's last duration is kept with the other warm caches (a clean
  // clone has no node_modules/.vite), so the next run starts the longest e2e files first and the labs
  // finish together, instead of one lab waiting out a long file that happened to start last.
  ...(process.env.CI ? { cacheDir: path.join(os.homedir(), '.cache', 'kubectl-maint', 'vite') } : {}),
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
          // A guard against hangs, not a speed check: some unit tests start the CLI or run hundreds of
          // seeded property runs, which take several times longer on a loaded 2-core CI machine.
          testTimeout: 60_000,
          // The same guard for setup hooks: a few make a throwaway PKI with openssl, which took over
          // vitest's 10 s default on a 2-core machine at load 25 (ci-under-load).
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.{ts,tsx}'],
          environment: 'node',
          globalSetup: ['test/e2e/global-setup.ts'],
          // Files run in parallel, one per lab (test/e2e/lab.ts: a lab per worker, E2E_LABS of them).
          maxWorkers: E2E_LABS,
          testTimeout: 240_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
