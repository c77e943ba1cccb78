import { Option, type Command } from 'commander';
import type { KubeFlagValues } from '../kube-flag-values.js';
import { addKubeFlags } from '../kube-flags.js';
import { DEFAULT_STATE_NAMESPACE } from './run.js';

export interface RunsCommandValues extends KubeFlagValues {
  readonly stateNamespace: string;
  readonly output?: 'json' | 'yaml';
}

/** `kubectl maint runs`: the runs recorded in the cluster, whoever started them. */
export function register(program: Command): void {
  const command = program
    .command('runs')
    .summary('list the runs recorded in the cluster: who holds each, and where its nodes are')
    .description(
      'Lists the runs of `kubectl maint run` recorded in the cluster (their Leases in --state-namespace, and ' +
        'nodes that still name a run): the run id, its state (alive: its holder renews its Lease; expired: the ' +
        'holder stopped renewing it; stopped: released, to be resumed; no-lease: only nodes name it), the holder, ' +
        'when it started, its nodes counted by phase, and its command. `kubectl maint run --resume ID` continues a ' +
        'run; `kubectl maint run --abandon ID` ends one.',
    )
    .addOption(
      new Option('--state-namespace <namespace>', "where the runs' Leases live").default(DEFAULT_STATE_NAMESPACE),
    )
    .addOption(
      new Option('-o, --output <format>', 'json or yaml (every run with its nodes by phase)').choices(['json', 'yaml']),
    );
  addKubeFlags(command);
  command.action(async (values: RunsCommandValues) => {
    const { runsAction } = await import('../runs-action.js');
    process.exitCode = await runsAction(values);
  });
}
