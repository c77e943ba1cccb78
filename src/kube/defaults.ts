/** kubectl's default --chunk-size: list objects in pages of this many. */
export const DEFAULT_CHUNK_SIZE = 500;

/** How long an exec credential plugin may run when --request-timeout is not given (kubectl has no bound). */
export const DEFAULT_EXEC_TIMEOUT_MS = 60_000;

/**
 * Where runs keep their Leases unless told (--state-namespace): a namespace of their own, so that a run's
 * identity need not be allowed to write the Leases of kube-system (the control plane's leader election).
 * `kubectl maint rbac run` prints it with the roles; a run refuses in one line while it does not exist.
 */
export const DEFAULT_STATE_NAMESPACE = 'kubectl-maint';

/** Where runs kept their Leases by default before DEFAULT_STATE_NAMESPACE: looked at for such runs. */
export const EARLIER_STATE_NAMESPACE = 'kube-system';
