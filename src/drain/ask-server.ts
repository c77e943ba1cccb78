import { evictPod } from '../kube/eviction.js';
import type { DrainClient } from '../kube/drain-client.js';
import type { ServerAnswer } from '../plan/server-answers.js';
import type { PodPlan } from '../plan/types.js';
import { classifyEviction } from './eviction-retry.js';

/** Dry runs in flight at once: a handful, so that a node of a hundred pods asks in seconds without a burst. */
const IN_FLIGHT = 8;

/**
 * plan --ask-server: each eviction the drain would make, sent as a request-level dry run (the `dryRun=All`
 * query, which admission sees: webhooks are told it is a dry run and a webhook with side effects makes the
 * API server refuse it; nothing is written), its answer classified as the drain classifies a real one.
 * Keyed by `namespace/name`.
 */
export async function askServer(client: DrainClient, pods: readonly PodPlan[]): Promise<Map<string, ServerAnswer>> {
  const answers = new Map<string, ServerAnswer>();
  const queue = [...pods];
  const worker = async () => {
    for (let pod = queue.shift(); pod; pod = queue.shift()) {
      answers.set(`${pod.namespace}/${pod.name}`, await askOne(client, pod));
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, pods.length) }, worker));
  return answers;
}

async function askOne(client: DrainClient, pod: PodPlan): Promise<ServerAnswer> {
  const outcome = await evictPod(client, {
    namespace: pod.namespace,
    name: pod.name,
    uid: pod.uid,
    gracePeriodSeconds: null,
    dryRun: true,
  });
  const step = classifyEviction(outcome, {
    namespace: pod.namespace,
    name: pod.name,
    verb: 'create',
    resource: 'pods/eviction',
    budgets: [],
  });
  const code = outcome.kind === 'status' ? outcome.code : outcome.kind === 'ok' ? 201 : null;
  const message =
    outcome.kind === 'status' ? outcome.status.message : outcome.kind === 'network' ? outcome.message : '';
  switch (step.kind) {
    case 'admitted':
      return { answer: 'admitted', code, message: '' };
    case 'budget':
      return { answer: 'budget', code, message };
    case 'gone':
      return { answer: 'error', code, message: `the pod is gone (${step.detail})` };
    case 'retry':
      return code === 429 ? { answer: 'waits', code, message } : { answer: 'error', code, message: step.error };
    case 'fail':
      return { answer: 'refused', code, message };
  }
}
