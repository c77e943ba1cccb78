import { processHolder } from '../process-holder.js';
import { restNodeCalls, setUnschedulableOf, type NodeCalls, type NodeRead } from '../kube/cordon.js';
import type { KubeTargetInfo } from '../kube/errors.js';
import type { NodeEventRecorder } from '../kube/node-event-recorder.js';
import { connectRest, type KubeRest } from '../kube/rest.js';
import type { V1Lease } from '@kubernetes/client-node';
import type { DryRunMode } from './dry-run.js';
import type { IgnoreRunClaimValue } from './ignore-run-claim.js';
import { CliError, ExitCode } from './exit-codes.js';
import { errorText } from './report-error.js';
import { kubeConfigFlags, type KubeFlagValues } from './kube-flag-values.js';
import { nodeSelection } from './node-selection.js';
import { writeErr, writeOut } from './output.js';

// What `cordon` and `uncordon` do once their flags are read, by commander (commands/cordon.ts) or, for a
// plain command line, without it (plain-cordon.ts): nothing here loads commander.

export interface CordonValues extends KubeFlagValues, IgnoreRunClaimValue {
  readonly selector?: string;
  readonly dryRun: DryRunMode;
}

/**
 * Cordons or uncordons the named nodes, or those the selector matches, as kubectl does: every node is read
 * first, and when one cannot be (not found, forbidden) nothing is changed; then one line per node, the
 * others still done when a change fails. Returns the exit code.
 */
export async function cordonNodes(
  nodeArgs: readonly string[],
  values: CordonValues,
  unschedulable: boolean,
  verb: 'cordon' | 'uncordon',
): Promise<number> {
  const selection = nodeSelection(nodeArgs, values.selector, verb);
  // Plain requests, no Kubernetes client: loading client-node took longer than the whole cordon. Imported
  // with this module, not on demand: one round of loading files, not two.
  const rest = connectRest(kubeConfigFlags(values));
  const client = restNodeCalls(rest);
  const names = 'names' in selection ? selection.names : await matching(client, rest.target, selection.selector);
  const suffix = values.dryRun === 'client' ? ' (dry run)' : values.dryRun === 'server' ? ' (server dry run)' : '';
  // All read at once (one round trip, not one per node); any node that cannot be read stops it all.
  const read = await Promise.allSettled(names.map((node) => client.readNode(node)));
  const unreadable = names.flatMap((node, i) => {
    const result = read[i]!;
    return result.status === 'rejected' ? [{ node, err: result.reason as unknown }] : [];
  });
  if (unreadable.length > 0) {
    // One line per distinct cause: a refusal or a connection failure is the same for every node.
    const lines = new Set<string>();
    for (const { node, err } of unreadable)
      lines.add(`error: ${errorText(await describe(err, rest.target, node, 'get'))}`);
    // Said only when some node could be read: the user may take it for changed.
    if (unreadable.length < names.length) {
      lines.add(`error: ${unreadable.length === 1 ? 'a node' : 'nodes'} could not be read: no node was ${verb}ed`);
    }
    writeErr(`${[...lines].join('\n')}\n`);
    return ExitCode.Error;
  }
  const current = (i: number) => (read[i] as PromiseFulfilledResult<NodeRead>).value;
  if (values.dryRun === 'none' && !values.ignoreRunClaim) {
    const refusals = await claimRefusals(
      rest,
      names.map((_name, i) => current(i)),
    );
    if (refusals.length > 0) {
      writeErr(`${refusals.map((line) => `error: ${line}`).join('\n')}\n`);
      return ExitCode.Error;
    }
  }
  let failed = 0;
  let trail: NodeEventRecorder | undefined;
  // One node at a time, each reported, the others still done when one fails: kubectl's behaviour.
  for (const [i, node] of names.entries()) {
    try {
      const result = await setUnschedulableOf(client, node, current(i), unschedulable, values.dryRun);
      writeOut(`node/${node} ${result.already ? 'already ' : ''}${verb}ed${suffix}\n`);
      if (verb === 'uncordon' && !result.already && values.dryRun === 'none') {
        trail ??= await uncordonTrail(rest, new Map(names.map((name, j) => [name, current(j).metadata?.uid ?? ''])));
        const note = `uncordoned by kubectl maint uncordon (${processHolder()})`;
        trail.record({ node, type: 'Normal', reason: 'Uncordoned', action: 'Uncordon', note });
      }
    } catch (err) {
      failed += 1;
      writeErr(`error: ${errorText(await describe(err, rest.target, node))}\n`);
    }
  }
  await trail?.flush();
  return failed > 0 ? ExitCode.Error : ExitCode.Ok;
}

/** The annotation of a node a run claimed (run/state.ts ANNOTATION.run), read here without loading run/. */
export const CLAIM_ANNOTATION = 'maint.kubectl.io/run';

/**
 * Why nodes may not be changed: a live run claims them (run/live-claim.ts), one line each. Loaded only
 * when a node carries a run's annotation, and its Lease read over the same plain requests.
 */
async function claimRefusals(rest: KubeRest, nodes: readonly NodeRead[]): Promise<string[]> {
  const claimed = nodes.filter((node) => node.metadata?.annotations?.[CLAIM_ANNOTATION]);
  if (claimed.length === 0) return [];
  const { liveClaimRefusal } = await import('../run/live-claim.js');
  const readLease = async (namespace: string, name: string) => {
    try {
      return await rest.request<V1Lease>({
        method: 'GET',
        path: `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/leases/${encodeURIComponent(name)}`,
      });
    } catch (err) {
      if ((err as { code?: unknown }).code === 404) return null;
      throw err;
    }
  };
  const refusals = await Promise.all(claimed.map((node) => liveClaimRefusal(node, readLease, Date.now())));
  return refusals.filter((line) => line !== null);
}

/**
 * The trail `uncordon` leaves on the nodes it uncordons (kube/node-event-recorder.ts), as drain and run
 * leave theirs: loaded only once a node is uncordoned, and over plain requests. Best effort: a user who may
 * not create events gets one warning.
 */
async function uncordonTrail(rest: KubeRest, uids: ReadonlyMap<string, string>): Promise<NodeEventRecorder> {
  const { recordNodeEventsOverRest } = await import('../kube/rest-node-events.js');
  return recordNodeEventsOverRest(rest, uids, (message) => writeErr(`warning: ${message}\n`));
}

async function matching(client: NodeCalls, target: KubeTargetInfo, selector: string): Promise<readonly string[]> {
  let names: string[];
  try {
    names = await client.listNodeNames(selector);
  } catch (err) {
    const { classifyKubeError } = await import('../kube/errors.js');
    throw new CliError(classifyKubeError(err, target, { verb: 'list', resource: 'nodes' }).message);
  }
  if (names.length === 0)
    throw new CliError(`no nodes match selector "${selector}" (list nodes with: kubectl get nodes --show-labels)`);
  return names;
}

async function describe(
  err: unknown,
  target: KubeTargetInfo,
  node: string,
  verb: 'get' | 'patch' = 'patch',
): Promise<string> {
  const { classifyKubeError } = await import('../kube/errors.js');
  const error = classifyKubeError(err, target, { verb, resource: 'nodes', name: node });
  if (error.kind === 'not-found') return `node "${node}" not found (list nodes with: kubectl get nodes)`;
  return error.message;
}
