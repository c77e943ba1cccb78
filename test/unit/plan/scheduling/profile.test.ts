import { describe, expect, it } from 'vitest';
import { SUPPORTED_MINORS } from '../../../../src/plan/kube-version.js';
import { DEFAULT_PROFILES } from '../../../../src/plan/scheduling/profile.js';
import { FILTER_PLUGINS, SCORE_PLUGINS } from '../../../../src/plan/scheduling/registry.js';

describe('the default profile', () => {
  it('scores with the weights default_plugins.go declares', () => {
    expect(SCORE_PLUGINS.map(({ plugin, weight }) => [plugin.name, weight])).toEqual([
      ['TaintToleration', 3],
      ['NodeAffinity', 2],
      ['PodTopologySpread', 2],
      ['InterPodAffinity', 2],
      ['NodeResourcesFit', 1],
      ['NodeResourcesBalancedAllocation', 1],
    ]);
  });

  it.each(SUPPORTED_MINORS)('of 1.%i has the modelled filters and scores the simulation runs', (minor) => {
    const profile = DEFAULT_PROFILES[minor];
    expect(profile.filters).toEqual(FILTER_PLUGINS.map((p) => p.name));
    expect(profile.scores).toEqual(SCORE_PLUGINS.map(({ plugin, weight }) => ({ name: plugin.name, weight })));
  });

  it('leaves NodeDeclaredFeatures out of the filters from 1.36, where the profile has it', () => {
    expect(SUPPORTED_MINORS.filter((minor) => 'NodeDeclaredFeatures' in DEFAULT_PROFILES[minor].notModelled)).toEqual([
      36, 37,
    ]);
  });
});
