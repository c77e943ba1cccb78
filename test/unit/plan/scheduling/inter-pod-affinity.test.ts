import type { V1Affinity, V1Namespace, V1PodAffinityTerm } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { SimulatedCluster } from '../../../../src/plan/scheduling/cluster-state.js';
import type { FilterResult } from '../../../../src/plan/scheduling/framework.js';
import { podInfo } from '../../../../src/plan/scheduling/pod-info.js';
import { interPodAffinityPlugin } from '../../../../src/plan/scheduling/plugins/inter-pod-affinity.js';
import { preFilter } from '../../../../src/plan/scheduling/registry.js';
import { SNAPSHOT_KINDS } from '../../../../src/snapshot/types.js';
import { makeIndex, makeNode, makePod } from '../../builders.js';
import { onNodes, type PluginCase, runPlugin, type Scene } from './harness.js';

const AFFINITY: FilterResult = {
  code: 'UnschedulableAndUnresolvable',
  reasons: ["node(s) didn't match pod affinity rules"],
};
const ANTI: FilterResult = { code: 'Unschedulable', reasons: ["node(s) didn't match pod anti-affinity rules"] };
const EXISTING_ANTI: FilterResult = {
  code: 'Unschedulable',
  reasons: ["node(s) didn't satisfy existing pods anti-affinity rules"],
};
const ZONE = 'topology.kubernetes.io/zone';
const HOST = 'kubernetes.io/hostname';

const term = (app: string, topologyKey: string, extra: Partial<V1PodAffinityTerm> = {}): V1PodAffinityTerm => ({
  labelSelector: { matchLabels: { app } },
  topologyKey,
  ...extra,
});
const affinity = (...terms: V1PodAffinityTerm[]): V1Affinity => ({
  podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: terms },
});
const antiAffinity = (...terms: V1PodAffinityTerm[]): V1Affinity => ({
  podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: terms },
});
const pod = (name: string, app: string, node?: string, a?: V1Affinity, ns = 'default') => {
  let b = makePod().name(name).ns(ns).label('app', app);
  if (node) b = b.node(node);
  if (a) b = b.affinity(a);
  return b.obj();
};
const nodes = [
  makeNode().name('a1').label(ZONE, 'a').obj(),
  makeNode().name('a2').label(ZONE, 'a').obj(),
  makeNode().name('b1').label(ZONE, 'b').obj(),
  makeNode().name('nozone').obj(),
];

const dbInZoneA: Scene = { nodes, pods: [pod('db', 'db', 'a1')] };
const dbInOtherNamespace: Scene = { nodes, pods: [pod('db', 'db', 'a1', undefined, 'data')] };
const webInZoneA: Scene = { nodes, pods: [pod('web-0', 'web', 'a1')] };
const cacheAvoidingWeb = (ns = 'default'): Scene => ({
  nodes,
  pods: [pod('cache', 'cache', 'a1', antiAffinity(term('web', ZONE)), ns)],
});
const needsDb = (extra: Partial<V1PodAffinityTerm> = {}) =>
  pod('web', 'web', undefined, affinity(term('db', ZONE, extra)));
const avoidsWeb = (key = ZONE) => pod('web-1', 'web', undefined, antiAffinity(term('web', key)));
const avoidsWebIn = (extra: Partial<V1PodAffinityTerm>) =>
  pod('web-1', 'web', undefined, antiAffinity(term('web', ZONE, extra)));

const cases: PluginCase[] = [
  ...onNodes(dbInZoneA, needsDb(), [
    ['Required affinity is satisfied by a matching pod in the same zone, on another node', 'a2', null],
    ['Required affinity fails in a zone where no matching pod runs, if one runs elsewhere', 'b1', AFFINITY],
    ["Required affinity fails on a node that lacks the term's topology key", 'nozone', AFFINITY],
  ]),
  ...onNodes({ nodes }, pod('web', 'web', undefined, affinity(term('web', ZONE))), [
    [
      'The first pod of a group that matches its own affinity fits anywhere with the key, as no pod matches yet',
      'b1',
      null,
    ],
    ['The first pod of a group still needs the topology key', 'nozone', AFFINITY],
  ]),
  ...onNodes({ nodes }, needsDb(), [
    ["The first-pod exception doesn't apply to a pod that doesn't match its own affinity", 'b1', AFFINITY],
  ]),
  ...onNodes(dbInOtherNamespace, needsDb(), [
    ["Required affinity only looks in the pod's own namespace by default", 'a1', AFFINITY],
  ]),
  ...onNodes(dbInOtherNamespace, needsDb({ namespaces: ['data'] }), [
    ['Required affinity with namespaces lists where to look', 'a1', null],
  ]),
  ...onNodes(dbInOtherNamespace, needsDb({ namespaceSelector: {} }), [
    ['Required affinity with namespaceSelector {} looks in every namespace', 'a1', null],
  ]),
  ...onNodes(webInZoneA, avoidsWeb(), [
    ['Required anti-affinity rejects a zone where a matching pod runs', 'a2', ANTI],
    ['Required anti-affinity admits another zone', 'b1', null],
    ["Required anti-affinity imposes nothing on a node without the term's key", 'nozone', null],
  ]),
  ...onNodes(
    { nodes, pods: [makePod().name('web-0').label('app', 'web').node('a1').deleting(1_700_000_000).obj()] },
    avoidsWeb(HOST),
    [['A terminating pod still counts for required anti-affinity', 'a1', ANTI]],
  ),
  ...onNodes({ ...webInZoneA, evicted: webInZoneA.pods }, avoidsWeb(), [
    ['A pod evicted by the simulation still counts for required anti-affinity while it terminates', 'a2', ANTI],
  ]),
  ...onNodes(cacheAvoidingWeb(), pod('web', 'web'), [
    ["An existing pod's required anti-affinity keeps a matching pod out of its zone", 'a2', EXISTING_ANTI],
    ["An existing pod's required anti-affinity doesn't reach another zone", 'b1', null],
  ]),
  ...onNodes(cacheAvoidingWeb('other'), pod('web', 'web'), [
    ["An existing pod's required anti-affinity only applies to pods of its namespace by default", 'a1', null],
  ]),
  ...onNodes({ nodes, pods: [pod('web-0', 'web', 'a1', affinity(term('db', ZONE)))] }, pod('other', 'other'), [
    ["An existing pod's required affinity is not checked against the incoming pod", 'a1', null],
  ]),
];

describe('InterPodAffinity Filter', () => {
  it.each(cases)('$name', ({ scene, incoming, node, want }) => {
    expect(runPlugin('InterPodAffinity', scene, incoming, node)).toEqual(want);
  });

  it("without Namespaces, reads a namespaceSelector with requirements as the pod's own namespace, and says so", () => {
    const index = makeIndex({ nodes, pods: [pod('db', 'db', 'a1', undefined, 'data')], kinds: withoutNamespaces });
    const cluster = new SimulatedCluster(index, new Set());
    const incoming = podInfo(needsDb({ namespaceSelector: { matchLabels: { team: 'data' } } }), index.snapshot);
    const state = preFilter(incoming, cluster);
    expect(state.read(interPodAffinityPlugin).affinityCounts.size).toBe(0);
    expect(state.read(interPodAffinityPlugin).approximated).toBe(true);
    expect(cluster.caveats).toEqual([expect.stringContaining('namespaceSelector')]);
  });
});

const withoutNamespaces = SNAPSHOT_KINDS.filter((k) => k !== 'Namespace');
const namespace = (name: string, labels: Record<string, string>): V1Namespace => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels },
});
const namespaces = [namespace('data', { team: 'data' }), namespace('default', {}), namespace('other', { team: 'web' })];
const teamData = { namespaceSelector: { matchLabels: { team: 'data' } } };

/** A term applies to the union of the namespaces it lists and those its namespaceSelector selects (the API's definition), once the Namespaces are read. */
const namespaceCases: PluginCase[] = [
  ...onNodes({ nodes, pods: [pod('db', 'db', 'a1', undefined, 'data')], storage: { namespaces } }, needsDb(teamData), [
    ['Required affinity with a namespaceSelector is satisfied by a pod in a namespace it selects', 'a2', null],
    ['Required affinity with a namespaceSelector fails in a zone without such a pod', 'b1', AFFINITY],
  ]),
  ...onNodes({ nodes, pods: [pod('db', 'db', 'a1', undefined, 'other')], storage: { namespaces } }, needsDb(teamData), [
    ["Required affinity with a namespaceSelector ignores pods of namespaces it doesn't select", 'a1', AFFINITY],
  ]),
  ...onNodes(
    { nodes, pods: [pod('db', 'db', 'a1', undefined, 'other')], storage: { namespaces } },
    needsDb({ ...teamData, namespaces: ['other'] }),
    [['Required affinity looks in the listed namespaces and in those the namespaceSelector selects', 'a1', null]],
  ),
  ...onNodes(
    { nodes, pods: [pod('web-0', 'web', 'a1', undefined, 'data')], storage: { namespaces } },
    avoidsWebIn(teamData),
    [
      [
        "Required anti-affinity with a namespaceSelector rejects a zone where a selected namespace's pod runs",
        'a2',
        ANTI,
      ],
    ],
  ),
  ...onNodes(
    {
      nodes,
      pods: [
        pod(
          'cache',
          'cache',
          'a1',
          antiAffinity(term('web', ZONE, { namespaceSelector: { matchLabels: { team: 'web' } } })),
          'data',
        ),
      ],
      storage: { namespaces },
    },
    pod('web', 'web', undefined, undefined, 'other'),
    [
      [
        "An existing pod's anti-affinity with a namespaceSelector keeps out a pod of a namespace it selects",
        'a2',
        EXISTING_ANTI,
      ],
      ["An existing pod's anti-affinity with a namespaceSelector doesn't reach another zone", 'b1', null],
    ],
  ),
  ...onNodes(
    {
      nodes,
      pods: [
        pod(
          'cache',
          'cache',
          'a1',
          antiAffinity(term('web', ZONE, { namespaceSelector: { matchLabels: { team: 'web' } } })),
          'data',
        ),
      ],
      storage: { namespaces },
    },
    pod('web', 'web', undefined, undefined, 'default'),
    [
      [
        "An existing pod's anti-affinity with a namespaceSelector ignores a pod of a namespace it doesn't select",
        'a2',
        null,
      ],
    ],
  ),
];

describe('InterPodAffinity Filter with namespaceSelector and the Namespaces read', () => {
  it.each(namespaceCases)('$name', ({ scene, incoming, node, want }) => {
    expect(runPlugin('InterPodAffinity', scene, incoming, node)).toEqual(want);
  });

  it('says nothing about namespaceSelector once the Namespaces are read', () => {
    const index = makeIndex({ nodes, pods: [pod('db', 'db', 'a1', undefined, 'data')], namespaces });
    const cluster = new SimulatedCluster(index, new Set());
    const state = preFilter(podInfo(needsDb(teamData), index.snapshot), cluster);
    expect([state.read(interPodAffinityPlugin).approximated, cluster.caveats]).toEqual([false, []]);
  });
});
