/**
 * kubectl's PodDeleteList aggregation: pods grouped by message, one group per line for errors
 * ("cannot delete <message>: ns/a, ns/b").
 * Groups keep first-seen order (kubectl's follows Go map order, which is random).
 */
export interface FilteredPod {
  readonly namespace: string;
  readonly name: string;
  readonly reason: string;
}

export function refusalLines(pods: readonly FilteredPod[]): string[] {
  return [...groupByReason(pods)].map(([reason, names]) => `cannot delete ${reason || 'unexpected error'}: ${names}`);
}

function groupByReason(pods: readonly FilteredPod[]): Map<string, string> {
  const groups = Map.groupBy(pods, (pod) => pod.reason);
  return new Map([...groups].map(([reason, list]) => [reason, list.map((p) => `${p.namespace}/${p.name}`).join(', ')]));
}
