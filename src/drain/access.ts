import {
  accessChecks,
  permissionsOf,
  refusedAccessLine,
  type RbacCommand,
  type RbacOption,
} from '../kube/permissions.js';
import type { RunApi } from '../kube/run-api.js';
import type { DrainOptions } from '../plan/types.js';

/** The rights a drain or a run needs beyond its role (kube/permissions.ts), from its options. */
export function rbacOptionsOf(drain: Pick<DrainOptions, 'surge' | 'disableEviction' | 'escalation'>): RbacOption[] {
  const options: RbacOption[] = [];
  if (drain.surge) options.push('surge');
  if (drain.disableEviction || drain.escalation !== undefined) options.push('delete');
  return options;
}

/**
 * Asks the API server (SelfSubjectAccessReview, which every authenticated user may) whether the user may
 * do all that `command` needs, before its first write: a refusal then changes nothing, where one met
 * half-way would leave a node cordoned or a Lease behind. Returns the first refusal, in kube/permissions.ts's
 * order, as one line; null when every check passes.
 */
export async function firstRefusal(
  api: Pick<RunApi, 'canI'>,
  command: RbacCommand,
  options: readonly RbacOption[],
  stateNamespace: string,
): Promise<string | null> {
  const checks = accessChecks(permissionsOf(command, options), stateNamespace);
  const allowed = await Promise.all(checks.map(({ why: _why, ...check }) => api.canI(check)));
  const refused = checks.find((_, i) => !allowed[i]);
  return refused ? refusedAccessLine(refused) : null;
}
