import type { AffinityTerm } from './affinity-term.js';
import type { NodeInfo } from './node-info.js';

/** A required anti-affinity term of a pod on a node. */
export interface ExistingTerm {
  readonly term: AffinityTerm;
  readonly node: NodeInfo;
  /** The uid of the pod that has the term. */
  readonly uid: string;
}

/** A pod's required anti-affinity terms, as the index files them. */
export interface PodTerms {
  readonly terms: readonly AffinityTerm[];
  readonly node: NodeInfo;
  readonly uid: string;
}

const ANY_NAMESPACE = '\u0001any';
const NO_LABEL = '\u0001none';
const bucket = (namespace: string, key: string, value = '') => `${namespace}\u0000${key}\u0000${value}`;

/**
 * The required anti-affinity terms of assigned pods, indexed so that a placement only looks at the terms
 * that can match the incoming pod: by each namespace the term looks in and by one of its matchLabels
 * pairs. The scheduler walks every such pod per scheduling cycle; with a third of 150,000 pods carrying
 * anti-affinity that walk would dominate a drain plan, and the answer is the same.
 */
export class AntiAffinityIndex {
  private readonly buckets: Map<string, ExistingTerm[]>;
  /**
   * The label keys of the buckets (a superset: a key whose terms are gone may stay): a pod's labels with
   * other keys have no bucket, and candidates makes no bucket name for them. A simulation's own index
   * holds the terms of the few replacements it placed, under a key or two, and every placement asks it.
   */
  private readonly labelKeys: Set<string>;

  constructor(buckets = new Map<string, ExistingTerm[]>(), labelKeys = new Set<string>()) {
    this.buckets = buckets;
    this.labelKeys = labelKeys;
  }

  add(terms: readonly AffinityTerm[], node: NodeInfo, uid: string): void {
    for (const term of terms) {
      const labelKey = labelKeyOf(term);
      if (labelKey !== undefined) this.labelKeys.add(labelKey);
      for (const key of bucketsOf(term)) {
        const list = this.buckets.get(key);
        if (list) list.push({ term, node, uid });
        else this.buckets.set(key, [{ term, node, uid }]);
      }
    }
  }

  /** A copy whose additions stay out of this one. */
  copy(): AntiAffinityIndex {
    return new AntiAffinityIndex(
      new Map([...this.buckets].map(([key, list]) => [key, [...list]])),
      new Set(this.labelKeys),
    );
  }

  /**
   * A new index without the terms of `removed` and with those of `added` (appended, as a fresh index
   * built from the new pod list would hold them). This one is left as it was: the buckets both share are
   * copied before they change.
   */
  derive(removed: readonly PodTerms[], added: readonly PodTerms[]): AntiAffinityIndex {
    const buckets = new Map(this.buckets);
    const gone = new Set(removed.map((r) => r.uid));
    const touched = new Set(removed.flatMap((r) => r.terms.flatMap(bucketsOf)));
    for (const key of touched) {
      const kept = (buckets.get(key) ?? []).filter((e) => !gone.has(e.uid));
      if (kept.length > 0) buckets.set(key, kept);
      else buckets.delete(key);
    }
    const labelKeys = new Set(this.labelKeys);
    for (const { terms, node, uid } of added) {
      for (const term of terms) {
        const labelKey = labelKeyOf(term);
        if (labelKey !== undefined) labelKeys.add(labelKey);
        for (const key of bucketsOf(term)) buckets.set(key, [...(buckets.get(key) ?? []), { term, node, uid }]);
      }
    }
    return new AntiAffinityIndex(buckets, labelKeys);
  }

  /** Terms that may match a pod of `namespace` with `labels`; callers still check each with termMatches. */
  candidates(namespace: string, labels: Readonly<Record<string, string>>): ExistingTerm[] {
    const out: ExistingTerm[] = [];
    // A simulation's own index is empty until it commits a pod with such terms: most placements ask it.
    if (this.buckets.size === 0) return out;
    this.collect(out, namespace, labels);
    this.collect(out, ANY_NAMESPACE, labels);
    return out;
  }

  /** Appends the terms filed under the namespace with no label, then under each of the labels. */
  private collect(out: ExistingTerm[], namespace: string, labels: Readonly<Record<string, string>>): void {
    appendAll(out, this.buckets.get(bucket(namespace, NO_LABEL)));
    for (const key in labels) {
      if (this.labelKeys.has(key)) appendAll(out, this.buckets.get(bucket(namespace, key, labels[key])));
    }
  }
}

function appendAll(out: ExistingTerm[], terms: readonly ExistingTerm[] | undefined): void {
  if (terms) for (const term of terms) out.push(term);
}

/** The label key of the buckets a term is filed under: its first matchLabels pair's (none without one). */
function labelKeyOf(term: AffinityTerm): string | undefined {
  return term.selector === null ? undefined : Object.keys(term.selector.matchLabels ?? {})[0];
}

/** The buckets a term is filed under: none for a term that selects no pod. */
function bucketsOf(term: AffinityTerm): string[] {
  if (term.selector === null) return [];
  const [first] = Object.entries(term.selector.matchLabels ?? {});
  const namespaces = term.allNamespaces ? [ANY_NAMESPACE] : [...term.namespaces];
  return namespaces.map((ns) => (first ? bucket(ns, first[0], first[1]) : bucket(ns, NO_LABEL)));
}
