import type { RunOptions } from '../../../src/run/state.js';

/** A run's recorded flags as `kubectl maint run` sets them with no flag given (plus --ignore-daemonsets). */
export const RUN_OPTIONS: RunOptions = {
  ignoreDaemonsets: true,
  deleteEmptydirData: false,
  force: false,
  disableEviction: false,
  gracePeriodSeconds: -1,
  drainTimeoutMs: 0,
  concurrency: 16,
  commandTimeoutMs: 0,
  nodeReadyTimeoutMs: 600_000,
  budgetTimeoutMs: 600_000,
  expectReboot: false,
  uncordon: true,
  keepGoing: false,
};
