import { Argument, Option, type Command } from 'commander';
import { writeOut } from '../output.js';
import type { RbacCommand, RbacOption } from '../../kube/permissions.js';

interface RbacValues {
  readonly surge?: boolean;
  readonly disableEviction?: boolean;
  readonly askServer?: boolean;
}

/**
 * `kubectl maint rbac plan|audit|drain|run`: the ClusterRoles a command needs, as the release ships them.
 * audit reads what plan reads (it plans every node from the same read): its role is plan's.
 */
export function register(program: Command): void {
  program
    .command('rbac')
    .summary('print the ClusterRoles plan, audit, drain or run needs (least privilege), ready for kubectl apply -f -')
    .description(
      'Print the ClusterRole a user or ServiceAccount needs to run a command, and nothing more: `plan` reads ' +
        "only (`audit` reads the same: its role is plan's); `drain` also cordons and evicts (cordon and uncordon too); `run` also keeps its state in Leases, " +
        'in a second ClusterRole to bind in the state namespace only. Each rule says what it is for. The release ' +
        'ships the same YAML (deploy/rbac/). Drain and run check these rights before their first write, and stop ' +
        'with one line naming the one they lack.\n\n' +
        '  kubectl maint rbac drain | kubectl apply -f -\n' +
        '  kubectl create clusterrolebinding kubectl-maint-drain --clusterrole=kubectl-maint-drain --user=alice',
    )
    .addArgument(
      new Argument('<command>', 'the command whose roles to print').choices(['plan', 'audit', 'drain', 'run']),
    )
    .addOption(new Option('--surge', 'add what --surge needs (read and patch Deployments and their autoscalers)'))
    .addOption(new Option('--disable-eviction', 'add what --disable-eviction and --escalate-after need (delete pods)'))
    .addOption(new Option('--ask-server', 'add what plan --ask-server needs (create pods/eviction, as dry runs)'))
    .action(async (named: RbacCommand | 'audit', values: RbacValues) => {
      const command: RbacCommand = named === 'audit' ? 'plan' : named;
      const { clusterRolesYaml } = await import('../../kube/cluster-roles.js');
      const options: RbacOption[] = [...(values.surge ? ['surge' as const] : [])];
      if (values.disableEviction) options.push('delete');
      if (values.askServer) options.push('ask-server');
      writeOut(clusterRolesYaml(command, options));
    });
}
