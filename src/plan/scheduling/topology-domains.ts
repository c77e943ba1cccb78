import type { ClusterState } from './framework.js';
import type { NodeInfo } from './node-info.js';

/** The values a node label takes across a cluster state's nodes, and which one each node has. */
export interface TopologyDomains {
  /** Per node position (in `nodeInfos`), the index of its value in `values`; -1 for a node without the label. */
  readonly ids: Int32Array;
  readonly values: readonly string[];
}

/**
 * The domains of a topology key, kept for every simulation of the cluster state: a drain cordons nodes
 * but changes no label. Spread and affinity counts per domain then index small arrays by these ids
 * instead of looking a label up by a varying name on every node of every placement.
 */
export function topologyDomains(cluster: ClusterState, key: string): TopologyDomains {
  const state = cluster.stateMemo('topology-domains', (nodes) => ({
    nodes,
    byKey: new Map<string, TopologyDomains>(),
  }));
  let domains = state.byKey.get(key);
  if (!domains) state.byKey.set(key, (domains = domainsOf(state.nodes, key)));
  return domains;
}

function domainsOf(nodes: readonly NodeInfo[], key: string): TopologyDomains {
  const ids = new Int32Array(nodes.length);
  const values: string[] = [];
  const idOf = new Map<string, number>();
  for (let at = 0; at < nodes.length; at++) {
    const value = nodes[at]!.labels[key];
    let id = value === undefined ? -1 : idOf.get(value);
    if (id === undefined) {
      id = values.length;
      idOf.set(value!, id);
      values.push(value!);
    }
    ids[at] = id;
  }
  return { ids, values };
}
