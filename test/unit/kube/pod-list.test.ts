import { describe, expect, it } from 'vitest';
import { labelSelectorText } from '../../../src/kube/pod-list.js';

describe('labelSelectorText', () => {
  it('writes matchLabels and each operator the way the API server parses a label selector', () => {
    expect(
      labelSelectorText({
        matchLabels: { app: 'hello' },
        matchExpressions: [
          { key: 'tier', operator: 'In', values: ['web', 'api'] },
          { key: 'env', operator: 'NotIn', values: ['dev'] },
          { key: 'team', operator: 'Exists' },
          { key: 'canary', operator: 'DoesNotExist' },
        ],
      }),
    ).toBe('app=hello,tier in (api,web),env notin (dev),team,!canary');
    expect(labelSelectorText({})).toBe('');
  });
});
