/**
 * One generated cluster, checked against the lab: seed it, plan the drain of its busiest node
 * (`kubectl maint plan NODE --ignore-daemonsets -o json`), drain that node for real (`kubectl maint drain`),
 * wait until the scheduler has settled every replacement, and compare (compare.ts). Used by
 * `npm run fidelity` (run.ts) and by the e2e test test/e2e/fidelity.test.ts.
 */
import type { DrainEvent } from '../../src/drain/events.js';
import type { DrainPlan } from '../../src/plan/types.js';
import type * as Seed from '../lab/seed.js';
import type * as Commands from './commands.js';
import type * as Compare from './compare.js';
import type * as Generate from './generate-cluster.js';
import type * as Queue from './scheduler-queue.js';
import type * as Webhooks from './webhook-server.js';
import type * as SnapshotCommand from '../../src/snapshot/snapshot-command.js';

// Imported by URL: node runs these scripts from source and resolves a .ts file only by its own name.
const load = async <T>(file: string) => (await import(new URL(file, import.meta.url).href)) as T;
const { LabApi, seedObjects } = await load<typeof Seed>('../lab/seed.ts');
const { compare } = await load<typeof Compare>('./compare.ts');
const { CLI, planDrain, run } = await load<typeof Commands>('./commands.ts');
const { generateCluster, NAMESPACE } = await load<typeof Generate>('./generate-cluster.ts');
const { SchedulerMetrics } = await load<typeof Queue>('./scheduler-queue.ts');
const { EvictionWebhooks } = await load<typeof Webhooks>('./webhook-server.ts');
// From source: the module imports nothing, so node runs it without a build (which CI makes beside the e2e run).
const { SNAPSHOT_COMMAND } = await load<typeof SnapshotCommand>('../../src/snapshot/snapshot-command.ts');

/** `kubectl get …` of every kind the plan reads (docs/planning.md's snapshot command), after `kubectl`. */
const SNAPSHOT_ARGS = SNAPSHOT_COMMAND.split(' ').slice(1);
/**
 * How long the plan's estimate (eta.ts) gives the waves it admits: until the last pod is gone, or for a
 * drain it calls blocked until its last admitted wave starts. A budget's wave can wait minutes for the
 * disruption controller (a StatefulSet's pod deleted at once), which the fixed allowances below do not cover.
 */
const estimatedSeconds = (plan: DrainPlan) =>
  Math.ceil(plan.eta?.totalSeconds ?? Math.max(0, ...(plan.eta?.waves ?? []).map((w) => w.startsAfterSeconds))) +
  (plan.eta?.uncounted ? WEBHOOK_WAIT_SECONDS : 0);
/**
 * What the plan cannot count (`eta.uncounted`: pods a webhook makes wait until its operator has moved them),
 * the harness's own webhooks bound: they refuse a pod at most 3 times, and the drain asks again within 5 s.
 */
const WEBHOOK_WAIT_SECONDS = 30;
/**
 * How long a drain the plan calls blocked is given before it is stopped: enough for the waves it admits
 * before the block (a wave takes a replacement's start to Ready, about a second in the lab) several times over.
 */
const blockedDrainTimeout = (plan: DrainPlan) =>
  `${10 + 3 * Math.max(0, ...plan.budgets.map((b) => b.waves)) + estimatedSeconds(plan)}s`;
/** …and a drain it says finishes: 90 s beyond its estimate. */
const drainTimeout = (plan: DrainPlan) => `${90 + estimatedSeconds(plan)}s`;
const POLL_MS = 250;

/** One `kubectl get -o json` List with the items of another appended. */
function withItemsOf(list: string, more: string): string {
  const a = JSON.parse(list) as { items: unknown[] };
  const b = JSON.parse(more) as { items: unknown[] };
  return JSON.stringify({ ...a, items: [...a.items, ...b.items] }, null, 4);
}

export interface Lab {
  readonly kubeconfig: string;
  /** The lab's kubectl (seedObjects renders nothing with it; a failed seed describes the lab with it). */
  readonly kubectl: string;
}

export interface ClusterResult {
  readonly seed: number;
  /** False when the generated cluster's pods could not all be placed before the drain: nothing compared. */
  readonly settled: boolean;
  readonly node?: string;
  readonly pods?: number;
  readonly verdict?: string;
  readonly facts: readonly Compare.Fact[];
  readonly notJudged: readonly string[];
  readonly error?: string;
  readonly seconds: number;
  /**
   * What was compared: the plan, the drain's events, the pods before and after (for a disagreement's
   * record); after an error, as much of it as was read.
   */
  readonly evidence?: Partial<Compare.Observation>;
  /**
   * The cluster as the plan read it, just before: the README's `kubectl get … -o json`, what `plan --snapshot`
   * reads (a disagreement is planned again from it, and becomes a regression test's fixture).
   */
  readonly snapshot?: string;
}

interface ApiPod {
  metadata: {
    name: string;
    uid: string;
    labels?: Record<string, string>;
    deletionTimestamp?: string;
    ownerReferences?: Array<{ kind: string }>;
  };
  spec?: { nodeName?: string };
  status?: {
    nominatedNodeName?: string;
    conditions?: Array<{ type: string; status: string; reason?: string; message?: string }>;
  };
}

const toState = (p: ApiPod): Compare.PodState => {
  const scheduled = p.status?.conditions?.find((c) => c.type === 'PodScheduled');
  return {
    name: p.metadata.name,
    uid: p.metadata.uid,
    app: p.metadata.labels?.app ?? '',
    daemonSet: p.metadata.ownerReferences?.some((r) => r.kind === 'DaemonSet') ?? false,
    node: p.spec?.nodeName ?? null,
    unschedulable:
      !p.spec?.nodeName &&
      scheduled?.status === 'False' &&
      scheduled.reason === 'Unschedulable' &&
      !p.status?.nominatedNodeName,
  };
};

async function pods(api: InstanceType<typeof LabApi>): Promise<ApiPod[]> {
  return (await api.list(`/api/v1/namespaces/${NAMESPACE}/pods`)) as unknown as ApiPod[];
}

/**
 * How long the replacements may take to settle before the harness reports a hang: past kube-scheduler's
 * 5-minute flush of the pods it left unschedulable (podMaxInUnschedulablePodsDuration), after which it
 * tries each of them again whatever changed, so a nomination that never resolves before then still does.
 */
const HANG_SECONDS = 360;

/** Whether the scheduler has decided about the pod: bound, or unschedulable and not nominated; else why not. */
function undecided(p: ApiPod): string | null {
  if (p.spec?.nodeName) return null;
  const scheduled = p.status?.conditions?.find((c) => c.type === 'PodScheduled');
  const nominated = p.status?.nominatedNodeName;
  if (!scheduled) return 'not yet tried by the scheduler';
  if (scheduled.status === 'False' && scheduled.reason === 'Unschedulable')
    return nominated ? `nominated to ${nominated}, not bound (${scheduled.message ?? ''})` : null;
  return `PodScheduled ${scheduled.status}${scheduled.reason ? ` (${scheduled.reason})` : ''}, not bound`;
}

/**
 * Every workload back to its replicas (the drained pods and the preempted ones replaced, the old ones gone),
 * each pod bound or left unschedulable without a nomination, and the scheduler with nothing left to try
 * (its queues empty and its counters unchanged while the pods were read), twice in a row with the same
 * pods: what it leaves unschedulable then waits for a change in the cluster that the drain no longer makes.
 * A cluster that has not got there after HANG_SECONDS is a hang, reported with what was still undecided.
 */
async function settledAfterDrain(
  api: InstanceType<typeof LabApi>,
  scheduler: InstanceType<typeof SchedulerMetrics>,
  replicas: number,
  read: (pods: ApiPod[]) => void,
): Promise<ApiPod[]> {
  const deadline = Date.now() + HANG_SECONDS * 1000;
  let previous = '';
  for (;;) {
    const queueBefore = await scheduler.read();
    const live = (await pods(api)).filter((p) => !p.metadata.deletionTimestamp);
    const queue = await scheduler.read();
    read(live);
    const open = live.flatMap((p) => {
      const why = undecided(p);
      return why === null ? [] : [`${p.metadata.name} ${why}`];
    });
    const idle = queueBefore.busy === 0 && queue.busy === 0 && queueBefore.activity === queue.activity;
    const key =
      idle && live.length === replicas && open.length === 0
        ? live
            .map((p) => `${p.metadata.uid}:${p.spec?.nodeName}`)
            .sort()
            .join() + queue.activity
        : '';
    if (key !== '' && key === previous) return live;
    previous = key;
    if (Date.now() > deadline)
      throw new Error(
        `the replacements did not settle within ${HANG_SECONDS} s: ${[
          ...open,
          ...(live.length === replicas ? [] : [`${live.length} of ${replicas} pods`]),
          `kube-scheduler: ${queue.text}`,
        ].join('; ')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export interface CheckOptions {
  readonly log?: (line: string) => void;
  /**
   * How long each step of seeding may take to settle (a rollout, every pod Ready) before the cluster is
   * given up as unplaceable; the seeding's own bound unless set. A run over many random seeds
   * (`npm run fidelity`) gives up sooner; a test of seeds known to settle keeps the seeding's bound, which
   * a loaded machine needs.
   */
  readonly settleSeconds?: number;
  /** Whether the cluster gets the admission webhooks the generator draws for it (true unless set). */
  readonly webhooks?: boolean;
}

/** The generated clusters' admission webhooks: one server for the process, its calls forgotten per cluster. */
let webhookServer: Promise<Webhooks.EvictionWebhooks> | undefined;

/** Seeds the cluster of `seed`, plans and drains its busiest node, and compares. */
export async function checkCluster(seed: number, lab: Lab, options: CheckOptions = {}): Promise<ClusterResult> {
  const { log = () => {}, settleSeconds, webhooks: withWebhooks = true } = options;
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 100) / 10;
  const webhooks = await (webhookServer ??= EvictionWebhooks.start());
  webhooks.reset();
  const cluster = generateCluster(seed, withWebhooks ? webhooks.endpoint : null);
  try {
    await seedObjects(`fidelity seed ${seed}`, cluster.steps, {
      ...lab,
      settleSeconds,
      ...(options.log ? { log } : {}),
    });
  } catch (error) {
    return {
      seed,
      settled: false,
      facts: [],
      notJudged: [],
      error: (error as Error).message.split('\n')[0]!,
      seconds: seconds(),
    };
  }
  const api = new LabApi(lab.kubeconfig);
  const scheduler = new SchedulerMetrics(lab.kubeconfig, api.client);
  // What has been read so far: the whole observation once the replacements settle, a part of it after an error.
  let evidence: Partial<Compare.Observation> = {};
  let snapshot: string | undefined;
  let workloads: number | undefined;
  try {
    const before = await pods(api);
    const workloadPods = before.filter((p) => !p.metadata.ownerReferences?.some((r) => r.kind === 'DaemonSet'));
    workloads = workloadPods.length;
    // The busiest node: the most workload pods, the first by name among equals.
    const perNode = Map.groupBy(workloadPods, (p) => p.spec?.nodeName ?? '');
    const node = [...perNode].sort(([a, x], [b, y]) => y.length - x.length || a.localeCompare(b))[0]![0];
    log(`seed ${seed}: ${cluster.nodes.length} nodes, ${workloadPods.length} pods; draining ${node}`);
    evidence = { node, before: before.map(toState) };

    const read = await run([lab.kubectl], SNAPSHOT_ARGS, { KUBECONFIG: lab.kubeconfig });
    // The policies' params (ConfigMaps of the namespace) beside the kinds the plan reads, as docs/planning.md says
    // a snapshot file holds them: without them a replay cannot judge a policy that takes params.
    const params = await run([lab.kubectl], ['get', 'configmaps', '-n', NAMESPACE, '-o', 'json'], {
      KUBECONFIG: lab.kubeconfig,
    });
    if (read.code === 0) snapshot = params.code === 0 ? withItemsOf(read.stdout, params.stdout) : read.stdout;
    const plan = await planDrain(node, { KUBECONFIG: lab.kubeconfig });
    evidence = { ...evidence, plan };
    const timeout = plan.verdict === 'blocked' ? blockedDrainTimeout(plan) : drainTimeout(plan);
    log(`seed ${seed}: plan ${plan.verdict}; draining with --timeout ${timeout}`);
    const drained = await run(CLI, ['drain', node, '--ignore-daemonsets', '--timeout', timeout, '-o', 'json'], {
      KUBECONFIG: lab.kubeconfig,
    });
    const events = drained.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as DrainEvent);
    evidence = { ...evidence, events, webhookCalls: webhooks.called() };
    if (!events.some((e) => e.type === 'finished'))
      throw new Error(`drain did not finish (exit ${drained.code}): ${drained.stderr.trim()}`);
    log(`seed ${seed}: drain finished (exit ${drained.code}) at ${seconds()} s; waiting for the replacements`);
    const after = await settledAfterDrain(api, scheduler, before.length, (last) => {
      evidence = { ...evidence, after: last.map(toState) };
    });
    const observation = {
      node,
      plan,
      events,
      before: before.map(toState),
      after: after.map(toState),
      webhookCalls: webhooks.called(),
    };
    evidence = observation;
    const { facts, notJudged } = compare(observation);
    return {
      evidence,
      ...(snapshot !== undefined ? { snapshot } : {}),
      seed,
      settled: true,
      node,
      pods: workloads,
      verdict: plan.verdict,
      facts,
      notJudged,
      seconds: seconds(),
    };
  } catch (error) {
    return {
      evidence,
      ...(snapshot !== undefined ? { snapshot } : {}),
      seed,
      settled: true,
      ...(evidence.node !== undefined ? { node: evidence.node, pods: workloads } : {}),
      ...(evidence.plan ? { verdict: evidence.plan.verdict } : {}),
      facts: [],
      notJudged: [],
      error: (error as Error).message,
      seconds: seconds(),
    };
  } finally {
    await Promise.all([api.dispatcher.close(), scheduler.close()]);
  }
}
