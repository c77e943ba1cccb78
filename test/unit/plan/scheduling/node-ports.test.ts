import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { FilterResult } from '../../../../src/plan/scheduling/framework.js';
import { makeNode, makePod } from '../../builders.js';
import { runPlugin } from './harness.js';

interface Port {
  readonly port: number;
  readonly protocol?: string;
  readonly ip?: string;
}

interface Case {
  readonly name: string;
  readonly existing: V1Pod;
  readonly wanted: readonly Port[];
  readonly fits: boolean;
}

const CLASH: FilterResult = {
  code: 'Unschedulable',
  reasons: ["node(s) didn't have free ports for the requested pod ports"],
};
const container = (ports: readonly Port[], extra: Partial<V1Container> = {}): V1Container => ({
  name: `c${ports.map((p) => p.port).join('-')}`,
  image: 'registry.k8s.io/pause:3.10',
  ports: ports.map((p) => ({
    containerPort: p.port,
    hostPort: p.port,
    protocol: p.protocol ?? 'TCP',
    ...(p.ip ? { hostIP: p.ip } : {}),
  })),
  ...extra,
});
const onNode = (...ports: Port[]) => makePod().name('existing').node('n1').container(container(ports)).obj();

const cases: Case[] = [
  {
    name: 'The same TCP hostPort on all addresses clashes',
    existing: onNode({ port: 8080 }),
    wanted: [{ port: 8080 }],
    fits: false,
  },
  { name: 'A different hostPort is free', existing: onNode({ port: 8080 }), wanted: [{ port: 8081 }], fits: true },
  {
    name: 'The same port over another protocol is free',
    existing: onNode({ port: 53, protocol: 'UDP' }),
    wanted: [{ port: 53 }],
    fits: true,
  },
  {
    name: 'A specific address clashes with the same port held on 0.0.0.0',
    existing: onNode({ port: 8080 }),
    wanted: [{ port: 8080, ip: '10.0.0.1' }],
    fits: false,
  },
  {
    name: '0.0.0.0 clashes with the same port held on a specific address',
    existing: onNode({ port: 8080, ip: '10.0.0.1' }),
    wanted: [{ port: 8080 }],
    fits: false,
  },
  {
    name: 'Two different specific addresses can share a port',
    existing: onNode({ port: 8080, ip: '10.0.0.1' }),
    wanted: [{ port: 8080, ip: '10.0.0.2' }],
    fits: true,
  },
  {
    name: 'A terminating pod still holds its ports',
    existing: makePod()
      .name('existing')
      .node('n1')
      .container(container([{ port: 9100 }]))
      .deleting(1_700_000_000)
      .obj(),
    wanted: [{ port: 9100 }],
    fits: false,
  },
  {
    name: 'A Succeeded pod holds no ports',
    existing: makePod()
      .name('existing')
      .node('n1')
      .container(container([{ port: 9100 }]))
      .phase('Succeeded')
      .obj(),
    wanted: [{ port: 9100 }],
    fits: true,
  },
];

describe('NodePorts Filter', () => {
  it.each(cases)('$name', ({ existing, wanted, fits }) => {
    const incoming = makePod().name('incoming').container(container(wanted)).obj();
    const got = runPlugin('NodePorts', { nodes: [makeNode().name('n1').obj()], pods: [existing] }, incoming, 'n1');
    expect(got).toEqual(fits ? null : CLASH);
  });

  it("counts a sidecar's hostPort but not an ordinary init container's", () => {
    const existing = onNode({ port: 7000 }, { port: 7001 });
    const withInit = (init: V1Container) => {
      const pod = makePod().name('incoming').obj();
      pod.spec!.initContainers = [init];
      return pod;
    };
    const sidecar = withInit(container([{ port: 7000 }], { restartPolicy: 'Always' }));
    const init = withInit(container([{ port: 7001 }]));
    const scene = { nodes: [makeNode().name('n1').obj()], pods: [existing] };
    expect(runPlugin('NodePorts', scene, sidecar, 'n1')).toEqual(CLASH);
    expect(runPlugin('NodePorts', scene, init, 'n1')).toBeNull();
  });
});
