import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { SimulatedCluster } from '../../../../src/plan/scheduling/cluster-state.js';
import { replacementQueue } from '../../../../src/plan/scheduling/scheduling-queue.js';
import {
  EVICTION_RACE_UNKNOWN,
  type OrderReplay,
  REPLACEMENT_ORDER_UNKNOWN,
  WaveOrder,
  type WavePlacer,
} from '../../../../src/plan/scheduling/wave-order.js';
import type { ReplacementPlan } from '../../../../src/plan/types.js';
import { makePod, makeSnapshot } from '../../builders.js';

const db = makePod().name('db-0').node('n0').owner('StatefulSet', 'db').requests('1', '64Mi').obj();
const web = makePod().name('web-a').node('n0').owner('ReplicaSet', 'web').requests('1', '64Mi').obj();
const api = makePod().name('api-a').node('n0').owner('ReplicaSet', 'api').requests('1', '64Mi').obj();
const snapshot = makeSnapshot({ pods: [db, web, api] });

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
/** A copy of the simulation where every replacement finds no node, and each fits on n1 placed alone. */
function replay(placedAlone: V1Pod[]): OrderReplay {
  return {
    placeOnce: () => noNode(),
    fitsOn: () => false,
    tryAloneUnseen: (replacement) => {
      placedAlone.push(replacement.pod);
      return { fate: 'fits', node: 'n1' };
    },
    fork: () => replay(placedAlone),
  };
}

/** Each replacement placed alone (met first, or as another rule asks) is pushed to `placedAlone`. */
function placer(placedAlone: V1Pod[] = []): WavePlacer {
  const cluster = {
    withEvictionsUnseen: <T>(_uids: ReadonlySet<string>, fn: () => T) => fn(),
    nodeInfo: () => undefined,
  } as unknown as SimulatedCluster;
  return {
    cluster,
    snapshot,
    replacementOf: (pod: V1Pod) => pod,
    tryAlone: (replacement) => {
      placedAlone.push(replacement.pod);
      return { fate: 'fits', node: 'n1' };
    },
    queueOrder: (pods) => replacementQueue(pods, snapshot),
    fork: () => replay(placedAlone),
    passesOn: () => false,
  };
}

/** A round evicting the pods of two ReplicaSets, opened; each replacement placed alone goes to `placedAlone`. */
function roundOfWebAndApi(): { wave: WaveOrder; placedAlone: V1Pod[] } {
  const placedAlone: V1Pod[] = [];
  const wave = new WaveOrder(placer(placedAlone));
  wave.evicted(web);
  wave.evicted(api);
  wave.open(0);
  return { wave, placedAlone };
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

  it("places a replacement as its round's first only when a rule asks: none where nothing could race", () => {
    const { wave, placedAlone } = roundOfWebAndApi();
    for (const pod of [web, api]) expect(wave.judge(wave.mateOf(pod)!, pod, fits('n1'))).toEqual([]);
    expect(placedAlone).toEqual([]);
  });

  it("places a replacement as its round's first when it finds no node behind another workload's placed before it", () => {
    const { wave, placedAlone } = roundOfWebAndApi();
    expect(wave.judge(wave.mateOf(web)!, web, fits('n1'))).toEqual([]);
    const findings = wave.judge(wave.mateOf(api)!, api, noNode());
    expect(placedAlone.map((p) => p.metadata?.name)).toEqual(['api-a']);
    expect(findings.map(({ pod, unknown, note }) => [pod.metadata?.name, unknown, note])).toEqual([
      [
        'api-a',
        EVICTION_RACE_UNKNOWN,
        'Where the scheduler meets it in its wave matters: placed first, it would go to n1.',
      ],
      [
        'web-a',
        EVICTION_RACE_UNKNOWN,
        'Where the scheduler meets it in its wave matters: the replacement of api-a, placed first, would take n1.',
      ],
    ]);
  });
});
