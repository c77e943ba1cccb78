import type { V1NodeSelectorTerm } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { FilterResult } from '../../../../src/plan/scheduling/framework.js';
import { makeNode, makePod } from '../../builders.js';
import { runPlugin } from './harness.js';

interface Case {
  readonly name: string;
  readonly nodeLabels: Readonly<Record<string, string>>;
  readonly nodeSelector?: Readonly<Record<string, string>>;
  /** Required node affinity terms; undefined leaves the affinity unset. */
  readonly terms?: readonly V1NodeSelectorTerm[];
  readonly fits: boolean;
}

const NOT_MATCHED: FilterResult = {
  code: 'UnschedulableAndUnresolvable',
  reasons: ["node(s) didn't match Pod's node affinity/selector"],
};
const expr = (key: string, operator: string, ...values: string[]): V1NodeSelectorTerm => ({
  matchExpressions: [{ key, operator, ...(values.length ? { values } : {}) }],
});

const cases: Case[] = [
  { name: 'A pod without nodeSelector or affinity fits any node', nodeLabels: {}, fits: true },
  {
    name: 'A pod with a nodeSelector fits a node carrying every key=value',
    nodeLabels: { disk: 'ssd', zone: 'a' },
    nodeSelector: { disk: 'ssd' },
    fits: true,
  },
  {
    name: "A pod with a nodeSelector doesn't fit a node with another value",
    nodeLabels: { disk: 'hdd' },
    nodeSelector: { disk: 'ssd' },
    fits: false,
  },
  {
    name: "A pod with a nodeSelector doesn't fit a node without the label",
    nodeLabels: {},
    nodeSelector: { disk: 'ssd' },
    fits: false,
  },
  {
    name: 'Operator In matches a node whose value is in the list',
    nodeLabels: { zone: 'b' },
    terms: [expr('zone', 'In', 'a', 'b')],
    fits: true,
  },
  { name: 'Operator In needs the label to exist', nodeLabels: {}, terms: [expr('zone', 'In', 'a')], fits: false },
  {
    name: 'Operator NotIn matches a node without the label',
    nodeLabels: {},
    terms: [expr('zone', 'NotIn', 'a')],
    fits: true,
  },
  {
    name: 'Operator NotIn rejects a node with a listed value',
    nodeLabels: { zone: 'a' },
    terms: [expr('zone', 'NotIn', 'a')],
    fits: false,
  },
  {
    name: 'Operator Exists matches any value of the key',
    nodeLabels: { gpu: '' },
    terms: [expr('gpu', 'Exists')],
    fits: true,
  },
  {
    name: 'Operator DoesNotExist rejects a node carrying the key',
    nodeLabels: { gpu: 'x' },
    terms: [expr('gpu', 'DoesNotExist')],
    fits: false,
  },
  {
    name: 'Operator Gt compares the label as an integer',
    nodeLabels: { cores: '16' },
    terms: [expr('cores', 'Gt', '8')],
    fits: true,
  },
  {
    name: 'Operator Lt compares the label as an integer',
    nodeLabels: { cores: '16' },
    terms: [expr('cores', 'Lt', '8')],
    fits: false,
  },
  {
    name: "Operator Gt doesn't match a label that is not an integer",
    nodeLabels: { cores: 'many' },
    terms: [expr('cores', 'Gt', '8')],
    fits: false,
  },
  {
    name: 'The expressions of one term are ANDed',
    nodeLabels: { zone: 'a', disk: 'hdd' },
    terms: [
      {
        matchExpressions: [
          { key: 'zone', operator: 'In', values: ['a'] },
          { key: 'disk', operator: 'In', values: ['ssd'] },
        ],
      },
    ],
    fits: false,
  },
  {
    name: 'Terms are ORed',
    nodeLabels: { zone: 'c' },
    terms: [expr('zone', 'In', 'a'), expr('zone', 'In', 'c')],
    fits: true,
  },
  {
    name: 'nodeSelector and required affinity must both hold',
    nodeLabels: { zone: 'a', disk: 'hdd' },
    nodeSelector: { disk: 'ssd' },
    terms: [expr('zone', 'In', 'a')],
    fits: false,
  },
  {
    name: 'matchFields metadata.name In pins the pod to a node by name',
    nodeLabels: {},
    terms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }],
    fits: true,
  },
  {
    name: 'matchFields metadata.name In rejects another node',
    nodeLabels: {},
    terms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n2'] }] }],
    fits: false,
  },
  {
    name: 'A term with neither expressions nor fields matches no node',
    nodeLabels: { zone: 'a' },
    terms: [{}],
    fits: false,
  },
  { name: 'An empty list of terms matches no node', nodeLabels: { zone: 'a' }, terms: [], fits: false },
  {
    name: "A term that doesn't parse (In without values) never matches, the other terms still can",
    nodeLabels: { zone: 'a' },
    terms: [expr('zone', 'In'), expr('zone', 'Exists')],
    fits: true,
  },
];

describe('NodeAffinity Filter', () => {
  it.each(cases)('$name', ({ nodeLabels, nodeSelector, terms, fits }) => {
    let node = makeNode().name('n1');
    for (const [k, v] of Object.entries(nodeLabels)) node = node.label(k, v);
    let pod = makePod().name('incoming');
    if (nodeSelector) pod = pod.nodeSelector(nodeSelector);
    if (terms)
      pod = pod.affinity({
        nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [...terms] } },
      });
    expect(runPlugin('NodeAffinity', { nodes: [node.obj()] }, pod.obj(), 'n1')).toEqual(fits ? null : NOT_MATCHED);
  });
});
