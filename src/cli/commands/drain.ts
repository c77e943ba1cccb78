import { Option, type Command } from 'commander';
import { addDrainFlags, type DrainFlagValues } from '../drain-flags.js';
import { ignoreRunClaimOption, type IgnoreRunClaimValue } from '../ignore-run-claim.js';
import { parseCount, parseDurationMs, parseSelectorArg, parseWholeSeconds } from '../flag-values.js';
import type { KubeFlagValues } from '../kube-flag-values.js';
import { addKubeFlags } from '../kube-flags.js';
import { invocation, suggestedCommands } from '../suggested-commands.js';
import { parseDryRun, type DryRunMode } from '../dry-run.js';

export interface DrainCommandValues extends DrainFlagValues, KubeFlagValues, IgnoreRunClaimValue {
  readonly selector?: string;
  readonly gracePeriod: number;
  /** Milliseconds; 0 = no limit. */
  readonly timeout: number;
  readonly concurrency: number;
  readonly dryRun: DryRunMode;
  readonly yes?: boolean;
  readonly output?: 'text' | 'json';
}

/** Pods evicted and not yet gone at a time, by default. */
const DEFAULT_CONCURRENCY = 16;

export function register(program: Command): void {
  const command = program
    .command('drain')
    .summary('cordon nodes and evict their pods, waiting for budgets as the plan predicts, with live progress')
    .description(
      'Drain nodes as `kubectl drain NODE…` does (cordon, then evict every pod through the Eviction API, ' +
        'honouring PodDisruptionBudgets), with the same flags and defaults. Shows the plan first and, on a ' +
        'terminal, asks before changing anything (--yes to skip; without a terminal it proceeds, like kubectl ' +
        'drain). Pods held by a budget are retried as soon as the budget allows, with its name and numbers on screen.' +
        '\n\nCtrl-C stops sending evictions and leaves the nodes cordoned; running the drain again finishes it.',
    )
    .argument('[node...]', 'the nodes to drain together')
    .option('-l, --selector <selector>', 'drain the nodes matching this label selector instead', parseSelectorArg);
  addDrainFlags(command);
  const options = [
    new Option(
      '--grace-period <seconds>',
      "period of time in seconds given to each pod to terminate gracefully; negative: the pod's own",
    )
      .argParser(parseWholeSeconds)
      .default(-1),
    new Option(
      '--timeout <duration>',
      'give up after this long for the whole drain (e.g. 5m); 0 = never (kubectl bounds each node instead)',
    )
      .argParser(parseDurationMs)
      .default(0, '0s'),
    new Option('--dry-run [mode]', 'none, client (print the plan, change nothing) or server (ask the API server)')
      .argParser(parseDryRun)
      .preset('client')
      .default('none'),
    new Option(
      '--concurrency <n>',
      'at most this many pods evicted and not yet gone at a time; a pod waiting for its budget takes no slot; 0 = no limit (kubectl drain)',
    )
      .argParser(parseCount)
      .default(DEFAULT_CONCURRENCY),
    new Option('-y, --yes', 'do not ask for confirmation on a terminal'),
    new Option(
      '-o, --output <format>',
      'text (default: a live view on a terminal, lines otherwise) or json (one event per line)',
    ).choices(['text', 'json']),
  ];
  for (const option of options) command.addOption(option.helpGroup('Drain options (as in kubectl drain):'));
  command.addOption(ignoreRunClaimOption());
  addKubeFlags(command);
  command.action(async (nodes: string[], values: DrainCommandValues) => {
    const { drainAction } = await import('../drain-action.js');
    process.exitCode = await drainAction(nodes, values, suggestedCommands(program, invocation()));
  });
}
