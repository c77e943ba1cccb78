import type { SUPPORTED_MINORS } from '../kube-version.js';

/** A score plugin of the profile with its weight. */
export interface WeightedScore {
  readonly name: string;
  readonly weight: number;
}

/**
 * The default scheduler profile of one Kubernetes minor, as pkg/scheduler/apis/config/v1/default_plugins.go
 * declares it (with DynamicResources inserted before DefaultPreemption, as its applyFeatureGates does).
 */
export interface Profile {
  /**
   * The modelled filters in the profile's order. The order matters: a node is reported under the first
   * filter that rejects it, as in the FailedScheduling event.
   */
  readonly filters: readonly string[];
  /** The modelled score plugins with their weights; a node's score is the weighted sum. */
  readonly scores: readonly WeightedScore[];
  /**
   * The profile's filter and score plugins the simulation does not model, and why (SCHEDULER_CAVEATS
   * says what that means for a plan).
   */
  readonly notModelled: Readonly<Record<string, string>>;
}

const FILTERS = [
  'NodeUnschedulable',
  'TaintToleration',
  'NodeAffinity',
  'NodePorts',
  'NodeResourcesFit',
  'VolumeRestrictions',
  'NodeVolumeLimits',
  'VolumeBinding',
  'VolumeZone',
  'PodTopologySpread',
  'InterPodAffinity',
  'DynamicResources',
] as const;

const SCORES: readonly WeightedScore[] = [
  { name: 'TaintToleration', weight: 3 },
  { name: 'NodeAffinity', weight: 2 },
  { name: 'PodTopologySpread', weight: 2 },
  { name: 'InterPodAffinity', weight: 2 },
  { name: 'NodeResourcesFit', weight: 1 },
  { name: 'NodeResourcesBalancedAllocation', weight: 1 },
];

const NOT_MODELLED = {
  NodeName: 'always passes for a replacement: it has no spec.nodeName',
  ImageLocality: 'score, weight 1: the snapshot has no image sizes',
  VolumeBinding: 'score of the capacity of claims still to be provisioned (StorageCapacityScoring)',
};

/**
 * The default profile per supported minor: the one place its plugins and weights are written. The
 * minors differ only in what the simulation does not model: NodeDeclaredFeatures joins the filters in
 * 1.36 (beta, on by default; GA in 1.37).
 */
export const DEFAULT_PROFILES: Readonly<Record<(typeof SUPPORTED_MINORS)[number], Profile>> = {
  34: { filters: FILTERS, scores: SCORES, notModelled: NOT_MODELLED },
  35: { filters: FILTERS, scores: SCORES, notModelled: NOT_MODELLED },
  36: {
    filters: FILTERS,
    scores: SCORES,
    notModelled: { ...NOT_MODELLED, NodeDeclaredFeatures: "filter: the nodes' status.declaredFeatures are not read" },
  },
  37: {
    filters: FILTERS,
    scores: SCORES,
    notModelled: { ...NOT_MODELLED, NodeDeclaredFeatures: "filter: the nodes' status.declaredFeatures are not read" },
  },
};
