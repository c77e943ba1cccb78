import { describe, expect, it } from 'vitest';
import { eventually, kubectl, kubectlJson, seedScenario } from './lab.js';

// Proof that the lab is a real control plane: the scheduler, the disruption controller and the
// taint-eviction controller behave as in a cluster, which is what kubectl maint predicts.

interface PodList {
  items: Array<{
    metadata: { name: string; namespace: string; deletionTimestamp?: string };
    spec: { nodeName?: string };
    status: { phase: string; conditions?: Array<{ type: string; status: string; message?: string }> };
  }>;
}

const isReady = (pod: PodList['items'][number]) =>
  pod.status.phase === 'Running' && pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');

describe('the lab control plane', () => {
  it('reports a stamped Kubernetes version to kubectl version', async () => {
    const { stdout } = await kubectl(['version', '-o', 'json']);
    const version = JSON.parse(String(stdout));
    expect(version.serverVersion.gitVersion).toMatch(/^v1\.\d+\.\d+$/);
    expect(version.clientVersion.gitVersion).toBe(version.serverVersion.gitVersion);
  });

  it('hello: kubectl drain waits for the budget, drains the node, and the pods run on k8s-node-2', async () => {
    await seedScenario('hello');
    const drain = await kubectl(['drain', 'k8s-node-1', '--ignore-daemonsets', '--delete-emptydir-data'], {
      all: true,
    });
    expect(drain.all).toContain("Cannot evict pod as it would violate the pod's disruption budget");
    expect(String(drain.all).trim().split('\n').at(-1)).toBe('node/k8s-node-1 drained');

    const hello = await kubectlJson<PodList>(['get', 'pods', '-n', 'demo', '-l', 'app=hello']);
    const live = hello.items.filter((p) => !p.metadata.deletionTimestamp);
    expect(live).toHaveLength(4);
    for (const pod of live) {
      expect(pod.spec.nodeName).toBe('k8s-node-2');
      expect(isReady(pod)).toBe(true);
    }
  });

  it('hello-ignore: the replacement stays Pending on topology spread and kubectl drain gives up', async () => {
    await seedScenario('hello-ignore');
    const drain = await kubectl(
      ['drain', 'k8s-node-1', '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=60s'],
      { all: true, reject: false },
    );
    expect(drain.exitCode).not.toBe(0);
    expect(drain.all).toContain('global timeout reached: 1m0s');

    const pods = await kubectlJson<PodList>(['get', 'pods', '-n', 'demo', '-l', 'app=hello']);
    const pending = pods.items.filter((p) => p.status.phase === 'Pending');
    expect(pending).toHaveLength(1);
    const scheduled = pending[0]!.status.conditions?.find((c) => c.type === 'PodScheduled');
    expect(scheduled?.status).toBe('False');
    expect(scheduled?.message).toContain("didn't match pod topology spread constraints");
  });

  it('patient: a NoExecute taint deletes intolerant pods at once and the patient pod about 30 s later', async () => {
    await seedScenario('patient');
    const taintedAt = Date.now();
    await kubectl(['taint', 'node', 'k8s-node-2', 'maintenance=now:NoExecute']);

    const events = await eventually(
      async () => {
        const list = await kubectlJson<{
          items: Array<{
            reason: string;
            involvedObject: { name: string };
            eventTime?: string;
            firstTimestamp?: string;
            lastTimestamp?: string;
          }>;
        }>(['get', 'events', '-n', 'patient', '--field-selector', 'reason=TaintManagerEviction']);
        const names = new Set(list.items.map((e) => e.involvedObject.name));
        return names.has('patient') && names.has('impatient-a') && names.has('impatient-b') ? list.items : undefined;
      },
      90_000,
      'TaintManagerEviction events for all three pods',
    );
    const at = (name: string) => {
      const e = events.find((x) => x.involvedObject.name === name)!;
      // lastTimestamp: the controller-manager's event recorder reuses firstTimestamp from earlier events
      // of a pod with the same name (it counts repeats), so only the last occurrence is this run's.
      return Date.parse(e.lastTimestamp ?? e.eventTime ?? '') - taintedAt;
    };
    // Event times have one-second resolution: allow for it.
    expect(at('impatient-a')).toBeLessThan(5_000);
    expect(at('impatient-b')).toBeLessThan(5_000);
    expect(at('patient')).toBeGreaterThan(27_000);
    expect(at('patient')).toBeLessThan(40_000);

    const left = await eventually(
      async () => {
        const pods = await kubectlJson<PodList>(['get', 'pods', '-n', 'patient']);
        return pods.items.length === 0 ? pods : undefined;
      },
      30_000,
      'the patient namespace to be empty',
    );
    expect(left.items).toEqual([]);
  });
});
