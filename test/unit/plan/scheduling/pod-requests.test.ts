import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { kubeRulesFor } from '../../../../src/plan/kube-version.js';
import { podRequests, statusRuleOf } from '../../../../src/plan/scheduling/pod-requests.js';
import { makePod } from '../../builders.js';

const GI = 2 ** 30;
const c = (name: string, cpu: string, memory: string, restartPolicy?: string): V1Container => ({
  name,
  image: 'registry.k8s.io/pause:3.10',
  resources: { requests: { cpu, memory } },
  ...(restartPolicy ? { restartPolicy } : {}),
});

function pod(containers: V1Container[], initContainers: V1Container[] = [], spec: Partial<V1Pod['spec']> = {}): V1Pod {
  const p = makePod().name('p').obj();
  p.spec = { ...p.spec!, containers, initContainers, ...spec };
  return p;
}

describe('podRequests', () => {
  it.each([
    {
      name: 'regular containers are summed',
      pod: pod([c('a', '100m', '64Mi'), c('b', '200m', '64Mi')]),
      want: { cpu: 300, memory: 128 * 2 ** 20 },
    },
    {
      name: 'the init phase peak wins when an init container asks for more (docs example: 3 CPU / 3G)',
      pod: pod([c('a', '2', '1Gi'), c('b', '1', '1Gi')], [c('i1', '2', '1Gi'), c('i2', '2', '3Gi')]),
      want: { cpu: 3000, memory: 3 * GI },
    },
    {
      name: 'a sidecar keeps running: it adds to the containers and to every init container after it',
      pod: pod([c('app', '1', '1Gi')], [c('sidecar', '500m', '1Gi', 'Always'), c('migrate', '2', '1Gi')]),
      // containers + sidecar = 1.5 cpu / 2Gi; init peak = migrate + sidecar = 2.5 cpu / 2Gi
      want: { cpu: 2500, memory: 2 * GI },
    },
    {
      name: 'an init container before the sidecar does not add the sidecar',
      pod: pod([c('app', '1', '1Gi')], [c('migrate', '2', '1Gi'), c('sidecar', '500m', '1Gi', 'Always')]),
      want: { cpu: 2000, memory: 2 * GI },
    },
    {
      name: 'RuntimeClass overhead is added on top',
      pod: pod([c('a', '100m', '64Mi')], [], { overhead: { cpu: '250m', memory: '120Mi' } }),
      want: { cpu: 350, memory: 184 * 2 ** 20 },
    },
    {
      name: 'pod-level requests replace the container sum for cpu and memory',
      pod: pod([c('a', '100m', '64Mi'), c('b', '100m', '64Mi')], [], {
        resources: { requests: { cpu: '1', memory: '1Gi' } },
      }),
      want: { cpu: 1000, memory: GI },
    },
  ])('$name', ({ pod: p, want }) => {
    expect(podRequests(p)).toEqual(want);
  });

  it('counts a resized pod at the largest of its spec and status requests once it is on a node', () => {
    const p = pod([c('app', '100m', '64Mi')]);
    p.status = {
      phase: 'Running',
      containerStatuses: [
        { name: 'app', image: 'x', imageID: 'x', ready: true, restartCount: 0, allocatedResources: { cpu: '500m' } },
      ],
    };
    for (const rule of ['per-container', 'sums-first'] as const) {
      expect(podRequests(p, rule)).toEqual({ cpu: 500, memory: 64 * 2 ** 20 });
    }
    expect(podRequests(p)).toEqual({ cpu: 100, memory: 64 * 2 ** 20 });
  });

  // One container resized up (allocated above its spec), the other resized down (spec below what it
  // still runs with): 1.34–1.36 take each container's largest and sum them, 1.37 sums each of spec,
  // allocated and actuated over the containers and takes the largest sum.
  it('counts a pod resized both ways per container before 1.37 and by its largest sum from 1.37', () => {
    const p = pod([c('up', '100m', '64Mi'), c('down', '200m', '64Mi')]);
    const status = (name: string, cpu: string) => ({
      name,
      image: 'x',
      imageID: 'x',
      ready: true,
      restartCount: 0,
      allocatedResources: { cpu, memory: '64Mi' },
      resources: { requests: { cpu, memory: '64Mi' } },
    });
    p.status = { phase: 'Running', containerStatuses: [status('up', '400m'), status('down', '800m')] };
    // Spec 300m in all, status 1200m in all: the same either way while every container moved one way…
    expect(podRequests(p, 'per-container').cpu).toBe(1200);
    expect(podRequests(p, 'sums-first').cpu).toBe(1200);
    // …but not once one container is resized up and the other down.
    p.status.containerStatuses = [status('up', '400m'), status('down', '50m')];
    expect(podRequests(p, 'per-container').cpu).toBe(400 + 200);
    expect(podRequests(p, 'sums-first').cpu).toBe(450);
    expect(podRequests(p, statusRuleOf(kubeRulesFor('v1.36.3')))).toEqual(podRequests(p, 'per-container'));
    expect(podRequests(p, statusRuleOf(kubeRulesFor('v1.37.2')))).toEqual(podRequests(p, 'sums-first'));
  });
});
