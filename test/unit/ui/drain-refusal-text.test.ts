import { describe, expect, it } from 'vitest';
import { kubectlRefusal } from '../../../src/ui/drain-refusal-text.js';

// kubectl drain's refusal when a pod fails its filters, said before the cordon: nothing was changed.

describe('kubectlRefusal', () => {
  it('gives one error line per refusal and names the one node in the exit line', () => {
    const refusal = kubectlRefusal(
      ['k8s-node-1'],
      ['cannot delete Pods not managed by a controller (use --force to override): demo/solo'],
    );
    expect(refusal.lines).toBe(
      'error: cannot delete Pods not managed by a controller (use --force to override): demo/solo\n',
    );
    expect(refusal.message).toBe('unable to drain node "k8s-node-1": nothing was changed');
  });

  it('names every node, quoted, when several are drained together', () => {
    const refusal = kubectlRefusal(['a', 'b'], ['x', 'y']);
    expect(refusal.lines).toBe('error: x\nerror: y\n');
    expect(refusal.message).toBe('unable to drain nodes "a", "b": nothing was changed');
  });
});
