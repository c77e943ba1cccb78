import type { ClusterIndex } from '../snapshot/cluster-index.js';
import { matchesLabelSelector, parseLabelSelector } from '../snapshot/label-selector.js';
import { CliError, UsageError } from './exit-codes.js';
import { similarNames } from './similar-names.js';

export type NodeSelection = { readonly names: readonly string[] } | { readonly selector: string };

/**
 * kubectl drain's and cordon's rule: node names or -l, not both, not neither (`verb` names the command). Names are checked as the API server
 * checks a Node's name, before anything is read or written: `k8s-node-1/status` or `..` would otherwise
 * reach another URL than the node's.
 */
export function nodeSelection(
  names: readonly string[],
  selector: string | undefined,
  verb: 'drain' | 'cordon' | 'uncordon' = 'drain',
): NodeSelection {
  if (names.length > 0 && selector) throw new UsageError('cannot specify both a node name and a --selector option');
  if (selector) return { selector };
  if (names.length === 0) throw new UsageError(`specify the nodes to ${verb}: NODE… or -l SELECTOR`);
  for (const name of names) {
    const problem = nodeNameProblem(name);
    if (problem) throw new CliError(`invalid node name "${name}": ${problem}`);
  }
  return { names: [...new Set(names)] };
}

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Why a name cannot be a Node's (apimachinery's IsDNS1123Subdomain), or undefined when it can. */
export function nodeNameProblem(name: string): string | undefined {
  if (name.length > 253) return 'must be no more than 253 characters';
  if (!DNS1123_SUBDOMAIN.test(name)) {
    return (
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', " +
      'and must start and end with an alphanumeric character'
    );
  }
  return undefined;
}

/** The node names to drain; an unknown name, or a selector matching nothing, is an error (exit 1). */
export function resolveNodes(index: ClusterIndex, selection: NodeSelection): string[] {
  if ('selector' in selection) {
    const selector = parseLabelSelector(selection.selector);
    const names = index.nodes
      .filter((node) => matchesLabelSelector(node.metadata?.labels, selector))
      .map((node) => node.metadata?.name ?? '');
    if (names.length === 0)
      throw new CliError(`no nodes match selector "${selection.selector}"${whereNodesAre(index)}`);
    return names;
  }
  const missing = selection.names.filter((name) => !index.node(name));
  if (missing.length === 1) {
    throw new CliError(`node "${missing[0]}" not found${didYouMean(index, missing[0]!)}${whereNodesAre(index)}`);
  }
  if (missing.length > 1) {
    throw new CliError(`nodes ${missing.map((n) => `"${n}"`).join(', ')} not found${whereNodesAre(index)}`);
  }
  return [...selection.names];
}

/** '; did you mean "k8s-node-1"?' for a name one typing slip from a node's; empty otherwise. */
function didYouMean(index: ClusterIndex, name: string): string {
  const similar = similarNames(
    name,
    index.nodes.map((n) => n.metadata?.name ?? ''),
  );
  return similar.length === 0 ? '' : `; did you mean ${similar.map((n) => `"${n}"`).join(' or ')}?`;
}

/** Where to look for the right name: the snapshot's own nodes, or kubectl for a live cluster. */
function whereNodesAre(index: ClusterIndex): string {
  const source = index.snapshot.source;
  if (source.type === 'live') return ' (list nodes with: kubectl get nodes)';
  const names = index.nodes.map((n) => n.metadata?.name ?? '');
  const shown = names.length > 8 ? `${names.slice(0, 8).join(', ')}, …` : names.join(', ');
  return ` (the snapshot has: ${shown})`;
}
