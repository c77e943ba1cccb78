import { describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../../../src/cli/exit-codes.js';
import { nodeSelection, resolveNodes } from '../../../src/cli/node-selection.js';
import { ClusterIndex } from '../../../src/snapshot/cluster-index.js';
import type { Snapshot } from '../../../src/snapshot/types.js';
import { makeNode, makeSnapshot } from '../builders.js';

function index(source: Snapshot['source']): ClusterIndex {
  const nodes = [
    makeNode().name('k8s-master-1').label('node-role.kubernetes.io/control-plane', '').obj(),
    makeNode().name('k8s-node-1').label('pool', 'workers').obj(),
    makeNode().name('k8s-node-2').label('pool', 'workers').obj(),
  ];
  return new ClusterIndex({ ...makeSnapshot({ nodes }), source });
}

const file: Snapshot['source'] = { type: 'file', path: 's.json' };
const live: Snapshot['source'] = { type: 'live', context: 'lab', server: 'https://127.0.0.1:6443' };

function errorOf(run: () => unknown): CliError {
  try {
    run();
  } catch (err) {
    if (err instanceof CliError) return err;
    throw err;
  }
  throw new Error('no error');
}

describe('nodeSelection', () => {
  it('node names or -l, as kubectl drain: both is a usage error', () => {
    const error = errorOf(() => nodeSelection(['n1'], 'pool=workers'));
    expect([error.exitCode, error.message]).toEqual([
      ExitCode.Usage,
      'cannot specify both a node name and a --selector option',
    ]);
  });

  it('neither is a usage error', () => {
    const error = errorOf(() => nodeSelection([], undefined));
    expect([error.exitCode, error.message]).toEqual([
      ExitCode.Usage,
      'specify the nodes to drain: NODE… or -l SELECTOR',
    ]);
    expect(errorOf(() => nodeSelection([], undefined, 'uncordon')).message).toBe(
      'specify the nodes to uncordon: NODE… or -l SELECTOR',
    );
  });

  it('repeated names count once', () => {
    expect(nodeSelection(['a', 'b', 'a'], undefined)).toEqual({ names: ['a', 'b'] });
  });
});

describe('resolveNodes', () => {
  it('a selector picks the matching nodes', () => {
    expect(resolveNodes(index(file), { selector: 'pool=workers' })).toEqual(['k8s-node-1', 'k8s-node-2']);
  });

  it('an unknown node in a live cluster says how to list nodes (exit 1)', () => {
    const error = errorOf(() => resolveNodes(index(live), { names: ['k8s-node-9'] }));
    expect([error.exitCode, error.message]).toEqual([
      ExitCode.Error,
      'node "k8s-node-9" not found (list nodes with: kubectl get nodes)',
    ]);
  });

  it("an unknown node in a snapshot lists the snapshot's nodes", () => {
    const error = errorOf(() => resolveNodes(index(file), { names: ['k8s-node-1', 'x', 'y'] }));
    expect(error.message).toBe('nodes "x", "y" not found (the snapshot has: k8s-master-1, k8s-node-1, k8s-node-2)');
  });

  it('a selector matching nothing is an error, not an empty plan', () => {
    const error = errorOf(() => resolveNodes(index(file), { selector: 'pool=gpu' }));
    expect(error.message).toBe(
      'no nodes match selector "pool=gpu" (the snapshot has: k8s-master-1, k8s-node-1, k8s-node-2)',
    );
  });
});

describe('resolveNodes: a name one typing slip from a node', () => {
  it.each([
    ['k8s-nod-1', 'k8s-node-1'],
    ['k8s-ndoe-1', 'k8s-node-1'],
    ['k8s-nodee-2', 'k8s-node-2'],
    ['k8s-mester-1', 'k8s-master-1'],
  ])('%s: did you mean %s', (typed, meant) => {
    const error = errorOf(() => resolveNodes(index(live), { names: [typed] }));
    expect(error.message).toBe(
      `node "${typed}" not found; did you mean "${meant}"? (list nodes with: kubectl get nodes)`,
    );
  });

  it('another number of a numbered pool is no slip: nothing suggested', () => {
    const error = errorOf(() => resolveNodes(index(live), { names: ['k8s-node-9'] }));
    expect(error.message).toBe('node "k8s-node-9" not found (list nodes with: kubectl get nodes)');
  });
});
