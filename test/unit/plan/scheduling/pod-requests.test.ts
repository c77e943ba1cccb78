import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { podRequests } from '../../../../src/plan/scheduling/pod-requests.js';
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
    expect(podRequests(p, true)).toEqual({ cpu: 500, memory: 64 * 2 ** 20 });
    expect(podRequests(p)).toEqual({ cpu: 100, memory: 64 * 2 ** 20 });
  });
});
