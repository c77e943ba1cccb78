import { Argument, Option, type Command } from 'commander';
import { UsageError } from '../exit-codes.js';
import type { KubeFlagValues } from '../kube-flag-values.js';
import { addKubeFlags } from '../kube-flags.js';
import { DEFAULT_STATE_NAMESPACE } from '../../kube/defaults.js';

export interface RunsCommandValues extends KubeFlagValues {
  readonly stateNamespace: string;
  readonly output?: 'json' | 'yaml';
}

/**
 * `kubectl maint runs`: the runs recorded in the cluster, whoever started them; `runs show RUN`: one run's
 * timeline. `show` is an operand, not a subcommand, so that the flags after it are read as everywhere else
 * (a subcommand's flags of the same names would be taken by `runs`).
 */
export function register(program: Command): void {
  const command = program
    .command('runs')
    .summary("list the runs recorded in the cluster (who holds each, where its nodes are); `show RUN`: one's timeline")
    .description(
      'Lists the runs of `kubectl maint run` recorded in the cluster (their Leases in --state-namespace, and ' +
        'nodes that still name a run): the run id, its state (alive: its holder renews its Lease; expired: the ' +
        'holder stopped renewing it; stopped: released, to be resumed; no-lease: only nodes name it), the holder, ' +
        'when it started, its nodes counted by phase, and its command. `kubectl maint run --resume ID` continues a ' +
        'run; `kubectl maint run --abandon ID` ends one.\n\n' +
        '`kubectl maint runs show RUN` draws the timeline of a run from what it wrote on each node: one row per ' +
        'node (in batch order), its phases along a time axis shared by all rows, one letter per phase, and its ' +
        "phase now (-o json|yaml: each node's phases with the time each began). A run that finished has left " +
        'nothing behind to show.',
    )
    .addArgument(new Argument('[show]', "`show`: one run's timeline").choices(['show']))
    .addArgument(new Argument('[run]', 'the run to show (kubectl maint runs lists them)'))
    .addOption(
      new Option('--state-namespace <namespace>', "where the runs' Leases live").default(DEFAULT_STATE_NAMESPACE),
    )
    .addOption(
      new Option(
        '-o, --output <format>',
        'json or yaml (every run with its nodes by phase; with show, its timeline)',
      ).choices(['json', 'yaml']),
    );
  addKubeFlags(command);
  command.action(async (show: string | undefined, runId: string | undefined, values: RunsCommandValues) => {
    if (show && !runId) throw new UsageError('runs show needs the id of a run (kubectl maint runs lists them)');
    const { runsAction, showRunAction } = await import('../runs-action.js');
    process.exitCode = runId ? await showRunAction(runId, values) : await runsAction(values);
  });
}
