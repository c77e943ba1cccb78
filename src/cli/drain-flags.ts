import { InvalidArgumentError, Option, type Command } from 'commander';
import type { DrainFilterOptions } from '../plan/drain-filters/chain.js';
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_MAINTENANCE_TAINT_KEY,
  DEFAULT_NODE_MONITOR_GRACE_PERIOD_SECONDS,
} from '../plan/defaults.js';
import type { DrainSettings } from '../drain/drain-settings.js';
import type { DrainOptions, PlanOptions } from '../plan/types.js';
import { UsageError } from './exit-codes.js';
import {
  parseCount,
  parseDurationMs,
  parseDurationSeconds,
  parseSelectorArg,
  parseWholeSeconds,
} from './flag-values.js';

/**
 * What commander parses from kubectl drain's flags (shared by `plan`, `drain` and `run`), in commander's
 * names: read only by drainOptionsFrom and drainSettingsFrom, which give the rest of the program
 * DrainOptions and DrainSettings.
 */
export interface DrainFlagValues {
  readonly ignoreDaemonsets?: boolean;
  readonly deleteEmptydirData?: boolean;
  readonly force?: boolean;
  readonly podSelector?: string;
  readonly disableEviction?: boolean;
  /** Seconds. */
  readonly skipWaitForDeleteTimeout?: number;
  readonly taint: { readonly key: string; readonly value?: string | undefined };
  /** Seconds. */
  readonly nodeMonitorGracePeriod: number;
  /** --order: how pods are grouped to leave one group after another. */
  readonly order?: 'annotation' | 'priority';
  /** --escalate-after, seconds. */
  readonly escalateAfter?: number;
  /** --escalate-namespace, repeated or comma-separated. */
  readonly escalateNamespace?: readonly string[];
  /** --surge (true) or --surge=NS/NAME,… */
  readonly surge?: true | PlanOptions['surge'];
}

/** The flags only a command that drains reads (`drain`, `run`): how the evictions are carried out. */
export interface DrainingFlagValues extends DrainFlagValues {
  /** Seconds; negative: each pod's own. */
  readonly gracePeriod: number;
  /** Milliseconds; 0 = no limit. */
  readonly timeout: number;
  readonly concurrency: number;
}

const GROUP = 'Drain options (as in kubectl drain):';

/**
 * kubectl drain's pod-handling flags, with kubectl's names and help wording; `drains` (drain, run) adds
 * those that only carrying a drain out reads. Declared here only, so `drain` and `run` take the same flags
 * with the same defaults.
 */
export function addDrainFlags(command: Command, { drains = false }: { drains?: boolean } = {}): Command {
  const options = [
    new Option('--ignore-daemonsets', 'ignore DaemonSet-managed pods'),
    new Option(
      '--delete-emptydir-data',
      'continue even if there are pods using emptyDir (local data that will be deleted when the node is drained)',
    ),
    new Option('--force', 'continue even if there are pods that do not declare a controller'),
    new Option('--pod-selector <selector>', 'label selector to filter pods on the node').argParser(parseSelectorArg),
    new Option(
      '--disable-eviction',
      'delete pods instead of evicting them, bypassing PodDisruptionBudgets (use with caution)',
    ),
    new Option(
      '--skip-wait-for-delete-timeout <seconds>',
      'skip waiting for pods whose deletionTimestamp is older than this (seconds or a duration); 0 = never skip',
    )
      .argParser(parseDurationSeconds)
      .default(0),
  ];
  const comparison = [
    new Option('--taint <key[=value]>', 'the NoExecute taint to compare the drain with')
      .argParser(parseTaint)
      .default({ key: DEFAULT_MAINTENANCE_TAINT_KEY }, DEFAULT_MAINTENANCE_TAINT_KEY),
    new Option(
      '--node-monitor-grace-period <duration>',
      "the controller manager's --node-monitor-grace-period, to predict what a node failure would do",
    )
      .argParser(parseDurationSeconds)
      .default(DEFAULT_NODE_MONITOR_GRACE_PERIOD_SECONDS, '50s'),
  ];
  for (const option of options) command.addOption(option.helpGroup(GROUP));
  if (drains) for (const option of drainingOptions()) command.addOption(option.helpGroup(GROUP));
  for (const option of comparison) command.addOption(option.helpGroup('Comparisons:'));
  for (const option of strategyOptions()) command.addOption(option.helpGroup(STRATEGIES));
  // Checked before anything is read from the cluster, like every other usage error.
  command.hook('preAction', (_command, action) => void escalationFrom(action.opts<DrainFlagValues>()));
  return command;
}

/**
 * kubectl drain's pod-handling flags as the plan, the drain and a run's batches read them: mapped here
 * only, from commander's names for them (`--delete-emptydir-data` is `deleteEmptydirData` to commander).
 */
function drainFilterOptionsFrom(values: DrainFlagValues): DrainFilterOptions {
  return {
    ignoreDaemonSets: values.ignoreDaemonsets === true,
    deleteEmptyDirData: values.deleteEmptydirData === true,
    force: values.force === true,
    podSelector: values.podSelector || undefined,
    disableEviction: values.disableEviction === true,
    skipWaitForDeleteTimeoutSeconds: values.skipWaitForDeleteTimeout ?? 0,
  };
}

/** Every drain flag as plan, drain and run read it: the one mapping from commander's values. */
export function drainOptionsFrom(values: DrainFlagValues): DrainOptions {
  return {
    ...drainFilterOptionsFrom(values),
    taint: values.taint,
    nodeMonitorGracePeriodSeconds: values.nodeMonitorGracePeriod,
    // The annotation order is the default: said only when priority is asked for.
    ...(values.order === 'priority' ? { orderBy: 'priority' as const } : {}),
    escalation: escalationFrom(values),
    surge: surgeFrom(values),
  };
}

/** Every drain flag as `drain` and each batch of `run` carry it out: the plan's, and the engine's own. */
export function drainSettingsFrom(values: DrainingFlagValues): DrainSettings {
  return {
    ...drainOptionsFrom(values),
    gracePeriodSeconds: values.gracePeriod,
    timeoutMs: values.timeout,
    concurrency: values.concurrency,
  };
}

/** How the evictions are carried out: read by the engine, not by the plan. */
function drainingOptions(): Option[] {
  return [
    new Option(
      '--grace-period <seconds>',
      "period of time in seconds given to each pod to terminate gracefully; negative: the pod's own",
    )
      .argParser(parseWholeSeconds)
      .default(-1),
    new Option(
      '--timeout <duration>',
      "give up on the drain after this long (e.g. 5m; run: on each batch's drain); 0 = never",
    )
      .argParser(parseDurationMs)
      .default(0, '0s'),
    new Option(
      '--concurrency <n>',
      'at most this many pods evicted and not yet gone at a time; a pod waiting for its budget takes no slot; 0 = no limit',
    )
      .argParser(parseCount)
      .default(DEFAULT_CONCURRENCY),
  ];
}

/** --escalate-after and --escalate-namespace mean something only together: one without the other is a usage error. */
function escalationFrom(values: DrainFlagValues): DrainOptions['escalation'] {
  const namespaces = values.escalateNamespace ?? [];
  if (values.escalateAfter === undefined && namespaces.length === 0) return undefined;
  if (values.escalateAfter === undefined || namespaces.length === 0) {
    throw new UsageError(
      '--escalate-after and --escalate-namespace go together: name how long to wait and which namespaces may be escalated',
    );
  }
  return { afterSeconds: values.escalateAfter, namespaces };
}

/** --surge alone surges every Deployment that needs it; --surge=NS/NAME,… only those. */
function surgeFrom(values: DrainFlagValues): DrainOptions['surge'] {
  return values.surge === true ? { all: true, deployments: [] } : values.surge;
}

/** `--surge=NS/NAME,…`: the Deployments to surge, each namespace/name. */
export function parseSurgeList(text: string): NonNullable<PlanOptions['surge']> {
  const deployments = text.split(',').map((d) => d.trim());
  for (const d of deployments) {
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(d)) {
      throw new InvalidArgumentError(`"${d}" is not a Deployment as NAMESPACE/NAME.`);
    }
  }
  return { all: false, deployments };
}

/** Repeated or comma-separated namespace names, each checked as a DNS label. */
export function collectNamespaces(text: string, previous: readonly string[] = []): string[] {
  const names = text.split(',').map((n) => n.trim());
  for (const name of names) {
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name) || name.length > 63) {
      throw new InvalidArgumentError(`"${name}" is not a valid namespace name.`);
    }
  }
  return [...previous, ...names];
}

const STRATEGIES = 'Strategies (kubectl maint only):';

/** The ways out of a drain kubectl does not have: eviction order (and, below, what builds on it). */
function strategyOptions(): Option[] {
  return [
    new Option(
      '--order <by>',
      'pods leave in groups, lower first, each gone before the next starts: by their maint.kubectl.io/drain-order ' +
        'annotation (annotation; none anywhere = all at once) or by pod priority (priority)',
    )
      .choices(['annotation', 'priority'])
      .default('annotation'),
    new Option(
      '--escalate-after <duration>',
      'delete (grace period honoured) a pod of an --escalate-namespace namespace whose budget still refuses its eviction after this long',
    ).argParser(parseDurationSeconds),
    new Option(
      '--surge [deployments]',
      'for a Deployment whose budget will not let its pod go, bring up an extra Ready replica elsewhere first, ' +
        'evict, then return it to its own replica count; all such Deployments, or only NS/NAME,…',
    ).argParser(parseSurgeList),
    new Option(
      '--escalate-namespace <ns>',
      'a namespace whose pods --escalate-after may delete (repeat or comma-separate); no other pod is ever escalated',
    ).argParser(collectNamespaces),
  ];
}

const QUALIFIED_NAME = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

/**
 * `KEY[=VALUE]`, as `kubectl taint` writes a taint, with an optional `:NoExecute` (the only effect that
 * evicts, so the only one worth comparing).
 */
export function parseTaint(text: string): { key: string; value?: string } {
  const [spec, effect] = text.split(':', 2) as [string, string | undefined];
  if (effect !== undefined && effect !== 'NoExecute') {
    throw new InvalidArgumentError(`only a NoExecute taint evicts pods (got effect "${effect}").`);
  }
  const eq = spec.indexOf('=');
  const key = eq < 0 ? spec : spec.slice(0, eq);
  const value = eq < 0 ? undefined : spec.slice(eq + 1);
  if (!QUALIFIED_NAME.test(key)) throw new InvalidArgumentError(`"${key}" is not a valid taint key.`);
  if (value !== undefined && !LABEL_VALUE.test(value)) {
    throw new InvalidArgumentError(`"${value}" is not a valid taint value.`);
  }
  return value === undefined ? { key } : { key, value };
}
