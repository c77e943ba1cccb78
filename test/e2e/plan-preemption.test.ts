import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planRun, runMaint } from './drain-run.js';
import { eventually, kubectl, kubectlJson, type KubeObject, seedScenario } from './lab.js';

// A replacement that fits only by preempting (lab scenario preemption): demo/critical (priority 1000,
// 1200m) on k8s-node-1; k8s-node-2 holds lowfill (priority 100, 1000m) and smalllow (priority 0, 600m).
// The plan must name the node and the victim the lab's kube-scheduler picks — lowfill, not the
// lower-priority smalllow — and say that lowfill's own replacement then finds no node, in the
// scheduler's words.

interface Victim {
  namespace: string;
  name: string;
  node: string;
  priority: number;
  controller: { kind: string; name: string } | null;
  replacement: { schedulable: boolean; placedOn: string | null; message: string } | null;
}
interface Replacement {
  schedulable: boolean;
  placedOn: string | null;
  message: string;
  preemption?: { node: string; victims: Victim[]; budgetsBroken: string[]; tiedWith: string[] };
}
interface Plan {
  verdict: string;
  verdictReasons: string[];
  outages?: Array<{ kind: string; name: string; pods: string[] }>;
  pods: Array<{ namespace: string; name: string; replacement: Replacement | null }>;
}

const pods = async (app: string) =>
  (await kubectlJson(['get', 'pods', '-n', 'demo', '-l', `app=${app}`])).items as KubeObject[];

/** The one pod of a Deployment of the scenario. */
async function onlyPod(app: string): Promise<KubeObject> {
  const [pod, ...more] = await pods(app);
  if (!pod || more.length > 0) throw new Error(`scenario: ${1 + more.length - Number(!pod)} pods of ${app}`);
  return pod;
}

describe('a replacement that fits only by preempting lower-priority pods (lab scenario preemption)', () => {
  let plan: Plan;
  let critical: KubeObject;
  let lowfill: KubeObject;
  let smalllow: KubeObject;

  beforeAll(async () => {
    await seedScenario('preemption');
    critical = await onlyPod('critical');
    lowfill = await onlyPod('lowfill');
    smalllow = await onlyPod('smalllow');
    const placed = [critical, lowfill, smalllow].map((p) => p.spec.nodeName);
    if (placed.join() !== 'k8s-node-1,k8s-node-2,k8s-node-2') throw new Error(`scenario: pods on ${placed.join()}`);
    const r = await planRun(['k8s-node-1', '--ignore-daemonsets', '-o', 'json']);
    if (r.stdout.trim() === '') throw new Error(`plan printed nothing (exit ${r.exitCode}): ${r.stderr}`);
    plan = JSON.parse(r.stdout) as Plan;
  });

  afterAll(async () => {
    await kubectl(['uncordon', 'k8s-node-1'], { reject: false });
  });

  const replacement = () => plan.pods.find((p) => p.name === critical.metadata.name)!.replacement!;

  it('the plan preempts lowfill on k8s-node-2 (putting it back leaves no room; smalllow still fits)', () => {
    expect(replacement()).toMatchObject({ schedulable: true, placedOn: 'k8s-node-2' });
    expect(replacement().preemption).toMatchObject({ node: 'k8s-node-2', tiedWith: [], budgetsBroken: [] });
    expect(replacement().preemption!.victims.map((v) => [v.name, v.priority, v.controller?.name])).toEqual([
      [lowfill.metadata.name, 100, 'lowfill'],
    ]);
  });

  it("says lowfill's own replacement finds no node, and counts it as an outage", () => {
    const own = replacement().preemption!.victims[0]!.replacement!;
    expect(own).toMatchObject({ schedulable: false, placedOn: null });
    expect(own.message).toBe(
      '0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable. ' +
        'preemption: 0/2 nodes are available: 1 Insufficient cpu, 1 Preemption is not helpful for scheduling.',
    );
    expect(plan.verdict).toBe('disruptive');
    expect(plan.outages?.map((o) => [o.kind, o.name, o.pods])).toEqual([
      ['Deployment', 'lowfill', [`demo/${lowfill.metadata.name}`]],
    ]);
    expect(plan.verdictReasons.some((r) => r.includes(`preempts demo/${lowfill.metadata.name} on k8s-node-2`))).toBe(
      true,
    );
  });

  it('drained for real, kube-scheduler preempts the same pod and puts critical on the same node', async () => {
    const drain = await runMaint(['drain', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json']);
    expect(drain.exitCode, drain.stderr).toBe(0);
    const preempted = await eventually(
      async () => {
        const events = (await kubectlJson(['get', 'events', '-n', 'demo', '--field-selector', 'reason=Preempted']))
          .items as Array<KubeObject & { involvedObject: { name: string; uid: string } }>;
        // Only this test's pods: events of the tests before it on the same lab outlive their pods.
        const ours = new Set([lowfill.metadata.uid, smalllow.metadata.uid]);
        const preempted = events.filter((e) => ours.has(e.involvedObject.uid)).map((e) => e.involvedObject.name);
        return preempted.length > 0 ? preempted : undefined;
      },
      60_000,
      'a Preempted event in demo',
    );
    expect(preempted).toEqual([lowfill.metadata.name]);
    const node = await eventually(
      async () => {
        const now = (await pods('critical')).find((p) => p.metadata.uid !== critical.metadata.uid);
        return now?.spec.nodeName;
      },
      60_000,
      'the replacement of demo/critical to be bound',
    );
    expect(node).toBe(replacement().placedOn);
  });

  it("lowfill's replacement stays Pending with the message the plan gave", async () => {
    const message = await eventually(
      async () => {
        const now = (await pods('lowfill')).find((p) => p.metadata.uid !== lowfill.metadata.uid && !p.spec.nodeName);
        const scheduled = now?.status.conditions?.find((c) => c.type === 'PodScheduled');
        return scheduled?.status === 'False' && scheduled.reason === 'Unschedulable' ? scheduled.message : undefined;
      },
      60_000,
      'the replacement of demo/lowfill to be reported unschedulable',
    );
    expect(message).toBe(replacement().preemption!.victims[0]!.replacement!.message);
  });
});
