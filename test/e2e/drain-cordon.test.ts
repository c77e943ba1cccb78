import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, seedScenario } from './lab.js';
import { runMaint, unschedulable } from './drain-run.js';

// `kubectl maint cordon` / `uncordon`: kubectl's output, exit codes and --dry-run, on the lab's nodes.

describe('kubectl maint cordon and uncordon', () => {
  beforeAll(async () => {
    await seedScenario('hello');
  });

  afterAll(async () => {
    await kubectl(['uncordon', 'k8s-node-2']);
  });

  it('cordons, says so again without a change, and uncordons, in kubectl words', async () => {
    await kubectl(['uncordon', 'k8s-node-2']);
    expect((await runMaint(['cordon', 'k8s-node-2'])).stdout).toBe('node/k8s-node-2 cordoned');
    expect(await unschedulable('k8s-node-2')).toBe(true);
    expect((await runMaint(['cordon', 'k8s-node-2'])).stdout).toBe('node/k8s-node-2 already cordoned');
    expect((await runMaint(['uncordon', '-l', 'kubernetes.io/hostname=k8s-node-2'])).stdout).toBe(
      'node/k8s-node-2 uncordoned',
    );
    expect(await unschedulable('k8s-node-2')).toBe(false);
  });

  it('--dry-run=server and --dry-run change nothing', async () => {
    expect((await runMaint(['cordon', 'k8s-node-2', '--dry-run=server'])).stdout).toBe(
      'node/k8s-node-2 cordoned (server dry run)',
    );
    expect((await runMaint(['cordon', 'k8s-node-2', '--dry-run'])).stdout).toBe('node/k8s-node-2 cordoned (dry run)');
    expect(await unschedulable('k8s-node-2')).toBe(false);
  });

  it('changes nothing when a node is not found, as kubectl (which reads every node first), exit 1', async () => {
    await kubectl(['uncordon', 'k8s-node-2']);
    // kubectl itself, on the same control plane: the unknown node second, the known one is left as it was.
    await kubectl(['cordon', 'k8s-node-2', 'k8s-node-9']).catch(() => undefined);
    expect(await unschedulable('k8s-node-2')).toBe(false);

    const run = await runMaint(['cordon', 'k8s-node-2', 'k8s-node-9']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe(
      [
        'error: node "k8s-node-9" not found (list nodes with: kubectl get nodes)',
        'error: a node could not be read: no node was cordoned',
      ].join('\n'),
    );
    expect(run.stdout).toBe('');
    expect(await unschedulable('k8s-node-2')).toBe(false);
  });
});
