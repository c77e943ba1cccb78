import path from 'node:path';
import { describe, expect, it, onTestFailed } from 'vitest';
import { checkCluster } from '../../scripts/fidelity/harness.js';
import { labEnv } from './lab.js';

// The fidelity harness on a few generated clusters (npm run fidelity runs as many as asked): each is
// seeded in this worker's lab, its busiest node planned, then drained for real, and the plan must agree
// with what the cluster did, fact by fact (scripts/fidelity/compare.ts). The seeds are fixed; the
// figure of a large run is in docs/fidelity.md.

/** Clusters whose drains finish (a blocked one waits out its timeout): about 15 s each in the lab. */
const SEEDS = [2, 3, 4];

/**
 * Longer than the harness's own bounds (a seed's step 240 s, the replacements 360 s), so a cluster that
 * does not settle fails with the harness's reason rather than the test's timeout.
 */
const TEST_TIMEOUT_MS = 600_000;

describe('the plan agrees with a real drain of generated clusters (scripts/fidelity)', () => {
  it.each(SEEDS)(
    'seed %i: every fact the plan states, the cluster does',
    async (seed) => {
      const env = await labEnv();
      // The harness's progress, in the failure's first line (what CI prints) and in full on stderr.
      const started = Date.now();
      const progress: string[] = [];
      const log = (line: string) => progress.push(`${((Date.now() - started) / 1000).toFixed(1)} s ${line}`);
      onTestFailed(() => console.error([`fidelity seed ${seed}, its progress:`, ...progress].join('\n  ')));
      const lab = { kubeconfig: env.KUBECONFIG, kubectl: path.join(env.labBin, 'kubectl') };
      const result = await checkCluster(seed, lab, { log });
      expect(result.error, `seed ${seed} (${progress.join(' | ')})`).toBeUndefined();
      expect(result.settled).toBe(true);
      expect(result.facts.length).toBeGreaterThan(0);
      expect(result.facts.filter((f) => !f.agree)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
