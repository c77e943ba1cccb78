import { defineConfig } from 'vitest/config';

// Two projects: `unit` runs pure code on fixtures; `e2e` runs against the lab control plane, which its
// global setup starts once (and fails the run loudly when it cannot).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.{ts,tsx}'],
          environment: 'node',
          globalSetup: ['test/e2e/global-setup.ts'],
          // The e2e tests share one lab and its node names: run them one file at a time.
          fileParallelism: false,
          testTimeout: 240_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
