import type { KubeClient } from '../kube/client.js';
import type { DrainPlan } from '../plan/types.js';
import { asCliError } from './kube-flag-values.js';

/**
 * The admission chain asked (plan --ask-server, and the plan a drain shows before it acts): each eviction
 * the drain would make sent as a request-level dry run (drain/ask-server.ts), the answers beside the
 * plan's predictions (plan/server-answers.ts), the answer winning where they differ.
 */
export async function withAnswersOfServer(plan: DrainPlan, client: KubeClient): Promise<DrainPlan> {
  const [{ askServer }, { podsToAsk, withServerAnswers }, { drainClientFor }] = await Promise.all([
    import('../drain/ask-server.js'),
    import('../plan/server-answers.js'),
    import('../kube/drain-client.js'),
  ]);
  try {
    return withServerAnswers(plan, await askServer(drainClientFor(client), podsToAsk(plan)));
  } catch (err) {
    throw asCliError(err);
  }
}
