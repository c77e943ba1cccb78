import { createHmac, timingSafeEqual } from 'node:crypto';
import type { V1Lease, V1Node } from '@kubernetes/client-node';
import type { DrainSettings } from '../drain/drain-settings.js';
import type { RunEstimates } from './run-eta.js';

/**
 * The run's state in the cluster, so that any machine can see it and resume it:
 *
 * - one coordination.k8s.io Lease per run (`maint-run-<id>`, label `maint.kubectl.io/run`), whose
 *   holderIdentity is the process driving the run (`user@host pid N`), renewed every RENEW_SECONDS while it
 *   works and released (holder cleared) when it stops; its annotations hold the run's definition: the
 *   batches, the command, and the flags that shape the drain — everything `--resume` needs;
 * - on each node of the run, annotations: the run it belongs to (the claim), its phase, and since when;
 *   the run's definition as its Lease records it (runDefinitionAnnotation), so that a run whose Lease is
 *   lost can still be resumed;
 *   for `--expect-reboot`, the bootID it had before the command; the phase's seal (phaseSeal), so
 *   that a resume trusts only phases the run itself wrote; and every phase it went through with when
 *   (phaseHistory), for `runs show`'s timeline.
 *
 * A node claimed by a run whose Lease is held and not expired is refused to any other run; an expired or
 * released Lease can be taken over (`--resume`, or `--take-over` for another run).
 */
export const ANNOTATION = {
  run: 'maint.kubectl.io/run',
  /** On a node: the namespace of its run's Lease, for the commands that have no --state-namespace. */
  runNamespace: 'maint.kubectl.io/run-namespace',
  phase: 'maint.kubectl.io/phase',
  since: 'maint.kubectl.io/phase-since',
  bootId: 'maint.kubectl.io/boot-id-before',
  batches: 'maint.kubectl.io/batches',
  command: 'maint.kubectl.io/command',
  commandDir: 'maint.kubectl.io/command-dir',
  options: 'maint.kubectl.io/options',
  estimates: 'maint.kubectl.io/estimates',
  seal: 'maint.kubectl.io/phase-seal',
  history: 'maint.kubectl.io/phase-history',
  sealKey: 'maint.kubectl.io/seal-key',
  /** On each node of the run: the run's definition (the Lease's annotations above, as JSON), for a run whose Lease is lost. */
  definition: 'maint.kubectl.io/run-definition',
  /** On the Lease: the nodes a stopped run released once done (JSON list), which a resume leaves done. */
  released: 'maint.kubectl.io/released-done',
  /** On the Lease: each batch's command and return as the run measured them, in seconds (JSON list), for a resume's estimate. */
  commandSeconds: 'maint.kubectl.io/command-seconds',
} as const;

/** A node's run annotations, each removed (a merge patch's null): the node released from its run. */
export const RELEASED_NODE: Readonly<Record<string, null>> = {
  [ANNOTATION.run]: null,
  [ANNOTATION.runNamespace]: null,
  [ANNOTATION.phase]: null,
  [ANNOTATION.since]: null,
  [ANNOTATION.seal]: null,
  [ANNOTATION.bootId]: null,
  [ANNOTATION.history]: null,
  [ANNOTATION.definition]: null,
};

export const RUN_LABEL = 'maint.kubectl.io/run';
export const LEASE_SECONDS = 30;
export const RENEW_SECONDS = 10;

/**
 * A node's phase in a run. The order is the run's: a node only moves forward, so a resumed run starts
 * each node at its recorded phase.
 */
export const NODE_PHASES = [
  'pending',
  'draining',
  'drained',
  'command-running',
  'command-done',
  'returning',
  'returned',
  'done',
] as const;
export type ForwardPhase = (typeof NODE_PHASES)[number];
/** Where a node stops when something went wrong: it stays cordoned. */
export const FAILED_PHASES = ['drain-failed', 'command-failed', 'command-killed', 'not-returned'] as const;
export type FailedPhase = (typeof FAILED_PHASES)[number];
export type NodePhase = ForwardPhase | FailedPhase;

/** Phases a step or a condition goes by, named once. */
export type PhaseSet = ReadonlySet<NodePhase>;
const phaseSet = (...phases: readonly NodePhase[]): PhaseSet => new Set(phases);

const FAILED = phaseSet(...FAILED_PHASES);
const ALL_PHASES = phaseSet(...NODE_PHASES, ...FAILED_PHASES);

/**
 * Where a node's command did not finish (interrupted, or killed by a second Ctrl-C) or failed: a resume
 * runs it again only with --rerun-command.
 */
export const UNFINISHED_COMMAND = phaseSet('command-running', 'command-failed', 'command-killed');
/** Where a node waits to come back (its command ran): the return step goes on from here. */
export const RETURNING = phaseSet('command-done', 'returning', 'returned', 'not-returned');
/** Where the node lifecycle condition MaintenanceInProgress is True. */
const MAINTENANCE_IN_PROGRESS = phaseSet(
  'command-running',
  'command-done',
  'returning',
  'returned',
  'command-failed',
  'command-killed',
  'not-returned',
);

export function isFailedPhase(phase: NodePhase): phase is FailedPhase {
  return FAILED.has(phase);
}

/** Whether the node's command started in its run (so its output has a log): at or past it, or failed at or after it. */
export function commandRan(phase: NodePhase): boolean {
  return MAINTENANCE_IN_PROGRESS.has(phase) || reached(phase, 'command-running');
}

/** Whether `phase` is at or past `step` on the forward path. */
export function reached(phase: NodePhase, step: ForwardPhase): boolean {
  if (isFailedPhase(phase)) return false;
  return NODE_PHASES.indexOf(phase) >= NODE_PHASES.indexOf(step);
}

/** What a run is: recorded on its Lease when it starts, read back by --resume. */
export interface RunDefinition {
  readonly id: string;
  readonly batches: readonly (readonly string[])[];
  /** argv of the operator's command, its file an absolute path (resolveCommand); empty for none. */
  readonly command: readonly string[];
  /** The directory the command runs in: where the run was started (absent: where --resume runs). */
  readonly commandDir?: string | undefined;
  readonly options: RunOptions;
  /** The pool plan's estimates when the run started (absent when unreadable: a resume goes on without them). */
  readonly estimates?: RunEstimates | undefined;
  /** The key of the run's phase seals (phaseSeal), drawn when the run starts. */
  readonly sealKey?: string | undefined;
  /**
   * Nodes done when the run stopped, released then so that other runs and drains may take them: a resume
   * leaves them done whatever they carry now. Recorded on the Lease only (releasedAnnotation).
   */
  readonly released?: readonly string[] | undefined;
  /**
   * Each finished batch's command and return as the run measured them, in seconds, before it stopped: a
   * resume's estimate goes on from them. Recorded on the Lease only (commandSecondsAnnotation).
   */
  readonly commandSeconds?: readonly number[] | undefined;
}

/** The flags that shape the run, kept so that --resume drains and waits the same way. */
export interface RunOptions {
  /**
   * Every drain flag, as `drain` takes it: each batch planned and drained with them as `plan` and `drain`
   * are (--surge, --order, --escalate-*, --taint, --grace-period, --timeout per batch…).
   */
  readonly drain: DrainSettings;
  /** Milliseconds; 0 = none. */
  readonly commandTimeoutMs: number;
  /** Milliseconds to wait for a node to be Ready again. */
  readonly nodeReadyTimeoutMs: number;
  /** Milliseconds to wait for the batch's budgets to recover. */
  readonly budgetTimeoutMs: number;
  readonly expectReboot: boolean;
  readonly uncordon: boolean;
  readonly keepGoing: boolean;
  /** --pause (runs without a command): wait for the operator once each batch is drained (absent: no pause). */
  readonly pause?: boolean;
}

export const leaseName = (runId: string) => `maint-run-${runId}`;

/** A Lease's acquireTime and renewTime are MicroTime: RFC 3339 with exactly six fractional digits. */
export function microTime(ms: number): Date {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z') as unknown as Date;
}

/** The run's definition as annotations: on its Lease, and as one JSON annotation on each of its nodes. */
function definitionAnnotations(definition: RunDefinition): Record<string, string> {
  return {
    [ANNOTATION.batches]: JSON.stringify(definition.batches),
    [ANNOTATION.command]: JSON.stringify(definition.command),
    ...(definition.commandDir ? { [ANNOTATION.commandDir]: definition.commandDir } : {}),
    [ANNOTATION.options]: JSON.stringify(definition.options),
    ...(definition.estimates ? { [ANNOTATION.estimates]: JSON.stringify(definition.estimates) } : {}),
    ...(definition.sealKey ? { [ANNOTATION.sealKey]: definition.sealKey } : {}),
  };
}

/** The annotation each node of the run carries: the run's definition, recoverable without its Lease (definitionOfNode). */
export function runDefinitionAnnotation(definition: RunDefinition): Record<string, string> {
  return { [ANNOTATION.definition]: JSON.stringify(definitionAnnotations(definition)) };
}

export function leaseFor(definition: RunDefinition, holder: string, nowMs: number, namespace: string): V1Lease {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name: leaseName(definition.id),
      namespace,
      labels: { [RUN_LABEL]: definition.id },
      annotations: definitionAnnotations(definition),
    },
    spec: {
      holderIdentity: holder,
      leaseDurationSeconds: LEASE_SECONDS,
      acquireTime: microTime(nowMs),
      renewTime: microTime(nowMs),
    },
  };
}

/** The run recorded on a Lease; throws a one-line Error when the annotations are not ours. */
export function definitionOf(lease: V1Lease): RunDefinition {
  const id = lease.metadata?.labels?.[RUN_LABEL];
  try {
    if (!id) throw new Error('no run label');
    return definitionFrom(id, lease.metadata?.annotations ?? {});
  } catch {
    throw new Error(`lease ${lease.metadata?.namespace}/${lease.metadata?.name} does not record a kubectl maint run`);
  }
}

/** The run a node names, as the node records it (runDefinitionAnnotation); null when it does not, or not readably. */
export function definitionOfNode(node: V1Node): RunDefinition | null {
  const id = runOfNode(node);
  const text = node.metadata?.annotations?.[ANNOTATION.definition];
  if (!id || !text) return null;
  try {
    return definitionFrom(id, JSON.parse(text) as Record<string, string>);
  } catch {
    return null;
  }
}

/** The run `id` from its definition's annotations; throws when they are not a run's. */
function definitionFrom(id: string, a: Readonly<Record<string, string | undefined>>): RunDefinition {
  return {
    id,
    batches: JSON.parse(a[ANNOTATION.batches] ?? '') as string[][],
    command: JSON.parse(a[ANNOTATION.command] ?? '') as string[],
    commandDir: a[ANNOTATION.commandDir] || undefined,
    options: runOptionsOf(a[ANNOTATION.options]),
    estimates: estimatesOf(a[ANNOTATION.estimates]),
    sealKey: a[ANNOTATION.sealKey],
    ...releasedOf(a[ANNOTATION.released]),
    ...commandSecondsOf(a[ANNOTATION.commandSeconds]),
  };
}

/** The measured command times, or none when absent or unreadable: an estimate is never worth refusing a resume. */
function commandSecondsOf(text: string | undefined): Pick<RunDefinition, 'commandSeconds'> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.every((s) => typeof s === 'number' && s >= 0)
      ? { commandSeconds: value as number[] }
      : {};
  } catch {
    return {};
  }
}

/** The Lease annotation that records the command times the run measured (those before a resume included). */
export function commandSecondsAnnotation(seconds: readonly number[]): Record<string, string> {
  return seconds.length > 0 ? { [ANNOTATION.commandSeconds]: JSON.stringify(seconds) } : {};
}

function releasedOf(text: string | undefined): Pick<RunDefinition, 'released'> {
  return text ? { released: JSON.parse(text) as string[] } : {};
}

/** The Lease annotation that records `done` as released, beside the nodes the run released before. */
export function releasedAnnotation(definition: RunDefinition, done: readonly string[]): Record<string, string> {
  return { [ANNOTATION.released]: JSON.stringify([...new Set([...(definition.released ?? []), ...done])]) };
}

/** The flags as the run recorded them; throws when they are not a run's (no drain flags). */
function runOptionsOf(text: string | undefined): RunOptions {
  const options = JSON.parse(text ?? '') as Partial<RunOptions> | null;
  if (typeof options?.drain !== 'object' || options.drain === null) throw new Error('no drain flags recorded');
  return options as RunOptions;
}

/** The recorded estimates, or none when absent or unreadable: an estimate is never worth refusing a resume. */
function estimatesOf(text: string | undefined): RunEstimates | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as RunEstimates;
    return Array.isArray(value.batches) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Who holds the Lease now: null when released or expired at `nowMs`. */
export function activeHolder(lease: V1Lease, nowMs: number): string | null {
  const holder = lease.spec?.holderIdentity;
  if (!holder) return null;
  const renewed = toMs(lease.spec?.renewTime);
  const duration = (lease.spec?.leaseDurationSeconds ?? LEASE_SECONDS) * 1000;
  if (renewed === undefined) return holder;
  return renewed + duration > nowMs ? holder : null;
}

/** Seconds until the Lease expires (0 when it has). */
export function secondsLeft(lease: V1Lease, nowMs: number): number {
  const renewed = toMs(lease.spec?.renewTime) ?? nowMs;
  const duration = (lease.spec?.leaseDurationSeconds ?? LEASE_SECONDS) * 1000;
  return Math.max(0, Math.ceil((renewed + duration - nowMs) / 1000));
}

export function nodePhase(node: V1Node): NodePhase | null {
  const phase = node.metadata?.annotations?.[ANNOTATION.phase];
  return phase && ALL_PHASES.has(phase as NodePhase) ? (phase as NodePhase) : null;
}

/**
 * The seal of a phase the run wrote on a node: an HMAC, with the key recorded on the run's Lease, of the
 * run, the node, the phase and when it was written. A phase edited by hand (or by anything but the run)
 * does not carry it, and a resume does not trust it (trustedPhase).
 */
export function phaseSeal(key: string, runId: string, node: string, phase: NodePhase, since: string): string {
  return createHmac('sha256', key).update(`${runId}\n${node}\n${phase}\n${since}`).digest('hex').slice(0, 32);
}

/**
 * The node's phase in run `definition` when the run itself wrote it; a phase it cannot vouch for (no seal,
 * or a seal that does not match) is `distrusted`, and the node starts over (pending: drained again, its
 * command run again). A definition without a seal key has nothing to check a phase against: it trusts
 * every phase.
 */
export function trustedPhase(
  node: V1Node,
  definition: Pick<RunDefinition, 'id' | 'sealKey'>,
): { phase: NodePhase; distrusted?: NodePhase } {
  const phase = nodePhase(node);
  if (phase === null || phase === 'pending') return { phase: 'pending' };
  if (!definition.sealKey) return { phase };
  const a = node.metadata?.annotations ?? {};
  const expected = Buffer.from(
    phaseSeal(definition.sealKey, definition.id, node.metadata?.name ?? '', phase, a[ANNOTATION.since] ?? ''),
  );
  const seal = Buffer.from(a[ANNOTATION.seal] ?? '');
  return seal.length === expected.length && timingSafeEqual(seal, expected)
    ? { phase }
    : { phase: 'pending', distrusted: phase };
}

export const runOfNode = (node: V1Node): string | null => node.metadata?.annotations?.[ANNOTATION.run] ?? null;

function toMs(value: Date | string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The node lifecycle conditions (KEP-5683, alpha in 1.37) a phase sets, True for the current one. */
export function lifecycleConditions(
  phase: NodePhase,
  nowIso: string,
): Array<{
  type: string;
  status: 'True' | 'False';
  reason: string;
  message: string;
  lastTransitionTime: Date;
  lastHeartbeatTime: Date;
}> {
  const active: Record<string, boolean> = {
    MaintenancePlanned: phase === 'pending',
    DrainInProgress: phase === 'draining',
    Drained:
      (reached(phase, 'drained') && !reached(phase, 'done')) ||
      phase === 'command-failed' ||
      phase === 'command-killed' ||
      phase === 'not-returned',
    MaintenanceInProgress: MAINTENANCE_IN_PROGRESS.has(phase),
  };
  const at = nowIso as unknown as Date;
  return Object.entries(active).map(([type, on]) => ({
    type,
    status: on ? 'True' : 'False',
    reason: on ? `KubectlMaint${phaseWord(phase)}` : 'KubectlMaint',
    message: `kubectl maint run: node phase ${phase}`,
    lastTransitionTime: at,
    lastHeartbeatTime: at,
  }));
}

function phaseWord(phase: NodePhase): string {
  return phase
    .split('-')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

/** A phase a node entered, and when (ISO time). */
export interface PhaseStep {
  readonly phase: string;
  readonly at: string;
}

/** The history keeps the latest steps only: a node resumed over and over must not grow without bound. */
const HISTORY_STEPS = 40;

/**
 * The phases the node went through in its run, oldest first, as the run recorded them (the history
 * annotation: `[[phase, time], …]`); a node without one (claimed by a run that did not keep it) has its
 * current phase and since when.
 */
export function phaseHistory(node: V1Node): PhaseStep[] {
  const a = node.metadata?.annotations ?? {};
  try {
    const steps = JSON.parse(a[ANNOTATION.history] ?? '') as unknown;
    if (
      Array.isArray(steps) &&
      steps.every((s) => Array.isArray(s) && typeof s[0] === 'string' && typeof s[1] === 'string')
    ) {
      return (steps as [string, string][]).map(([phase, at]) => ({ phase, at }));
    }
  } catch {
    // No history, or not ours: the current phase below.
  }
  const phase = a[ANNOTATION.phase];
  const since = a[ANNOTATION.since];
  return phase && since ? [{ phase, at: since }] : [];
}

/**
 * The history annotation's value with `phase` entered at `at` appended (to what `node` records); once only,
 * should the same write be sent again (its first answer lost with an API server that went away).
 */
export function historyWith(node: V1Node | null, phase: NodePhase, at: string): string {
  const steps = node ? phaseHistory(node) : [];
  const last = steps.at(-1);
  const added = last?.phase === phase && last.at === at ? steps : [...steps, { phase, at }];
  return JSON.stringify(added.slice(-HISTORY_STEPS).map((s) => [s.phase, s.at]));
}
