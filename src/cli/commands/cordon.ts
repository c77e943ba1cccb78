import { Option, type Command } from 'commander';
import { restNodeCalls, setUnschedulable, type NodeCalls } from '../../kube/cordon.js';
import type { KubeTargetInfo } from '../../kube/errors.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { parseSelectorArg } from '../flag-values.js';
import { addKubeFlags, connectRest, type KubeFlagValues } from '../kube-flags.js';
import { nodeSelection } from '../node-selection.js';
import { parseDryRun, type DryRunMode } from '../dry-run.js';

interface CordonValues extends KubeFlagValues {
  readonly selector?: string;
  readonly dryRun: DryRunMode;
}

/** `kubectl maint cordon` and `uncordon`: kubectl's commands, flags (-l, --dry-run) and output. */
export function register(program: Command): void {
  addCommand(program, 'cordon', true, 'mark nodes unschedulable (as kubectl cordon)');
  addCommand(program, 'uncordon', false, 'mark nodes schedulable again (as kubectl uncordon)');
}

function addCommand(program: Command, name: string, unschedulable: boolean, summary: string): void {
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
    );
  addKubeFlags(command);
  command.action(async (nodes: string[], values: CordonValues) => {
    process.exitCode = await setNodes(nodes, values, unschedulable, name);
  });
}

async function setNodes(
  nodeArgs: string[],
  values: CordonValues,
  unschedulable: boolean,
  verb: string,
): Promise<number> {
  const selection = nodeSelection(nodeArgs, values.selector);
  // Plain requests, no Kubernetes client: loading client-node took longer than the whole cordon.
  const rest = await connectRest(values);
  const client = restNodeCalls(rest);
  const names = 'names' in selection ? selection.names : await matching(client, rest.target, selection.selector);
  const suffix = values.dryRun === 'client' ? ' (dry run)' : values.dryRun === 'server' ? ' (server dry run)' : '';
  let failed = 0;
  // One node at a time, each reported, the others still done when one fails: kubectl's behaviour.
  for (const node of names) {
    try {
      const result = await setUnschedulable(client, node, unschedulable, values.dryRun);
      process.stdout.write(`node/${node} ${result.already ? 'already ' : ''}${verb}ed${suffix}\n`);
    } catch (err) {
      failed += 1;
      process.stderr.write(`error: ${await describe(err, rest.target, node)}\n`);
    }
  }
  return failed > 0 ? ExitCode.Error : ExitCode.Ok;
}

async function matching(client: NodeCalls, target: KubeTargetInfo, selector: string): Promise<readonly string[]> {
  let names: string[];
  try {
    names = await client.listNodeNames(selector);
  } catch (err) {
    const { classifyKubeError } = await import('../../kube/errors.js');
    throw new CliError(classifyKubeError(err, target, { verb: 'list', resource: 'nodes' }).message);
  }
  if (names.length === 0)
    throw new CliError(`no nodes match selector "${selector}" (list nodes with: kubectl get nodes --show-labels)`);
  return names;
}

async function describe(err: unknown, target: KubeTargetInfo, node: string): Promise<string> {
  const { classifyKubeError } = await import('../../kube/errors.js');
  const error = classifyKubeError(err, target, { verb: 'patch', resource: 'nodes', name: node });
  if (error.kind === 'not-found') return `node "${node}" not found (list nodes with: kubectl get nodes)`;
  return error.message;
}
