import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { cordonNodes } from '../../../src/drain/cordon-nodes.js';
import type { DrainEvent } from '../../../src/drain/events.js';

const NOW = 5_000;
const clock = { now: () => NOW };

/** A node API that finds `already` nodes cordoned and refuses `refused` ones, recording each patch. */
function nodes(o: { already?: string[]; refused?: string[] } = {}) {
  const sent: Array<[string, boolean]> = [];
  const forbidden = (node: string) =>
    new ApiException(
      403,
      'Forbidden',
      JSON.stringify({
        kind: 'Status',
        code: 403,
        message: `nodes "${node}" is forbidden: User "ro" cannot patch resource "nodes"`,
      }),
      {},
    );
  return {
    sent,
    api: {
      cordon: (node: string, dryRun: boolean) => {
        sent.push([node, dryRun]);
        if (o.refused?.includes(node)) return Promise.reject(forbidden(node));
        return Promise.resolve({ node, already: o.already?.includes(node) ?? false });
      },
    },
  };
}

describe('cordonNodes', () => {
  it('cordons every node, in order, and gives back only the ones it cordoned itself', async () => {
    const { api, sent } = nodes({ already: ['n2'] });
    const events: DrainEvent[] = [];
    const outcome = await cordonNodes({ nodes: ['n1', 'n2'], dryRun: 'none' }, api, clock, (e) => events.push(e));
    expect(sent).toEqual([
      ['n1', false],
      ['n2', false],
    ]);
    expect(outcome).toEqual({ cordoned: ['n1', 'n2'], cordonedHere: ['n1'], error: null });
    expect(events).toEqual([
      { type: 'cordoned', atMs: NOW, node: 'n1', already: false, dryRun: false },
      { type: 'cordoned', atMs: NOW, node: 'n2', already: true, dryRun: false },
    ]);
  });

  it('a node it cannot cordon stops it there, keeping the ones before, and names the node', async () => {
    const { api, sent } = nodes({ refused: ['n2'] });
    const events: DrainEvent[] = [];
    const outcome = await cordonNodes({ nodes: ['n1', 'n2', 'n3'], dryRun: 'none' }, api, clock, (e) => events.push(e));
    expect(sent.map(([node]) => node)).toEqual(['n1', 'n2']);
    expect(outcome.cordoned).toEqual(['n1']);
    expect(outcome.cordonedHere).toEqual(['n1']);
    expect(outcome.error).toMatch(/^cannot cordon node "n2": forbidden/);
    expect(events.map((e) => e.type === 'cordoned' && e.node)).toEqual(['n1']);
  });

  it('a client dry run sends nothing and says "already cordoned" from the snapshot', async () => {
    const { api, sent } = nodes();
    const events: DrainEvent[] = [];
    const request = { nodes: ['n1', 'n2'], dryRun: 'client', alreadyCordoned: new Set(['n2']) } as const;
    const outcome = await cordonNodes(request, api, clock, (e) => events.push(e));
    expect(sent).toEqual([]);
    expect(outcome).toEqual({ cordoned: [], cordonedHere: [], error: null });
    expect(events).toEqual([
      { type: 'cordoned', atMs: NOW, node: 'n1', already: false, dryRun: true },
      { type: 'cordoned', atMs: NOW, node: 'n2', already: true, dryRun: true },
    ]);
  });

  it('a server dry run sends dry-run patches and holds no node cordoned', async () => {
    const { api, sent } = nodes();
    const events: DrainEvent[] = [];
    const outcome = await cordonNodes({ nodes: ['n1'], dryRun: 'server' }, api, clock, (e) => events.push(e));
    expect(sent).toEqual([['n1', true]]);
    expect(outcome).toEqual({ cordoned: [], cordonedHere: [], error: null });
    expect(events).toEqual([{ type: 'cordoned', atMs: NOW, node: 'n1', already: false, dryRun: true }]);
  });
});
