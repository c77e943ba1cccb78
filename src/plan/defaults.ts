// The plan's defaults that flags show in their help: a module of its own, importing nothing, so that
// `--help` reads them without loading the planner.

/**
 * The taint `kubectl maint` compares with a drain when --taint is not given. Not
 * node.kubernetes.io/out-of-service: that one also tells the control plane the node is shut down
 * (volumes are force-detached), which is not what a maintenance comparison means.
 */
export const DEFAULT_MAINTENANCE_TAINT_KEY = 'kubectl-maint/maintenance';

/** kube-controller-manager's --node-monitor-grace-period default since Kubernetes 1.32 (40s before), seconds. */
export const DEFAULT_NODE_MONITOR_GRACE_PERIOD_SECONDS = 50;

/** --concurrency's default: pods evicted and not yet gone at a time (read by the drain, shown by its help). */
export const DEFAULT_CONCURRENCY = 16;
