import type { Command } from 'commander';
import { addDrainFlags } from '../drain-flags.js';
import { addKubeFlags } from '../kube-flags.js';
import { addPlanFlags, type ReadFlagValues } from '../plan-flags.js';

/** `audit` takes plan's flags but --max-unavailable and --command-time: each node is planned on its own. */
export type AuditFlagValues = ReadFlagValues;

export function register(program: Command): void {
  const command = program
    .command('audit')
    .summary('plan a drain of every node on its own and say which workloads keep nodes from being drained')
    .description(
      'Plan a drain of each selected node (every node without NODE… or -l) on its own, as `kubectl maint plan NODE` ' +
        "with the same flags would, from one read of the cluster; then say each node's verdict and the workloads " +
        'that block or disrupt maintenance (namespace, owner, budget), the nodes each holds and the way out: the ' +
        'flag that lets it go, or what its owner must change. Workloads that hold most nodes come first. Writes ' +
        "nothing; exits with the worst verdict's code, as plan does.",
    )
    .argument('[node...]', 'the nodes to audit (default: every node)');
  addPlanFlags(command, {
    selector: 'audit the nodes matching this label selector instead',
    snapshot: 'audit the output of kubectl get … -o json|yaml instead of the live cluster',
    allowIncomplete:
      'exit as the worst verdict from what was read (0 for clear or slow) when a kind the plans need could not ' +
      'be read, instead of 4 (the nodes still say incomplete)',
  });
  addDrainFlags(command);
  addKubeFlags(command);
  command.action(async (nodeArgs: string[], values: AuditFlagValues) => {
    const { auditAction } = await import('../audit-action.js');
    process.exitCode = await auditAction(nodeArgs, values);
  });
}
