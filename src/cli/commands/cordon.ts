import { Option, type Command } from 'commander';
import type { CordonValues } from '../cordon-nodes.js';
import { parseDryRun } from '../dry-run.js';
import { parseSelectorArg } from '../flag-values.js';
import { ignoreRunClaimOption } from '../ignore-run-claim.js';
import { addKubeFlags } from '../kube-flags.js';

/** `kubectl maint cordon` and `uncordon`: kubectl's commands, flags (-l, --dry-run) and output. */
export function register(program: Command): void {
  addCommand(program, 'cordon', true, 'mark nodes unschedulable (as kubectl cordon)');
  addCommand(program, 'uncordon', false, 'mark nodes schedulable again (as kubectl uncordon)');
}

function addCommand(program: Command, name: 'cordon' | 'uncordon', unschedulable: boolean, summary: string): void {
  const command = program
    .command(name)
    .summary(summary)
    .description(`${summary[0]!.toUpperCase()}${summary.slice(1)}: node/NAME ${name}ed, or already ${name}ed.`)
    .argument('[node...]', `the nodes to ${name}`)
    .option('-l, --selector <selector>', `${name} the nodes matching this label selector instead`, parseSelectorArg)
    .addOption(
      new Option('--dry-run [mode]', 'none, client (change nothing) or server (ask the API server)')
        .argParser(parseDryRun)
        .preset('client')
        .default('none'),
    )
    .addOption(ignoreRunClaimOption());
  addKubeFlags(command);
  command.action(async (nodes: string[], values: CordonValues) => {
    // Loaded when it runs: registering the command (for `version`, for help) loads none of the kube layer.
    const { cordonNodes } = await import('../cordon-nodes.js');
    process.exitCode = await cordonNodes(nodes, values, unschedulable, name);
  });
}
