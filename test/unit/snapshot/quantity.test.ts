import { describe, expect, it } from 'vitest';
import { resourceAmount, scaledQuantity } from '../../../src/snapshot/quantity.js';

describe('resourceAmount', () => {
  it.each([
    { name: 'cpu in millicores keeps the m suffix exact', resource: 'cpu', text: '100m', want: 100 },
    { name: 'a decimal cpu is exact, not rounded up by float error', resource: 'cpu', text: '0.1', want: 100 },
    { name: 'whole cores become millicores', resource: 'cpu', text: '2', want: 2000 },
    { name: 'a fraction of a millicore rounds up', resource: 'cpu', text: '100u', want: 1 },
    { name: 'binary suffixes are powers of two', resource: 'memory', text: '64Mi', want: 64 * 2 ** 20 },
    { name: 'the lab workers allocatable memory', resource: 'memory', text: '3377252Ki', want: 3377252 * 1024 },
    { name: 'decimal suffixes are powers of ten', resource: 'memory', text: '1G', want: 1e9 },
    { name: 'a decimal binary quantity', resource: 'memory', text: '1.5Gi', want: 1.5 * 2 ** 30 },
    { name: 'a decimal exponent', resource: 'memory', text: '129e6', want: 129e6 },
    { name: 'E alone is the exa suffix', resource: 'ephemeral-storage', text: '1E', want: 1e18 },
    { name: 'milli-bytes round up to a whole byte', resource: 'memory', text: '1500m', want: 2 },
    { name: 'a plain number of pods', resource: 'pods', text: '110', want: 110 },
    { name: 'a number (not a string) is accepted', resource: 'nvidia.com/gpu', text: 2, want: 2 },
  ])('$name', ({ resource, text, want }) => {
    expect(resourceAmount(resource, text)).toBe(want);
  });

  it('treats text that is not a quantity as nothing rather than a number', () => {
    expect(scaledQuantity('lots', 0)).toBeNull();
    expect(scaledQuantity('', 3)).toBeNull();
    expect(resourceAmount('memory', '12Zi')).toBe(0);
  });
});
