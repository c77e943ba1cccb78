import { DEFAULT_STATE_NAMESPACE } from '../../kube/defaults.js';
import { Option, type Command } from 'commander';
import { addDrainFlags, type DrainingFlagValues } from '../drain-flags.js';
import { UsageError } from '../exit-codes.js';
import { parseDurationMs, parseSelectorArg } from '../flag-values.js';
import type { KubeFlagValues } from '../kube-flag-values.js';
import { addKubeFlags } from '../kube-flags.js';
import { commandTimeOption, maxUnavailableOption } from '../pool-flags.js';
import type { PoolFlagValues } from '../pool-plan.js';
import { invocation, suggestedCommands } from '../suggested-commands.js';

export interface RunCommandValues extends PoolFlagValues, DrainingFlagValues, KubeFlagValues {
  readonly selector?: string;
  readonly commandTimeout: number;
  readonly nodeReadyTimeout: number;
  readonly budgetTimeout: number;
  readonly expectReboot?: boolean;
  readonly uncordon: boolean;
  readonly keepGoing?: boolean;
  readonly pause?: boolean;
  readonly resume?: string | true;
  readonly rerunCommand?: boolean;
  readonly takeOver?: boolean;
  readonly abandon?: string;
  readonly forceStart?: boolean;
  /** --dry-run: show the run's pool plan and change nothing. */
  readonly dryRun?: boolean;
  readonly stateNamespace: string;
  readonly output?: 'text' | 'json';
  readonly yes?: boolean;
}

export function register(program: Command): void {
  const command = program
    .command('run')
    .summary('take a pool through drain → your command → back in service, in the batches the pool plan chose')
    .description(
      "Runs maintenance over a pool in the pool plan's order, never more nodes out at once than its largest batch " +
        '(the next node starts as soon as one is back): cordon and drain (as kubectl maint drain), run COMMAND once ' +
        'per node ({node} in its arguments; MAINT_NODE, MAINT_RUN and KUBECONFIG in its environment), wait until ' +
        'the node is Ready again, uncordon, and wait until the budgets it touched are back. The run is recorded in the cluster (a Lease in --state-namespace and annotations on each node), so ' +
        'Ctrl-C leaves every node in a recorded phase and `kubectl maint run --resume` continues it from any machine. ' +
        'On a terminal it shows the pool plan and asks before changing anything (--yes to skip; without a terminal ' +
        'it proceeds, as drain does).',
    )
    .argument('[node...]', 'the pool: node names (or -l), then -- COMMAND ARGS…')
    .option('-l, --selector <selector>', 'the pool is the nodes matching this label selector', parseSelectorArg)
    .addOption(maxUnavailableOption())
    .addOption(commandTimeOption());
  addDrainFlags(command, { drains: true });
  const options = [
    new Option(
      '--command-timeout <duration>',
      'kill the command, with every process it started, after this long (a failure); 0 = never',
    )
      .argParser(parseDurationMs)
      .default(0, '0s'),
    new Option('--node-ready-timeout <duration>', 'a node not Ready again after this long has failed')
      .argParser(parseDurationMs)
      .default(600_000, '10m'),
    new Option('--budget-timeout <duration>', "stop when a batch's budgets are not back after this long")
      .argParser(parseDurationMs)
      .default(600_000, '10m'),
    new Option('--expect-reboot', 'the command reboots the node: wait until it reports a new bootID'),
    new Option('--no-uncordon', 'leave each node cordoned once it is back'),
    new Option('--keep-going', 'after a failed node, go on with the next batches (the failed node stays cordoned)'),
    new Option(
      '--pause',
      'without a command: once each batch is drained, wait for a key (on a terminal) or stop until --resume, for maintenance by hand',
    ),
    new Option('--resume [run]', 'continue the run recorded in the cluster (the only one, or the one named)'),
    new Option(
      '--rerun-command',
      'with --resume: run the command again where it did not finish or failed; with --take-over: take nodes whose command ran or may still run (started over, their command run again)',
    ),
    new Option(
      '--take-over',
      'take the nodes of a run no process holds (its Lease expired or released, or gone for a Lease duration: waited for); a node whose command ran or may still run only with --rerun-command',
    ),
    new Option(
      '--abandon <run>',
      'end a run that no live process holds: delete its Lease, release its nodes (cordoned ones stay cordoned; each is named)',
    ),
    new Option('--force-start', 'start even though the pool plan is blocked'),
    new Option(
      '--dry-run',
      "show the run's pool plan (its batches, as plan --max-unavailable shows them) and change nothing; exits as the plan",
    ),
    new Option('-y, --yes', 'do not ask for confirmation on a terminal'),
    new Option('--state-namespace <namespace>', "where the run's Lease lives").default(DEFAULT_STATE_NAMESPACE),
    new Option('-o, --output <format>', 'text (default) or json (one event per line)').choices(['text', 'json']),
  ];
  for (const option of options) command.addOption(option.helpGroup('Run options:'));
  addKubeFlags(command);
  command.action(async (operands: string[], values: RunCommandValues, self: Command) => {
    const rawArgs = (self.parent as (Command & { rawArgs?: string[] }) | null)?.rawArgs ?? [];
    const dashes = rawArgs.indexOf('--');
    const argv = dashes < 0 ? [] : rawArgs.slice(dashes + 1);
    const nodes = operands.slice(0, operands.length - argv.length);
    if (values.abandon !== undefined) {
      if (nodes.length > 0 || values.selector || argv.length > 0 || values.resume !== undefined) {
        throw new UsageError('--abandon takes only the run: give no nodes, command or --resume');
      }
      const { abandonAction } = await import('../runs-action.js');
      process.exitCode = await abandonAction(values.abandon, values);
      return;
    }
    // Loaded only when run: the cluster client and the engines stay out of every other command's start-up.
    const { runCommandAction } = await import('../run-action.js');
    // The plan of the same pool: the words typed before `--` (the command's own words are not the plan's),
    // with the run's default batch size when none was typed (plan without it previews one drain of all).
    const typed = invocation();
    const own = typed.includes('--') ? typed.slice(0, typed.indexOf('--')) : typed;
    const batches = values.maxUnavailable === undefined ? ' --max-unavailable 1' : '';
    const plan = `${suggestedCommands(program, own).plan}${batches}`;
    process.exitCode = await runCommandAction(nodes, argv, values, plan);
  });
}
