import { Option, type Command } from 'commander';
import { addDrainFlags, type DrainingFlagValues } from '../drain-flags.js';
import { ignoreRunClaimOption, type IgnoreRunClaimValue } from '../ignore-run-claim.js';
import { parseSelectorArg } from '../flag-values.js';
import type { KubeFlagValues } from '../kube-flag-values.js';
import { addKubeFlags } from '../kube-flags.js';
import { invocation, suggestedCommands } from '../suggested-commands.js';
import { parseDryRun, type DryRunMode } from '../dry-run.js';

export interface DrainCommandValues extends DrainingFlagValues, KubeFlagValues, IgnoreRunClaimValue {
  readonly selector?: string;
  readonly dryRun: DryRunMode;
  readonly yes?: boolean;
  /** Print the whole plan before the question, not only the verdict and the pods that decide it. */
  readonly details?: boolean;
  readonly output?: 'text' | 'json';
  /** Whether the plan shown first asks the API server (dry runs of its evictions): on unless `--ask-server=false`. */
  readonly askServer?: boolean;
}

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
  addDrainFlags(command, { drains: true });
  const options = [
    new Option('--dry-run [mode]', 'none, client (print the plan, change nothing) or server (ask the API server)')
      .argParser(parseDryRun)
      .preset('client')
      .default('none'),
    new Option('-y, --yes', 'do not ask for confirmation on a terminal'),
    new Option('--details', 'print the whole plan first, not only its verdict and the pods that decide it'),
    new Option(
      '-o, --output <format>',
      'text (default: a live view on a terminal, lines otherwise) or json (one event per line)',
    ).choices(['text', 'json']),
  ];
  for (const option of options) command.addOption(option.helpGroup('Drain options (as in kubectl drain):'));
  command.addOption(
    new Option(
      '--ask-server',
      'the plan shown first sends each eviction to the API server as a dry run (dryRun=All: admission and ' +
        "the budgets answer, nothing is written) and puts its answer beside the plan's (default true; " +
        '--ask-server=false plans from the read alone, e.g. where an admission webhook must not be called twice)',
    ),
  );
  command.addOption(new Option('--no-ask-server').hideHelp());
  command.addOption(ignoreRunClaimOption());
  addKubeFlags(command);
  command.action(async (nodes: string[], values: DrainCommandValues) => {
    const { drainAction } = await import('../drain-action.js');
    process.exitCode = await drainAction(nodes, values, suggestedCommands(program, invocation()));
  });
}
