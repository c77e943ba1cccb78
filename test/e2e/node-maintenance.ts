import { kubectl, kubectlJson } from './lab.js';

// What the e2e tests of a node's maintenance read: the autoscaler annotations and kubectl maint's record
// of them, and the events `kubectl describe node` shows of kubectl maint.

export const SCALE_DOWN = 'cluster-autoscaler.kubernetes.io/scale-down-disabled';
export const KARPENTER = 'karpenter.sh/do-not-disrupt';
export const RECORD = 'maint.kubectl.io/autoscaler-annotations';

/** The node's autoscaler annotations and kubectl maint's record of them (its other annotations left out). */
export async function autoscalerAnnotations(node: string): Promise<Record<string, string>> {
  const read = await kubectlJson<{ metadata: { annotations?: Record<string, string> } }>(['get', 'node', node]);
  return Object.fromEntries(
    Object.entries(read.metadata.annotations ?? {}).filter(([key]) => [SCALE_DOWN, KARPENTER, RECORD].includes(key)),
  );
}

/** A row of `kubectl describe node`'s Events table, its columns as printed. */
export interface DescribedEvent {
  readonly type: string;
  readonly reason: string;
  /** `5s`, or `5s (x3 over 10s)` for a series. */
  readonly age: string;
  readonly from: string;
  readonly message: string;
}

/** The rows of `kubectl describe node NODE`'s Events table reported by kubectl-maint, oldest first. */
export async function maintNodeEvents(node: string): Promise<DescribedEvent[]> {
  const text = String((await kubectl(['describe', 'node', node])).stdout);
  return text
    .slice(text.indexOf('\nEvents:'))
    .split('\n')
    .map((line) => line.trim().split(/ {2,}/))
    .filter(([type, , , from]) => (type === 'Normal' || type === 'Warning') && from === 'kubectl-maint')
    .map(([type, reason, age, from, ...message]) => ({
      type: type!,
      reason: reason!,
      age: age!,
      from: from!,
      message: message.join('  '),
    }));
}

/** The rows as `Type Reason: message`, the age left out: what a test compares. */
export async function maintNodeTrail(node: string): Promise<string[]> {
  return (await maintNodeEvents(node)).map((e) => `${e.type} ${e.reason}: ${e.message}`);
}
