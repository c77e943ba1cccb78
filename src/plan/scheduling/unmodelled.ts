/**
 * What the scheduling simulation does not model, for the plan's caveats. Each line names the scheduler
 * rule and what it means for a replacement; plan/caveats.ts decides which of them can apply to a plan.
 */
export const SCHEDULER_CAVEATS = {
  inTreeVolumes:
    'VolumeRestrictions and NodeVolumeLimits: in-tree volume plugins (inline GCE PD, AWS EBS, iSCSI, RBD, Azure and Cinder disks; PersistentVolumes migrated to CSI drivers) are neither compared nor counted against attach limits',
  dra: 'DynamicResources: ResourceClaims (DRA) and DRA-backed extended resources are not checked',
  declaredFeatures: 'NodeDeclaredFeatures: node status.declaredFeatures (GA in 1.37) are not checked',
  preemption:
    'DefaultPreemption: a replacement that could evict lower-priority pods is not simulated; the message only says whether preemption could apply',
  scoring:
    'Scoring: the node a replacement lands on is a deterministic approximation (PreferNoSchedule taints, spread, siblings, least allocated, name), not the weighted plugin scores',
  pendingPods:
    'Pending pods: pods of other workloads waiting to be scheduled, and nominated pods, do not compete for room',
  profiles:
    'Scheduler profiles: a custom profile (other plugins or weights, NodeAffinity addedAffinity, PodTopologySpread defaultConstraints of type List, ignored resources, extenders) is not read; the default profile is assumed',
  namespaceSelector:
    "namespaceSelector in pod (anti-)affinity: namespace labels are not in the snapshot, so it is read as the owning pod's namespace (`{}` still means every namespace)",
  gates:
    'Scheduling gates, pod groups (gang scheduling) and pods bound to a node outside the snapshot are not considered',
} as const;

/** Every scheduler rule the simulation leaves out (the README lists them). */
export const UNMODELLED_SCHEDULER_RULES: readonly string[] = Object.values(SCHEDULER_CAVEATS);
