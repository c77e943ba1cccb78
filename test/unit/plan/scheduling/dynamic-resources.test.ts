import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../../src/plan/build-plan.js';
import { unresolvable } from '../../../../src/plan/scheduling/framework.js';
import { SchedulingSimulation } from '../../../../src/plan/scheduling/simulation.js';
import { SNAPSHOT_KINDS } from '../../../../src/snapshot/types.js';
import { makeIndex, makeNode, makePod, type SnapshotInput } from '../../builders.js';
import { options, owners, web } from '../rules-fixture.js';
import { onNodes, type PluginCase, runPlugin, type Scene } from './harness.js';
import {
  allocated,
  claim,
  device,
  deviceClass,
  fromTemplate,
  ownedBy,
  request,
  shared,
  slice,
  template,
  withClaims,
} from './dra-fixtures.js';

/**
 * DynamicResources (pkg/scheduler/framework/plugins/dynamicresources, v1.37), its cases translated from
 * dynamicresources_test.go: PreFilter's rejections (claim missing, being deleted, in use, class missing),
 * Filter's "resourceclaim not available on the node" for an allocated claim elsewhere and "cannot allocate
 * all claims" when the node's devices do not suffice, devices already allocated taken.
 */
const nodes = ['worker', 'worker-2'].map((n) => makeNode().name(n).obj());
const gpus = [slice('worker', [device('gpu-0'), device('gpu-1')])];
const pod = (claims: Parameters<typeof withClaims>[1][]) =>
  withClaims(makePod().name('my-pod').ns('default').uid('my-pod-uid').obj(), ...claims);
const other = makePod().name('other').ns('default').uid('other-uid').node('worker').obj();

function scene(dra: SnapshotInput, extra: Partial<Scene> = {}): Scene {
  return { nodes, storage: { deviceClasses: [deviceClass()], resourceSlices: gpus, ...dra }, ...extra };
}

const cases: PluginCase[] = [
  ...onNodes(scene({}), pod([shared('gpu', 'my-claim')]), [
    [
      'missing-claim: every node is rejected by PreFilter',
      'worker',
      unresolvable('resourceclaim "my-claim" not found'),
    ],
  ]),
  ...onNodes(
    scene({
      resourceClaims: [
        { ...claim('my-claim'), metadata: { ...claim('my-claim').metadata, deletionTimestamp: new Date(0) } },
      ],
    }),
    pod([shared('gpu', 'my-claim')]),
    [['deleted-claim', 'worker', unresolvable('resourceclaim "my-claim" is being deleted')]],
  ),
  ...onNodes(
    scene({
      resourceClaims: [
        allocated(
          claim('my-claim'),
          'worker',
          ['gpu-0'],
          Array.from({ length: 256 }, (_, i) => makePod().name(`p${i}`).uid(`u${i}`).obj()),
        ),
      ],
    }),
    pod([shared('gpu', 'my-claim')]),
    [['in-use-by-other: reservedFor is full', 'worker', unresolvable('resourceclaim in use')]],
  ),
  ...onNodes(
    scene({ resourceClaims: [claim('my-claim', [request('req-1', { className: 'no-such-class' })])] }),
    pod([shared('gpu', 'my-claim')]),
    [['missing-class', 'worker', unresolvable('request req-1: device class no-such-class does not exist')]],
  ),
  ...onNodes(
    scene({ resourceClaims: [allocated(claim('my-claim'), 'worker', ['gpu-0'], [other])] }),
    pod([shared('gpu', 'my-claim')]),
    [
      [
        'wrong-topology: the allocation is for another node',
        'worker-2',
        unresolvable('resourceclaim not available on the node'),
      ],
      ['good-topology', 'worker', null],
    ],
  ),
  ...onNodes(scene({ resourceClaimTemplates: [template('tmpl')] }), pod([fromTemplate('gpu', 'tmpl')]), [
    ['structured-with-resources: a fresh claim from the template is allocated on the node', 'worker', null],
    ['structured-no-resources: no device on the node', 'worker-2', unresolvable('cannot allocate all claims')],
  ]),
  ...onNodes(
    scene({
      resourceClaimTemplates: [template('tmpl', [request('req-0', { count: 2 })])],
      resourceClaims: [allocated(claim('taken'), 'worker', ['gpu-1'], [other])],
    }),
    pod([fromTemplate('gpu', 'tmpl')]),
    [
      [
        'structured-ignore-allocated-claim: an allocated device is not free',
        'worker',
        unresolvable('cannot allocate all claims'),
      ],
    ],
  ),
];

describe('DynamicResources Filter', () => {
  it.each(cases)('$name', ({ scene, incoming, node, want }) => {
    expect(runPlugin('DynamicResources', scene, incoming, node)).toEqual(want);
  });

  it('a pod without resource claims is skipped', () => {
    expect(runPlugin('DynamicResources', scene({}), makePod().name('plain').obj(), 'worker-2')).toBeNull();
  });
});

/** A replacement as a drain of `drained` places it, the evicted pods marked terminating first. */
function place(pods: V1Pod[], dra: SnapshotInput, drained: string[], allNodes = nodes) {
  const sim = new SchedulingSimulation(makeIndex({ ...dra, nodes: allNodes, pods }), new Set(drained));
  const leaving = pods.filter((p) => drained.includes(p.spec?.nodeName ?? ''));
  for (const p of leaving) sim.evict(p);
  return leaving.map((p) => sim.place(p));
}

describe('replacements with resource claims', () => {
  const job = (name: string, node: string, ...claims: Parameters<typeof withClaims>[1][]) =>
    withClaims(
      makePod().name(name).ns('default').uid(`${name}-uid`).node(node).owner('ReplicaSet', 'job-rs').obj(),
      ...claims,
    );

  it('a GPU pod whose only GPU node is drained has no node until it returns, in the scheduler words', () => {
    const gpuPod = job('trainer', 'worker', fromTemplate('gpu', 'tmpl'));
    const [plan] = place(
      [gpuPod],
      {
        deviceClasses: [deviceClass()],
        resourceSlices: [slice('worker', [device('gpu-0')])],
        resourceClaimTemplates: [template('tmpl')],
        resourceClaims: [allocated(ownedBy(claim('trainer-gpu-x'), gpuPod), 'worker', ['gpu-0'], [gpuPod])],
      },
      ['worker'],
    );
    expect(plan).toMatchObject({ schedulable: false, placedOn: null, untilNodeReturns: ['worker'] });
    expect(plan!.message).toBe(
      '0/2 nodes are available: 1 cannot allocate all claims, 1 node(s) were unschedulable. ' +
        'preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    );
  });

  it('another node with a free device takes the replacement, and two replacements compete for its devices', () => {
    const a = job('a', 'worker', fromTemplate('gpu', 'tmpl'));
    const b = job('b', 'worker', fromTemplate('gpu', 'tmpl'));
    const plans = place(
      [a, b],
      {
        deviceClasses: [deviceClass()],
        resourceSlices: [slice('worker', [device('gpu-0'), device('gpu-1')]), slice('worker-2', [device('gpu-0')])],
        resourceClaimTemplates: [template('tmpl')],
      },
      ['worker'],
    );
    expect(plans[0]).toMatchObject({ schedulable: true, placedOn: 'worker-2' });
    expect(plans[1]).toMatchObject({ schedulable: false, untilNodeReturns: ['worker'] });
  });

  it('a shared claim allocated on the drained node and still used by a pod that stays keeps the replacement off every other node', () => {
    const user = job('user', 'worker', shared('gpu', 'shared-gpu'));
    const stays = makePod().name('stays').ns('default').uid('stays-uid').node('worker-3').obj();
    const three = [...nodes, makeNode().name('worker-3').obj()];
    const [plan] = place(
      [user, stays],
      {
        deviceClasses: [deviceClass()],
        resourceSlices: [slice('worker', [device('gpu-0')]), slice('worker-2', [device('gpu-0')])],
        resourceClaims: [allocated(claim('shared-gpu'), 'worker', ['gpu-0'], [user, stays])],
      },
      ['worker'],
      three,
    );
    expect(plan).toMatchObject({ schedulable: false, untilNodeReturns: ['worker'] });
    expect(plan!.message).toMatch(
      /^0\/3 nodes are available: 1 node\(s\) were unschedulable, 2 resourceclaim not available on the node\. preemption: /,
    );
  });

  it('a shared claim only the evicted pod used is deallocated once it is gone, and allocated again where a device is free', () => {
    const user = job('user', 'worker', shared('gpu', 'shared-gpu'));
    const [plan] = place(
      [user],
      {
        deviceClasses: [deviceClass()],
        resourceSlices: [slice('worker', [device('gpu-0')]), slice('worker-2', [device('gpu-0')])],
        resourceClaims: [allocated(claim('shared-gpu'), 'worker', ['gpu-0'], [user])],
      },
      ['worker'],
    );
    expect(plan).toMatchObject({ schedulable: true, placedOn: 'worker-2', waitsForTermination: true });
  });

  it('a device on every node (allNodes) freed by the evicted pod is allocated again once it is gone', () => {
    const gpuPod = job('trainer', 'worker', fromTemplate('gpu', 'tmpl'));
    const [plan] = place(
      [gpuPod],
      {
        deviceClasses: [deviceClass()],
        resourceSlices: [slice('net', [device('nic-0')], { allNodes: true })],
        resourceClaimTemplates: [template('tmpl')],
        resourceClaims: [
          {
            ...ownedBy(claim('trainer-gpu-x'), gpuPod),
            status: {
              allocation: {
                devices: { results: [{ request: 'req-0', driver: 'gpu.example.com', pool: 'net', device: 'nic-0' }] },
              },
              reservedFor: [{ resource: 'pods', name: 'trainer', uid: 'trainer-uid' }],
            },
          },
        ],
      },
      ['worker'],
    );
    expect(plan).toMatchObject({ schedulable: true, placedOn: 'worker-2', waitsForTermination: true });
    expect(plan!.message).toMatch(
      /^0\/2 nodes are available: 1 cannot allocate all claims, 1 node\(s\) were unschedulable\./,
    );
  });

  it('DeviceClasses not read: where the replacement runs is unknown, never a node name', () => {
    const gpuPod = job('trainer', 'worker', fromTemplate('gpu', 'tmpl'));
    const [plan] = place(
      [gpuPod],
      {
        kinds: SNAPSHOT_KINDS.filter((k) => k !== 'DeviceClass'),
        resourceSlices: [slice('worker-2', [device('gpu-0')])],
        resourceClaimTemplates: [template('tmpl')],
      },
      ['worker'],
    );
    expect(plan).toMatchObject({ schedulable: true, placedOn: null });
    expect(plan!.unknown).toMatch(/^DynamicResources: DeviceClasses were not read/);
  });

  it('a selector the plan cannot evaluate leaves the placement unknown', () => {
    const gpuPod = job('trainer', 'worker', fromTemplate('gpu', 'tmpl'));
    const [plan] = place(
      [gpuPod],
      {
        deviceClasses: [deviceClass('gpu', 'has(device.attributes["gpu.example.com"].model)')],
        resourceSlices: [slice('worker-2', [device('gpu-0', { model: 'a100' })])],
        resourceClaimTemplates: [template('tmpl')],
      },
      ['worker'],
    );
    expect(plan).toMatchObject({ placedOn: null });
    expect(plan!.unknown).toMatch(/^DynamicResources: the plan cannot evaluate the CEL selector/);
  });

  it('the plan of the only GPU node: disruptive, the Deployment down until the node returns (its old claim freed then)', () => {
    const gpuPod = withClaims(web('a').uid('a-uid').obj(), fromTemplate('gpu', 'tmpl'));
    const gpuNodes = [makeNode().name('n1').obj(), makeNode().name('n2').obj()];
    const plan = buildPlan(
      makeIndex({
        nodes: gpuNodes,
        pods: [gpuPod],
        ...owners,
        deviceClasses: [deviceClass()],
        resourceSlices: [slice('n1', [device('gpu-0')])],
        resourceClaimTemplates: [{ ...template('tmpl'), metadata: { name: 'tmpl', namespace: 'shop' } }],
        resourceClaims: [
          allocated(
            ownedBy({ ...claim('a-gpu-x'), metadata: { name: 'a-gpu-x', namespace: 'shop' } }, gpuPod),
            'n1',
            ['gpu-0'],
            [gpuPod],
          ),
        ],
      }),
      options(),
    );
    expect(plan.pods[0]!.replacement).toMatchObject({ schedulable: false, untilNodeReturns: ['n1'] });
    expect(plan.verdict).toBe('disruptive');
    expect(plan.outages?.map((o) => [o.kind, o.name, o.until, o.returnsOn])).toEqual([
      ['Deployment', 'web', 'node-returns', ['n1']],
    ]);
  });
});
