import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { SimulatedCluster } from '../../../../src/plan/scheduling/cluster-state.js';
import { replacementQueue } from '../../../../src/plan/scheduling/scheduling-queue.js';
import { REPLACEMENT_ORDER_UNKNOWN, WaveOrder, type WavePlacer } from '../../../../src/plan/scheduling/wave-order.js';
import type { ReplacementPlan } from '../../../../src/plan/types.js';
import { makePod, makeSnapshot } from '../../builders.js';

const db = makePod().name('db-0').node('n0').owner('StatefulSet', 'db').requests('1', '64Mi').obj();
const web = makePod().name('web-a').node('n0').owner('ReplicaSet', 'web').requests('1', '64Mi').obj();
const snapshot = makeSnapshot({ pods: [db, web] });

const fits = (node: string): ReplacementPlan => ({
  schedulable: true,
  nodes: [node, 'n9'],
  placedOn: node,
  rejected: [],
  message: `the replacement would be assigned to ${node}.`,
});
const noNode = (): ReplacementPlan => ({
  schedulable: false,
  nodes: [],
  placedOn: null,
  rejected: [],
  message: 'none.',
});

/**
 * The simulation's side of the rules, as a round of a StatefulSet's and a ReplicaSet's pod sees it: each
 * replacement fits on n1 met first, and the round placed again with the StatefulSet's first finds no
 * node for either.
 */
function placer(): WavePlacer {
  const cluster = {
    withEvictionsUnseen: <T>(_uids: ReadonlySet<string>, fn: () => T) => fn(),
    nodeInfo: () => undefined,
  } as unknown as SimulatedCluster;
  return {
    cluster,
    snapshot,
    replacementOf: (pod: V1Pod) => pod,
    tryAlone: () => ({ fate: 'fits', node: 'n1' }),
    queueOrder: (pods) => replacementQueue(pods, snapshot),
    fork: () => ({ placeOnce: () => noNode(), fitsOn: () => false }),
    passesOn: () => false,
  };
}

describe('WaveOrder', () => {
  it('returns the replacement order finding for each plan as data and leaves the plans as they were', () => {
    const wave = new WaveOrder(placer());
    wave.evicted(db);
    wave.evicted(web);
    wave.open(0);
    const plans = new Map([
      [web, fits('n1')],
      [db, fits('n1')],
    ]);
    for (const pod of [web, db]) expect(wave.judge(wave.mateOf(pod)!, pod, plans.get(pod)!)).toEqual([]);
    const findings = wave.checkOrder();
    expect(findings.map(({ pod, unknown, note }) => [pod === web ? 'web' : 'db', unknown, note])).toEqual([
      [
        'web',
        REPLACEMENT_ORDER_UNKNOWN,
        "Which of its wave's replacements the scheduler meets first matters: met after the replacement of db-0, it would find no node.",
      ],
      [
        'db',
        REPLACEMENT_ORDER_UNKNOWN,
        "Which of its wave's replacements the scheduler meets first matters: met before the wave's other replacements, it would find no node.",
      ],
    ]);
    expect(plans.get(web)).toEqual(fits('n1'));
    expect(plans.get(db)).toEqual(fits('n1'));
  });
});
