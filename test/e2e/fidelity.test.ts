import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCluster } from '../../scripts/fidelity/harness.js';
import { labEnv } from './lab.js';

// The fidelity harness on a few generated clusters (npm run fidelity runs as many as asked): each is
// seeded in this worker's lab, its busiest node planned, then drained for real, and the plan must agree
// with what the cluster did, fact by fact (scripts/fidelity/compare.ts). The seeds are fixed; the
// figure of a large run is in docs/fidelity.md.

/** Clusters whose drains finish (a blocked one waits out its timeout): about 15 s each in the lab. */
const SEEDS = [2, 3, 4];

describe('the plan agrees with a real drain of generated clusters (scripts/fidelity)', () => {
  it.each(SEEDS)('seed %i: every fact the plan states, the cluster does', async (seed) => {
    const env = await labEnv();
    const result = await checkCluster(seed, { kubeconfig: env.KUBECONFIG, kubectl: path.join(env.labBin, 'kubectl') });
    expect(result.error).toBeUndefined();
    expect(result.settled).toBe(true);
    expect(result.facts.length).toBeGreaterThan(0);
    expect(result.facts.filter((f) => !f.agree)).toEqual([]);
  });
});
