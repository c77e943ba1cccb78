/**
 * What the scheduling simulation does not model, for the plan's caveats. Each line names the scheduler
 * rule and what it means for a replacement; plan/caveats.ts decides which of them can apply to a plan.
 */
export const SCHEDULER_CAVEATS = {
  inTreeVolumes:
    'VolumeRestrictions and NodeVolumeLimits: in-tree volume plugins (inline GCE PD, AWS EBS, iSCSI, RBD, Azure and Cinder disks; PersistentVolumes migrated to CSI drivers) are neither compared nor counted against attach limits',
  dra: 'DynamicResources: DeviceTaintRules are not read (the devices they taint are taken as untainted)',
  draExtendedResources:
    'DynamicResources: extended resources a DeviceClass backs with DRA (extendedResourceName) are checked against node allocatable only, not allocated from devices',
  declaredFeatures: 'NodeDeclaredFeatures: node status.declaredFeatures (GA in 1.37) are not checked',
  preemption:
    'DefaultPreemption: the victims are taken as gone at once (their graceful termination is not timed), room nominated to other pods is not held for them, and on a cluster of more than 100 candidate nodes the dry run starts at the first node where the scheduler starts at a random one',
  scoring:
    'Scoring: among nodes whose weighted scores are equal kube-scheduler picks one at random (the plan names the first, and the others in tiedWith); ImageLocality and the capacity score of volumes still to be provisioned are not counted',
  pendingPods:
    "Pending pods: those waiting take room before the replacements, in the queue's order (priority, then creation time, for the queue time); one that fits nowhere is not retried as the drain goes, and a nominated pod holds its node only where it fits now (room its preemption victims still hold is not counted free)",
  profiles:
    'Scheduler profiles: a custom profile (other plugins or weights, NodeAffinity addedAffinity, PodTopologySpread defaultConstraints of type List, ignored resources, extenders) is not read; the default profile is assumed',
  namespaceSelector:
    "namespaceSelector in pod (anti-)affinity: Namespaces were not read, so a selector with requirements is read as the owning pod's namespace (`{}` still means every namespace)",
  gates: 'Pod groups (gang scheduling) and pods bound to a node outside the snapshot are not considered',
} as const;

/** Every scheduler rule the simulation leaves out (the README lists them). */
export const UNMODELLED_SCHEDULER_RULES: readonly string[] = Object.values(SCHEDULER_CAVEATS);
