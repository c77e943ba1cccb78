import type { RunApi } from '../kube/run-api.js';
import { DEFAULT_STATE_NAMESPACE, EARLIER_STATE_NAMESPACE } from '../kube/defaults.js';
import { RUN_LABEL } from './state.js';

/**
 * The namespace of the runs' state is made by whoever grants the run its rights (`kubectl maint rbac run`
 * prints it with the roles), never by the run: its identity needs no right to create namespaces. A run
 * whose namespace is missing says so in one line before it writes anything, instead of a refused access
 * check or a 404 from its first write.
 */
export async function missingStateNamespace(api: Pick<RunApi, 'namespaceExists'>, namespace: string) {
  if ((await api.namespaceExists(namespace)) !== false) return null;
  return `namespace "${namespace}" for the runs' state does not exist: create it (kubectl create namespace ${namespace}; kubectl maint rbac run prints it with the roles), or name another with --state-namespace; nothing was changed`;
}

/**
 * Runs started when the Leases were kept in kube-system by default: a note naming the flag that shows
 * them, when `namespace` is today's default and kube-system holds any (and may be read); null otherwise.
 */
export async function earlierRunsNote(api: Pick<RunApi, 'listLeases'>, namespace: string): Promise<string | null> {
  if (namespace !== DEFAULT_STATE_NAMESPACE) return null;
  const earlier = await api.listLeases(EARLIER_STATE_NAMESPACE, RUN_LABEL).catch(() => []);
  if (earlier.length === 0) return null;
  return `${earlier.length} run${earlier.length === 1 ? '' : 's'} in namespace "${EARLIER_STATE_NAMESPACE}": see ${earlier.length === 1 ? 'it' : 'them'} with --state-namespace ${EARLIER_STATE_NAMESPACE}`;
}
