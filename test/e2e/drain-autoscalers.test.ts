import { describe, expect, it } from 'vitest';
import { auditMark, maintWritesSince } from './audit.js';
import { planRun, runMaint, setHelloMaxUnavailable, waitingPods } from './drain-run.js';
import { helloOnNode1, kubeconfigFor, watchDrain } from './faults/faults.js';
import { kubectl, kubectlJson, labEnv, seedScenario } from './lab.js';
import { connect } from '../../src/cli/kube-connect.js';
import { recordNodeEvents } from '../../src/kube/node-events.js';
import {
  autoscalerAnnotations,
  KARPENTER,
  maintNodeEvents,
  maintNodeTrail,
  RECORD,
  SCALE_DOWN,
} from './node-maintenance.js';

// A drain lives with the cluster's autoscalers and leaves a trail: its cordon sets cluster-autoscaler's
// and Karpenter's annotations (recording which it set), `kubectl maint uncordon` gives back exactly those,
// and `kubectl describe node` shows what the drain and the uncordon did. Pods that asked autoscalers not to disrupt them are
// named by the plan, and evicted anyway, as kubectl drain does.

const DRAIN = ['drain', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json'];

describe('drain and the autoscalers', () => {
  it('the cordon sets what the node lacks, uncordon gives back only that; the plan names the pod that asked not to be disrupted', async () => {
    await seedScenario('hello');
    // The node had Karpenter's annotation before: it is not the drain's, and stays.
    await kubectl(['annotate', 'node', 'k8s-node-1', `${KARPENTER}=true`]);
    const [pod] = await helloOnNode1();
    await kubectl(['annotate', 'pod', '-n', 'demo', pod!.name, 'cluster-autoscaler.kubernetes.io/safe-to-evict=false']);

    const plan = await planRun(['k8s-node-1', '--ignore-daemonsets', '-o', 'json']);
    const planned = JSON.parse(plan.stdout) as { pods: Array<{ name: string; disruptionOptOut?: unknown }> };
    expect(planned.pods.filter((p) => p.disruptionOptOut).map((p) => [p.name, p.disruptionOptOut])).toEqual([
      [
        pod!.name,
        {
          annotations: ['cluster-autoscaler.kubernetes.io/safe-to-evict: "false"'],
          text: 'asked not to be disrupted (cluster-autoscaler.kubernetes.io/safe-to-evict: "false"): autoscalers leave it alone, kubectl drain evicts it anyway',
        },
      ],
    ]);
    const text = await planRun(['k8s-node-1', '--ignore-daemonsets']);
    expect(text.stdout).toMatch(
      new RegExp(
        `Asked not to be disrupted \\(1\\): autoscalers leave these pods alone, kubectl drain evicts them anyway\\n\\s+demo/${pod!.name}\\s+cluster-autoscaler.kubernetes.io/safe-to-evict: "false"`,
      ),
    );

    const mark = await auditMark();
    const drained = await runMaint(DRAIN);
    expect(drained.exitCode, drained.stderr).toBe(0);
    expect((await maintWritesSince(mark)).evicted[`demo/${pod!.name}`]).toBe(1);
    expect(await autoscalerAnnotations('k8s-node-1')).toEqual({
      [SCALE_DOWN]: 'true',
      [KARPENTER]: 'true',
      [RECORD]: JSON.stringify({ [SCALE_DOWN]: null }),
    });
    // What `kubectl describe node` lists of kubectl-maint's events.
    expect(await maintNodeTrail('k8s-node-1')).toEqual([
      expect.stringMatching(/^Normal Cordoned: cordoned by kubectl maint drain \(\S+@\S+ pid \d+\)$/),
      expect.stringMatching(/^Normal Drained: drained by kubectl maint drain \(\S+@\S+ pid \d+\): 2 pods removed$/),
    ]);

    const uncordoned = await runMaint(['uncordon', 'k8s-node-1']);
    expect(uncordoned.stdout).toBe('node/k8s-node-1 uncordoned');
    expect(uncordoned.stderr).toBe('');
    expect(await autoscalerAnnotations('k8s-node-1')).toEqual({ [KARPENTER]: 'true' });
    // The uncordon ends the trail; one of a node uncordoned already adds nothing.
    expect((await runMaint(['uncordon', 'k8s-node-1'])).stdout).toBe('node/k8s-node-1 already uncordoned');
    expect((await maintNodeTrail('k8s-node-1')).slice(2)).toEqual([
      expect.stringMatching(/^Normal Uncordoned: uncordoned by kubectl maint uncordon \(\S+@\S+ pid \d+\)$/),
    ]);
  });

  it('a drain interrupted and run again keeps the first record; uncordon leaves none; a user who may not write events gets one warning', async () => {
    await seedScenario('hello');
    await setHelloMaxUnavailable(0);
    const drain = await watchDrain(DRAIN);
    await drain.until(({ events }) => waitingPods(events).size === 2, 'both hello pods waiting for their budget');
    drain.kill('SIGINT');
    expect((await drain.finish()).exitCode).toBe(130);
    const record = {
      [SCALE_DOWN]: 'true',
      [KARPENTER]: 'true',
      [RECORD]: JSON.stringify({ [SCALE_DOWN]: null, [KARPENTER]: null }),
    };
    expect(await autoscalerAnnotations('k8s-node-1')).toEqual(record);
    const trail = await maintNodeTrail('k8s-node-1');
    expect(trail).toEqual([
      expect.stringMatching(/^Normal Cordoned: /),
      expect.stringMatching(
        /^Normal DrainInterrupted: .* interrupted with 2 pods still on the node; the node stays cordoned$/,
      ),
    ]);

    // Run again by another operator, who may drain but not write events: it finishes, warns once about the
    // events, and changes neither the node's annotations nor its trail.
    await setHelloMaxUnavailable(1);
    const again = await runMaint(DRAIN, { kubeconfig: await kubeconfigFor('drainer') });
    expect(again.exitCode, again.stderr).toBe(0);
    const warnings = again.events.filter((e) => e.type === 'warning').map((e) => e.type === 'warning' && e.message);
    expect(warnings).toEqual([
      expect.stringMatching(/^cannot record events on the nodes \(forbidden: .*\): going on without them$/),
    ]);
    expect(await autoscalerAnnotations('k8s-node-1')).toEqual(record);
    expect(await maintNodeTrail('k8s-node-1')).toEqual(trail);

    expect((await runMaint(['uncordon', 'k8s-node-1'])).exitCode).toBe(0);
    expect(await autoscalerAnnotations('k8s-node-1')).toEqual({});
    expect(
      (await kubectlJson<{ spec: { unschedulable?: boolean } }>(['get', 'node', 'k8s-node-1'])).spec.unschedulable,
    ).toBeUndefined();
  });

  it('one event per step: the same step again on the same node raises its series count', async () => {
    await seedScenario('hello');
    const warnings: string[] = [];
    const recorder = recordNodeEvents(await connect({ kubeconfig: (await labEnv()).KUBECONFIG }), (w) =>
      warnings.push(w),
    );
    const step = {
      node: 'k8s-node-2',
      type: 'Normal',
      reason: 'Cordoned',
      action: 'Cordon',
      // Events outlive a reseed of the lab: this test's own are told apart by their note.
      note: `cordoned by the test of ${new Date().toISOString()}`,
    } as const;
    recorder.record(step);
    recorder.record(step);
    recorder.record(step);
    await recorder.flush(60_000);
    expect(warnings).toEqual([]);
    const events = await kubectlJson<{
      items: Array<{
        reason: string;
        note?: string;
        reportingController?: string;
        series?: { count: number };
        regarding?: { kind: string; name: string };
      }>;
    }>(['get', 'events.v1.events.k8s.io', '-n', 'default']);
    const ours = events.items.filter((e) => e.note === step.note);
    expect(ours.map((e) => [e.reportingController, e.reason, e.regarding?.kind, e.series?.count])).toEqual([
      ['kubectl-maint', 'Cordoned', 'Node', 3],
    ]);
    expect((await maintNodeEvents('k8s-node-2')).filter((e) => e.message === step.note)).toEqual([
      {
        type: 'Normal',
        reason: 'Cordoned',
        age: expect.stringMatching(/^\S+ \(x3 over \S+\)$/),
        from: 'kubectl-maint',
        message: step.note,
      },
    ]);
  });
});
