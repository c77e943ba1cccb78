import type { Snapshot } from '../snapshot/types.js';
import { perSnapshot } from './scheduling/snapshot-objects.js';

/**
 * The Kubernetes minors the plan models (docs/install.md's support matrix). A server outside them is
 * modelled as the nearest one, with a caveat.
 */
export const SUPPORTED_MINORS = [34, 35, 36, 37] as const;
export const OLDEST_MINOR = SUPPORTED_MINORS[0];
export const NEWEST_MINOR = SUPPORTED_MINORS[SUPPORTED_MINORS.length - 1]!;

/** A server version as `/version` reports it (`gitVersion` "v1.34.4", "v1.34.4-gke.1200", "v1.37.2+k3s1"). */
export interface KubeVersion {
  readonly minor: number;
  readonly patch: number;
}

/** `v1.34.4…` → {minor 34, patch 4}; undefined for anything that is not a 1.x.y version. */
export function parseKubeVersion(gitVersion: string): KubeVersion | undefined {
  const match = /^v?1\.(\d+)\.(\d+)/.exec(gitVersion.trim());
  return match ? { minor: Number(match[1]), patch: Number(match[2]) } : undefined;
}

/**
 * What differs between the supported minors, for the rules the plan models: the one place they are
 * written. Every field says which version it follows and where upstream says so. Upstream sources
 * compared (K/K = kubernetes/kubernetes at the tag, read from the k8s.io/kubernetes Go module):
 * pkg/scheduler/apis/config/v1/default_plugins.go and defaults.go (the default profile, its weights and
 * plugin args), pkg/features/kube_features.go (gates on by default), component-helpers
 * resource/helpers.go, dynamic-resource-allocation structured/internal/{stable,incubating,experimental}
 * (the DRA allocator per feature set), pkg/registry/core/pod/storage/eviction.go, CHANGELOG-1.3x.md.
 * What is the same on every supported minor is listed in docs/planning.md ("Kubernetes versions").
 */
export interface KubeRules {
  /** The version modelled, "1.34.4" (or "1.37" where only the minor is known). */
  readonly modelled: string;
  /**
   * TaintToleration's filter reason names the taint ("node(s) had untolerated taint {key: value}")
   * before 1.34.2; from 1.34.2 and 1.35.0 it is "node(s) had untolerated taint(s)" (K/K #134740,
   * backported to 1.34.2 as #135023, CHANGELOG-1.34.md v1.34.2).
   */
  readonly taintReasonNamesTaint: boolean;
  /**
   * How a running pod whose resources were resized counts: 1.37 sums the spec, the allocated and the
   * actuated requests over the containers first and takes the largest sum (component-helpers v0.37.2
   * `AggregateContainerRequests`); 1.34–1.36 take the largest of the three per container, then sum.
   */
  readonly resizeSumsFirst: boolean;
  /**
   * DRADeviceTaints, on by default from 1.36 (beta; alpha and off in 1.34 and 1.35): only then do a
   * device's taints keep a request that does not tolerate them off it (the allocator checks them only
   * with `features.DeviceTaints`).
   */
  readonly draDeviceTaints: boolean;
  /**
   * DRAPartitionableDevices, on by default from 1.36: before, a device that consumes counters cannot be
   * allocated at all (allocator_stable.go: "Devices that consume counters can not be allocated if the
   * PartitionableDevices feature is disabled"); from 1.36 its counters decide, which the plan does not
   * model (the placement is unknown).
   */
  readonly draPartitionableDevices: boolean;
  /** DRAExtendedResource, on by default from 1.36: a DeviceClass may back an extended resource. */
  readonly draExtendedResource: boolean;
  /** DRADeviceTaintRules, on by default from 1.37 (GA; beta and off in 1.36): DeviceTaintRules exist. */
  readonly draDeviceTaintRules: boolean;
  /** NodeDeclaredFeatures, in the default profile from 1.36 (beta, on; GA in 1.37). */
  readonly nodeDeclaredFeatures: boolean;
  /**
   * A ValidatingAdmissionPolicy binding whose named param its informer does not hold is read with a GET
   * before "no params found" is answered, from 1.37 (K/K #134423, apiserver policy_dispatcher.go
   * getParamDirectly; not in 1.34.4 nor 1.36.1, whose backport is K/K #142150). Either way the informer of
   * a built-in paramKind stops for good once no binding uses that kind (K/K #133827, policy_source.go).
   */
  readonly policyParamsReadOnMiss: boolean;
  /** Why the modelled version is not the server's own, for a caveat; null when it is. */
  readonly caveat: string | null;
}

/** The rules of a version; undefined: the newest supported minor is assumed, with a caveat. */
export function kubeRulesFor(gitVersion: string | undefined): KubeRules {
  const parsed = gitVersion === undefined ? undefined : parseKubeVersion(gitVersion);
  let caveat: string | null = null;
  let version: KubeVersion;
  if (!parsed) {
    version = { minor: NEWEST_MINOR, patch: Number.MAX_SAFE_INTEGER };
    caveat =
      gitVersion === undefined
        ? `Kubernetes version: the snapshot does not say which version the cluster runs, so the plan models 1.${NEWEST_MINOR}'s scheduler and API (the newest it supports)`
        : `Kubernetes version: the server's version "${gitVersion}" is not one the plan can read, so it models 1.${NEWEST_MINOR}'s scheduler and API (the newest it supports)`;
  } else if (parsed.minor < OLDEST_MINOR) {
    version = { minor: OLDEST_MINOR, patch: 0 };
    caveat = `Kubernetes version: the server runs 1.${parsed.minor}, older than the oldest the plan supports (1.${OLDEST_MINOR}), so it models 1.${OLDEST_MINOR}.0's scheduler and API`;
  } else if (parsed.minor > NEWEST_MINOR) {
    version = { minor: NEWEST_MINOR, patch: Number.MAX_SAFE_INTEGER };
    caveat = `Kubernetes version: the server runs 1.${parsed.minor}, newer than the newest the plan supports (1.${NEWEST_MINOR}), so it models 1.${NEWEST_MINOR}'s scheduler and API`;
  } else {
    version = parsed;
  }
  const from = (minor: number, patch = 0) =>
    version.minor > minor || (version.minor === minor && version.patch >= patch);
  return {
    modelled: version.patch === Number.MAX_SAFE_INTEGER ? `1.${version.minor}` : `1.${version.minor}.${version.patch}`,
    taintReasonNamesTaint: !from(34, 2),
    resizeSumsFirst: from(37),
    draDeviceTaints: from(36),
    draPartitionableDevices: from(36),
    draExtendedResource: from(36),
    draDeviceTaintRules: from(37),
    nodeDeclaredFeatures: from(36),
    policyParamsReadOnMiss: from(37),
    caveat,
  };
}

/** The rules of the version the snapshot was read from (`serverVersion`), kept per snapshot. */
export const kubeRules = perSnapshot((snapshot: Snapshot) => kubeRulesFor(snapshot.serverVersion));
