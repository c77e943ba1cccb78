import type { V1NodeSelectorRequirement, V1NodeSelectorTerm, V1Pod } from '@kubernetes/client-node';
import type { NodeInfo } from './node-info.js';

/**
 * Node selector terms as component-helpers' nodeaffinity matches them (v1.37): read by NodeAffinity, and
 * by the volumes' and devices' node selectors (a PersistentVolume's node affinity, a ResourceSlice's).
 */
export type NodeMatcher = (node: NodeInfo) => boolean;

/**
 * `MatchNodeSelectorTerms` for a required NodeSelector held elsewhere (a PersistentVolume's node
 * affinity): the terms ORed, empty terms dropped, so terms that are all empty match no node.
 */
export function nodeSelectorMatcher(terms: readonly V1NodeSelectorTerm[]): NodeMatcher {
  const compiled = terms
    .filter((t) => (t.matchExpressions ?? []).length > 0 || (t.matchFields ?? []).length > 0)
    .map(compileTerm);
  return (node) => compiled.some((matches) => matches(node));
}

function compileTerm(term: V1NodeSelectorTerm): NodeMatcher {
  const expressions = (term.matchExpressions ?? []).map(labelRequirement);
  const fields = (term.matchFields ?? []).map(fieldRequirement);
  const parts = [...expressions, ...fields];
  if (parts.some((p) => p === undefined)) return () => false;
  const checks = parts as NodeMatcher[];
  return (node) => checks.every((check) => check(node));
}

/** labels.Requirement with the node-selector operators; undefined when it would not parse. */
function labelRequirement(req: V1NodeSelectorRequirement): NodeMatcher | undefined {
  const values = req.values ?? [];
  const has = (node: NodeInfo) => Object.prototype.hasOwnProperty.call(node.labels, req.key);
  switch (req.operator) {
    case 'In':
      return values.length > 0 ? (n) => has(n) && values.includes(n.labels[req.key]!) : undefined;
    case 'NotIn':
      return values.length > 0 ? (n) => !has(n) || !values.includes(n.labels[req.key]!) : undefined;
    case 'Exists':
      return values.length === 0 ? has : undefined;
    case 'DoesNotExist':
      return values.length === 0 ? (n) => !has(n) : undefined;
    case 'Gt':
    case 'Lt': {
      const bound = values.length === 1 ? parseInteger(values[0]!) : undefined;
      if (bound === undefined) return undefined;
      return (n) => {
        const value = has(n) ? parseInteger(n.labels[req.key]!) : undefined;
        if (value === undefined) return false;
        return req.operator === 'Gt' ? value > bound : value < bound;
      };
    }
    default:
      return undefined;
  }
}

/** matchFields: only metadata.name, with In or NotIn and exactly one value. */
function fieldRequirement(req: V1NodeSelectorRequirement): NodeMatcher | undefined {
  const values = req.values ?? [];
  if (values.length !== 1) return undefined;
  const field = (n: NodeInfo) => (req.key === 'metadata.name' ? n.name : '');
  if (req.operator === 'In') return (n) => field(n) === values[0];
  if (req.operator === 'NotIn') return (n) => field(n) !== values[0];
  return undefined;
}

/** strconv.ParseInt(s, 10, 64); BigInt keeps int64 labels exact. */
function parseInteger(text: string): bigint | undefined {
  return /^[+-]?\d+$/.test(text) ? BigInt(text) : undefined;
}

/**
 * `nodeaffinity.GetRequiredNodeAffinity(pod).Match` (component-helpers, v1.37): `spec.nodeSelector`
 * (every key=value on the node) AND the required node affinity, whose terms are ORed. Within a term all
 * matchExpressions and all matchFields must hold. A term with neither is dropped, so terms that are all
 * empty match no node; a term that does not parse (an operator it does not know, In without values, Gt
 * with a non-integer) never matches. Parsed by NodeAffinity's PreFilter for its Filter, by
 * PodTopologySpread's for its nodeAffinityPolicy, each into its own state, and by the simulation for the
 * drained nodes a pod could read.
 */
export function requiredNodeAffinity(pod: V1Pod): NodeMatcher {
  const selector = Object.entries(pod.spec?.nodeSelector ?? {});
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  const terms = required ? nodeSelectorMatcher(required.nodeSelectorTerms) : undefined;
  return (node) => {
    if (!selector.every(([key, value]) => node.labels[key] === value)) return false;
    return terms === undefined || terms(node);
  };
}
