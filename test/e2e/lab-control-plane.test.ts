import { describe, expect, it } from 'vitest';
import { kubectl } from './lab.js';

// Proof that the lab is a real control plane. That its scheduler, disruption controller and
// taint-eviction controller behave as in a cluster (kubectl drain waits for a budget and gives up on a
// Pending replacement; a NoExecute taint deletes pods at once or after tolerationSeconds) is checked on
// the same drains and taint that plan-agrees-with-drain.test.ts runs: one seed and drain each, not two.

describe('the lab control plane', () => {
  it('reports a stamped Kubernetes version to kubectl version', async () => {
    const { stdout } = await kubectl(['version', '-o', 'json']);
    const version = JSON.parse(String(stdout));
    expect(version.serverVersion.gitVersion).toMatch(/^v1\.\d+\.\d+$/);
    expect(version.clientVersion.gitVersion).toBe(version.serverVersion.gitVersion);
  });
});
