// The plan's defaults that flags show in their help: a module of its own, importing nothing, so that
// `--help` reads them without loading the planner.

/**
 * The taint `kubectl maint` compares with a drain when --taint is not given. Not
 * node.kubernetes.io/out-of-service: that one also tells the control plane the node is shut down
 * (volumes are force-detached), which is not what a maintenance comparison means.
 */
export const DEFAULT_MAINTENANCE_TAINT_KEY = 'kubectl-maint/maintenance';
