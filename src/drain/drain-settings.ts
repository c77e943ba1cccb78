import type { DrainOptions, DrainPlan, PlanOptions } from '../plan/types.js';
import { surgeSelects } from '../plan/surge.js';
import type { Snapshot } from '../snapshot/types.js';
import type { DrainRequest } from './drain-request.js';
import { latePodsClassifier } from './late-pods.js';
import { surgeRequest } from './surge-targets.js';
import { drainTargets } from './targets.js';

/**
 * Every drain flag, as `drain` and each batch of a `run` carry it out: what the plan reads (DrainOptions:
 * kubectl's pod filters, --order, --surge, --escalate-*, the comparisons) and what only the engine reads.
 * One value from the command line to the plan and the drain, recorded whole on a run's Lease.
 */
export interface DrainSettings extends DrainOptions {
  /** --grace-period: seconds, or -1 for each pod's own terminationGracePeriodSeconds. */
  readonly gracePeriodSeconds: number;
  /** --timeout in milliseconds, bounding the drain (a run: each batch's); 0 = no limit. */
  readonly timeoutMs: number;
  /** --concurrency: pods evicting or terminating at once; 0 = no limit. */
  readonly concurrency: number;
}

/** The plan's input from the settings: every DrainOptions field, none of the engine's. */
export function planOptionsOf(settings: DrainOptions, nodes: readonly string[], nowEpochSeconds: number): PlanOptions {
  const { gracePeriodSeconds: _g, timeoutMs: _t, concurrency: _c, ...options } = settings as DrainSettings;
  return { ...options, nodes, nowEpochSeconds };
}

/**
 * The engine's request for `plan` on `snapshot` with `settings`: the plan's targets, the flags the engine
 * carries out (grace period, timeout, concurrency, --escalate-*, --surge). `nodes` (default: the plan's)
 * drains only those of the plan's nodes.
 */
export function drainRequestFor(
  settings: DrainSettings,
  plan: DrainPlan,
  snapshot: Snapshot,
  rest: Pick<DrainRequest, 'dryRun' | 'signal' | 'commands'> & { readonly nodes?: readonly string[] },
): DrainRequest {
  const nodes = rest.nodes ?? plan.nodes;
  const on = new Set(nodes);
  const work = drainTargets(plan, snapshot.pods);
  const onNodes: DrainPlan = { ...plan, nodes, pods: plan.pods.filter((p) => on.has(p.node)) };
  return {
    nodes,
    targets: work.targets.filter((t) => on.has(t.ref.node)),
    skipped: work.skipped.filter((s) => on.has(s.ref.node)),
    gracePeriodSeconds: settings.gracePeriodSeconds,
    timeoutMs: settings.timeoutMs,
    concurrency: settings.concurrency,
    dryRun: rest.dryRun,
    skipWaitForDeleteTimeoutSeconds: settings.skipWaitForDeleteTimeoutSeconds,
    alreadyCordoned: new Set(snapshot.nodes.filter((n) => n.spec?.unschedulable).map((n) => n.metadata?.name ?? '')),
    escalation: settings.escalation && {
      afterMs: settings.escalation.afterSeconds * 1000,
      namespaces: settings.escalation.namespaces,
    },
    surge: surgeRequest(
      onNodes,
      snapshot.deployments,
      (deployment) => surgeSelects(settings.surge, deployment),
      snapshot.kinds.has('HorizontalPodAutoscaler') ? snapshot.autoscalers : undefined,
    ),
    signal: rest.signal,
    commands: rest.commands,
    classifyLate: latePodsClassifier(snapshot, planOptionsOf(settings, nodes, 0)),
  };
}
