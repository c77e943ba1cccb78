/**
 * kubectl's PodDeleteList aggregation: pods grouped by message, one group per line for errors
 * ("cannot delete <message>: ns/a, ns/b") and one string for warnings ("<message>: ns/a; <message>: ns/b").
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

export function warningText(pods: readonly FilteredPod[]): string {
  return [...groupByReason(pods)].map(([reason, names]) => `${reason}: ${names}`).join('; ');
}

function groupByReason(pods: readonly FilteredPod[]): Map<string, string> {
  const groups = new Map<string, string[]>();
  for (const pod of pods) {
    const list = groups.get(pod.reason) ?? [];
    list.push(`${pod.namespace}/${pod.name}`);
    groups.set(pod.reason, list);
  }
  return new Map([...groups].map(([reason, names]) => [reason, names.join(', ')]));
}
