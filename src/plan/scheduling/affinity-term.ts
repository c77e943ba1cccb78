import type { V1LabelSelector, V1Pod, V1PodAffinityTerm } from '@kubernetes/client-node';
import { matchesLabelSelector } from '../../snapshot/label-selector.js';
import { type NamespaceLabels, namespacesSelected } from './namespace-labels.js';

/**
 * A required pod (anti-)affinity term, resolved like `fwk.AffinityTerm` (kube-scheduler v1.37): the
 * namespaces it looks in, its label selector, its topology key.
 *
 * Namespaces: the listed ones; the owning pod's own namespace when neither `namespaces` nor
 * `namespaceSelector` is set; every namespace for `namespaceSelector: {}`; the listed ones and those
 * whose labels match a namespaceSelector with requirements (the scheduler merges them at PreFilter).
 * Without the snapshot's Namespaces such a selector is taken to select the owning pod's namespace, and
 * `approximated` says so for the plan's caveats.
 */
export interface AffinityTerm {
  readonly topologyKey: string;
  /** null: the field was unset, which selects no pod. */
  readonly selector: V1LabelSelector | null;
  readonly namespaces: ReadonlySet<string>;
  readonly allNamespaces: boolean;
  readonly approximated: boolean;
}

export function requiredAffinityTerms(pod: V1Pod, namespaces: NamespaceLabels): AffinityTerm[] {
  const terms = pod.spec?.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
  return terms.map((t) => affinityTerm(pod, t, namespaces));
}

export function requiredAntiAffinityTerms(pod: V1Pod, namespaces: NamespaceLabels): AffinityTerm[] {
  const terms = pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
  return terms.map((t) => affinityTerm(pod, t, namespaces));
}

/** A term InterPodAffinity's score weighs: preferred affinity adds its weight, preferred anti-affinity takes it away. */
export interface WeightedTerm extends AffinityTerm {
  readonly weight: number;
}

/**
 * kube-scheduler's default `hardPodAffinityWeight`: what an existing pod's required affinity term that
 * matches the incoming pod adds to the score of its domain.
 */
export const HARD_POD_AFFINITY_WEIGHT = 1;

/**
 * The terms of a pod InterPodAffinity's score reads (scoring.go, v1.37): its preferred affinity (+weight)
 * and anti-affinity (−weight) terms; for a pod already on a node (`existing`), also its required affinity
 * terms at HARD_POD_AFFINITY_WEIGHT, which draw the pods they select to its domain.
 */
export function scoringTerms(pod: V1Pod, namespaces: NamespaceLabels, existing: boolean): WeightedTerm[] {
  const affinity = pod.spec?.affinity;
  const weighted = (term: V1PodAffinityTerm, weight: number) => ({ ...affinityTerm(pod, term, namespaces), weight });
  const out: WeightedTerm[] = [];
  for (const t of affinity?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [])
    out.push(weighted(t.podAffinityTerm, t.weight));
  for (const t of affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [])
    out.push(weighted(t.podAffinityTerm, -t.weight));
  if (existing) {
    for (const t of affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [])
      out.push(weighted(t, HARD_POD_AFFINITY_WEIGHT));
  }
  return out;
}

/** Whether a pod has any term scoringTerms would read as an existing pod's (cheap, before resolving them). */
export function hasScoringTerms(pod: V1Pod): boolean {
  const affinity = pod.spec?.affinity;
  return (
    (affinity?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0 ||
    (affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0 ||
    (affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0
  );
}

/**
 * matchLabelKeys/mismatchLabelKeys are not merged here: since 1.33 (GA) the API server merges them into
 * labelSelector when it admits the pod, and the 1.37 scheduler reads labelSelector only.
 */
function affinityTerm(pod: V1Pod, term: V1PodAffinityTerm, known: NamespaceLabels): AffinityTerm {
  const own = pod.metadata?.namespace ?? 'default';
  const listed = term.namespaces ?? [];
  const nsSelector = term.namespaceSelector;
  const allNamespaces = nsSelector != null && isEmptySelector(nsSelector);
  const selects = nsSelector != null && !allNamespaces;
  const approximated = selects && known === null;
  const namespaces = new Set(listed);
  if ((listed.length === 0 && nsSelector == null) || approximated) namespaces.add(own);
  if (selects && known !== null) for (const ns of namespacesSelected(known, nsSelector)) namespaces.add(ns);
  return {
    topologyKey: term.topologyKey,
    selector: term.labelSelector ?? null,
    namespaces,
    allNamespaces,
    approximated,
  };
}

/** `AffinityTerm.Matches`: the pod is in one of the term's namespaces and its labels match the selector. */
export function termMatches(term: AffinityTerm, namespace: string, labels: Readonly<Record<string, string>>): boolean {
  if (!term.allNamespaces && !term.namespaces.has(namespace)) return false;
  return term.selector !== null && matchesLabelSelector(labels, term.selector);
}

/** A selector with no requirement at all: `labels.Everything()` once parsed. */
export function isEmptySelector(selector: V1LabelSelector): boolean {
  return Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0;
}
