import { classifyKubeError, type KubeCall, type KubeError, type KubeErrorKind } from '../kube/errors.js';

/**
 * The reads the drain makes on the side of its evictions (a pod's GET while it waits for it to go, a
 * budget's pods to judge its status) expect some failures and ride them out: the API server unreachable,
 * slow, restarting or throttling us; the next read, or a watch, will tell. Any other failure (forbidden,
 * TLS, a bug) is not swallowed: the engine says it.
 */
const PASSING: ReadonlySet<KubeErrorKind> = new Set(['unreachable', 'timeout', 'server', 'too-many-requests']);

/** Null for a failure to ride out; else the error, classified, for a warning. */
export function readFailure(err: unknown, call: KubeCall): KubeError | null {
  const error = classifyKubeError(err, undefined, call);
  return PASSING.has(error.kind) ? null : error;
}
