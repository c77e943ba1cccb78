import { describe, expect, it } from 'vitest';
import { kubeRulesFor, parseKubeVersion } from '../../../src/plan/kube-version.js';

describe('the server version the plan models', () => {
  it.each([
    ['v1.34.4', { minor: 34, patch: 4 }],
    ['v1.37.2+k3s1', { minor: 37, patch: 2 }],
    ['v1.35.10-gke.1200', { minor: 35, patch: 10 }],
    ['1.36.0', { minor: 36, patch: 0 }],
    ['v2.0.0', undefined],
    ['', undefined],
  ])('reads %s', (gitVersion, want) => {
    expect(parseKubeVersion(gitVersion)).toEqual(want);
  });

  it('models a supported version as itself, without a caveat', () => {
    expect(kubeRulesFor('v1.34.4')).toMatchObject({ modelled: '1.34.4', caveat: null });
  });

  it('models a snapshot that does not say as the newest supported minor, and says so', () => {
    const rules = kubeRulesFor(undefined);
    expect(rules).toEqual({ ...kubeRulesFor('v1.37.99'), modelled: '1.37', caveat: expect.any(String) });
    expect(rules.caveat).toBe(
      "Kubernetes version: the snapshot does not say which version the cluster runs, so the plan models 1.37's scheduler and API (the newest it supports)",
    );
  });

  it('models an older server as 1.34.0 and a newer one as 1.37, each with a caveat naming its minor', () => {
    expect(kubeRulesFor('v1.33.13')).toEqual({ ...kubeRulesFor('v1.34.0'), caveat: expect.stringContaining('1.33') });
    expect(kubeRulesFor('v1.38.0')).toEqual({
      ...kubeRulesFor('v1.37.99'),
      modelled: '1.37',
      caveat: expect.stringContaining('1.38'),
    });
    expect(kubeRulesFor('garbage').caveat).toContain('"garbage"');
  });

  // Each rule that differs between supported minors, at the version where it changes (the rule's own
  // effect is tested with its plugin).
  it.each([
    ['taintReasonNamesTaint', 'v1.34.1', true, 'v1.34.2', false],
    ['resizeSumsFirst', 'v1.36.3', false, 'v1.37.0', true],
    ['draDeviceTaints', 'v1.35.4', false, 'v1.36.0', true],
    ['draPartitionableDevices', 'v1.35.4', false, 'v1.36.0', true],
    ['draExtendedResource', 'v1.35.4', false, 'v1.36.0', true],
    ['nodeDeclaredFeatures', 'v1.35.4', false, 'v1.36.0', true],
    ['draDeviceTaintRules', 'v1.36.3', false, 'v1.37.0', true],
  ] as const)('%s: %s %s, %s %s', (rule, before, was, after, is) => {
    expect(kubeRulesFor(before)[rule]).toBe(was);
    expect(kubeRulesFor(after)[rule]).toBe(is);
  });
});
