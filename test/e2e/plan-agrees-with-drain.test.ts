import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { tally, type Tally } from '../../scripts/fidelity/compare.js';
import { eventually, kubectl, kubectlJson, labEnv, seedScenario } from './lab.js';

// The planner's promise, checked against the real thing: plan a scenario live, then let the lab's
// own kubectl drain (or a NoExecute taint) act, and compare which pods were admitted at once, which
// waited for their budget, which replacements stayed Pending and when the taint deleted each pod.
// The same drains and taint are also the proof that the lab is a real control plane (the scheduler,
// the disruption controller and the taint-eviction controller behave as in a cluster): each test
// checks that too, instead of a second file seeding and draining the same scenario again.

const bin = path.resolve(import.meta.dirname, '../../bin/kubectl-maint.js');

interface PodPlan {
  namespace: string;
  name: string;
  action: string;
  outcome: 'immediate' | 'waits' | 'blocked' | null;
  replacement: { schedulable: boolean; placedOn: string | null; message: string } | null;
  noExecute: { afterSeconds: number | null };
}
interface Plan {
  verdict: string;
  pods: PodPlan[];
}
interface PodList {
  items: Array<{
    metadata: { name: string; deletionTimestamp?: string; labels?: Record<string, string> };
    spec: { nodeName?: string };
    status: { phase: string; conditions?: Array<{ type: string; status: string; message?: string }> };
  }>;
}

async function planLive(args: string[]): Promise<Plan> {
  const env = await labEnv();
  const r = await execa(process.execPath, [bin, 'plan', ...args, '-o', 'json'], {
    reject: false,
    env: { ...process.env, KUBECONFIG: env.KUBECONFIG },
  });
  if (r.exitCode !== 0 && r.exitCode !== 3) throw new Error(`plan failed (${r.exitCode}): ${r.stderr}`);
  return JSON.parse(String(r.stdout)) as Plan;
}

/** What kubectl drain printed, per pod: evicted at the first try, refused by the budget first, or never evicted. */
function admissions(output: string, pods: readonly string[]): Tally {
  const refused = (name: string) => output.includes(`error when evicting pods/"${name}"`);
  const evicted = (name: string) => output.includes(`pod/${name} evicted`);
  return tally(pods.map((p) => (evicted(p) ? (refused(p) ? 'waits' : 'immediate') : 'blocked')));
}

/** The plan's outcomes of the demo pods, counted as admissions are (the fidelity harness's comparison). */
const planned = (plan: Plan) => tally(plan.pods.filter((p) => p.namespace === 'demo').map((p) => p.outcome));

const isReady = (pod: PodList['items'][number]) =>
  pod.status.phase === 'Running' && pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');

describe('the plan agrees with what the lab then does', () => {
  it('hello: one pod admitted at once, one after waiting for the budget (kubectl drain waits for it and drains the node), replacements Ready on k8s-node-2', async () => {
    await seedScenario('hello');
    const plan = await planLive(['k8s-node-1', '--ignore-daemonsets']);
    expect(plan.verdict).toBe('slow');
    const hello = plan.pods.filter((p) => p.namespace === 'demo').map((p) => p.name);

    const drain = await kubectl(['drain', 'k8s-node-1', '--ignore-daemonsets', '--delete-emptydir-data'], {
      all: true,
    });
    // Which of the two pods wins the budget is a race between kubectl's concurrent evictions, so the
    // counts are compared, not the names.
    expect(admissions(String(drain.all), hello)).toEqual(planned(plan));
    expect(drain.all).toContain("Cannot evict pod as it would violate the pod's disruption budget");
    expect(String(drain.all).trim().split('\n').at(-1)).toBe('node/k8s-node-1 drained');
    const placed = new Set(plan.pods.filter((p) => p.namespace === 'demo').map((p) => p.replacement?.placedOn));
    // kubectl drain returns once the last evicted pod is gone; that pod's replacement, created at its
    // eviction, may still be Pending or unready then (the scheduler and KWOK lag on a loaded machine).
    const after = await eventually(
      async () => {
        const pods = await kubectlJson<PodList>(['get', 'pods', '-n', 'demo']);
        const live = pods.items.filter((p) => p.metadata.labels?.app === 'hello' && !p.metadata.deletionTimestamp);
        return live.length === 4 && live.every(isReady) ? pods : undefined;
      },
      60_000,
      'four hello pods Ready after the drain',
    );
    const nodesNow = new Set(after.items.filter((p) => !p.metadata.deletionTimestamp).map((p) => p.spec.nodeName));
    expect(nodesNow).toEqual(placed);

    const live = after.items.filter((p) => p.metadata.labels?.app === 'hello' && !p.metadata.deletionTimestamp);
    expect(live).toHaveLength(4);
    for (const pod of live) expect(pod.spec.nodeName).toBe('k8s-node-2');
  });

  it('hello-ignore: one pod admitted, its replacement Pending on topology spread with the predicted message, the other never evicted: kubectl drain gives up', async () => {
    await seedScenario('hello-ignore');
    const plan = await planLive(['k8s-node-1', '--ignore-daemonsets']);
    expect(plan.verdict).toBe('blocked');
    const hello = plan.pods.filter((p) => p.namespace === 'demo').map((p) => p.name);
    // Every pod a controller recreates has its replacement judged, the never-evicted one too;
    // the one the drain admits is the one whose replacement the lab leaves Pending.
    const demoPods = plan.pods.filter((p) => p.namespace === 'demo');
    expect(demoPods.every((p) => p.replacement !== null)).toBe(true);
    const unschedulable = demoPods.filter(
      (p) => p.outcome !== 'blocked' && p.replacement && !p.replacement.schedulable,
    );
    expect(unschedulable).toHaveLength(1);

    // kubectl drain retries the refused eviction every 5 s until its timeout: 15 s sees it refused several
    // times, and the admitted pod's replacement created and judged by the scheduler meanwhile.
    const drain = await kubectl(
      ['drain', 'k8s-node-1', '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=15s'],
      { all: true, reject: false },
    );
    expect(drain.exitCode).not.toBe(0);
    expect(drain.all).toContain('global timeout reached: 15s');
    expect(admissions(String(drain.all), hello)).toEqual(planned(plan));
    const pending = (await kubectlJson<PodList>(['get', 'pods', '-n', 'demo'])).items.filter(
      (p) => p.status.phase === 'Pending',
    );
    expect(pending).toHaveLength(1);
    const scheduled = pending[0]!.status.conditions?.find((c) => c.type === 'PodScheduled');
    expect(scheduled?.status).toBe('False');
    expect(scheduled?.message).toContain("didn't match pod topology spread constraints");
    expect(scheduled?.message).toBe(unschedulable[0]!.replacement!.message);
  });

  it('patient: the taint deletes each pod when the plan says (0 s, 30 s, never), as its TaintManagerEviction events record', async () => {
    await seedScenario('patient');
    const plan = await planLive(['k8s-node-2', '--ignore-daemonsets', '--force', '--taint', 'maintenance=now']);
    const predicted = Object.fromEntries(plan.pods.map((p) => [p.name, p.noExecute.afterSeconds]));
    expect(predicted).toMatchObject({ patient: 30, 'impatient-a': 0, 'impatient-b': 0 });

    const watched = Object.keys(predicted);
    const taintedAt = Date.now();
    await kubectl(['taint', 'node', 'k8s-node-2', 'maintenance=now:NoExecute']);
    // A pod counts as deleted from the first poll that sees it terminating or already gone (a 1 s grace
    // period can end between two polls).
    const deletedAfter = new Map<string, number>();
    await eventually(
      async () => {
        const pods = await kubectlJson<PodList>(['get', 'pods', '-A', '--field-selector', 'spec.nodeName=k8s-node-2']);
        const now = (Date.now() - taintedAt) / 1000;
        const alive = new Set(pods.items.filter((p) => !p.metadata.deletionTimestamp).map((p) => p.metadata.name));
        for (const name of watched) if (!alive.has(name) && !deletedAfter.has(name)) deletedAfter.set(name, now);
        return deletedAfter.has('patient');
      },
      60_000,
      'the patient pod to be deleted',
    );
    for (const [name, seconds] of Object.entries(predicted)) {
      if (seconds === null) {
        expect(deletedAfter.has(name), `${name} is never deleted`).toBe(false);
      } else {
        // Observed by polling (each poll runs kubectl), plus the controllers' own reaction time.
        expect(deletedAfter.get(name), name).toBeGreaterThanOrEqual(seconds - 1);
        expect(deletedAfter.get(name), name).toBeLessThan(seconds + 8);
      }
    }

    // The taint-eviction controller's own record: intolerant pods at once, the patient one about 30 s later.
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
