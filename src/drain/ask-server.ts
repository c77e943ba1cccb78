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
 * API server refuse it; nothing is written), its answer classified as the drain classifies a real one,
 * with the API server's `Warning:` headers.
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

/**
 * The API server's refusal of a dry run that meets a webhook whose sideEffects are Some or Unknown
 * (apiserver webhook/errors NewDryRunUnsupportedErr): no answer about the eviction, said per webhook.
 */
const NO_DRY_RUN = /^admission webhook "([^"]+)" does not support dry run$/;

/** The webhook a refusal names (apiserver webhook/errors ToStatusErr), if it is a webhook's. */
function webhookOf(message: string): { webhook?: string } {
  const name = /^admission webhook "([^"]+)" denied the request/.exec(message)?.[1];
  return name ? { webhook: name } : {};
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
  const warnings = outcome.kind === 'network' ? [] : (outcome.warnings ?? []);
  const answer = (kind: ServerAnswer['answer'], text: string): ServerAnswer => ({
    answer: kind,
    code,
    message: text,
    ...(warnings.length > 0 ? { warnings } : {}),
  });
  const noDryRun = outcome.kind === 'status' && outcome.code === 400 ? NO_DRY_RUN.exec(message) : null;
  if (noDryRun) return { ...answer('no-dry-run', message), webhook: noDryRun[1]! };
  switch (step.kind) {
    case 'admitted':
      return answer('admitted', '');
    case 'budget':
      return answer('budget', message);
    case 'gone':
      return answer('error', `the pod is gone (${step.detail})`);
    case 'retry':
      return code === 429 ? { ...answer('waits', message), ...webhookOf(message) } : answer('error', step.error);
    case 'fail':
      return answer('refused', message);
  }
}
