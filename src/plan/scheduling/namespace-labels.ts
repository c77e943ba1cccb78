import type { V1LabelSelector, V1Namespace } from '@kubernetes/client-node';
import { matchesLabelSelector } from '../../snapshot/label-selector.js';
import type { Snapshot } from '../../snapshot/types.js';

/** Each namespace's labels, by name; null when the snapshot did not read Namespaces. */
export type NamespaceLabels = ReadonlyMap<string, Readonly<Record<string, string>>> | null;

// A memo, not state: a snapshot's namespaces never change, and every simulation of it reads them.
const byList = new WeakMap<readonly V1Namespace[], Map<string, Readonly<Record<string, string>>>>();

/** The namespaces' labels (the scheduler's namespace lister), or null when they were not read. */
export function namespaceLabels(snapshot: Snapshot): NamespaceLabels {
  if (!snapshot.kinds.has('Namespace')) return null;
  let labels = byList.get(snapshot.namespaces);
  if (!labels) {
    labels = new Map(snapshot.namespaces.map((ns) => [ns.metadata?.name ?? '', ns.metadata?.labels ?? {}]));
    byList.set(snapshot.namespaces, labels);
  }
  return labels;
}

/** The namespaces whose labels match a namespaceSelector (`mergeAffinityTermNamespacesIfNotEmpty`). */
export function namespacesSelected(
  namespaces: NonNullable<NamespaceLabels>,
  selector: V1LabelSelector,
): readonly string[] {
  return [...namespaces].filter(([, labels]) => matchesLabelSelector(labels, selector)).map(([name]) => name);
}
