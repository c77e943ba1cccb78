import type { V1DeviceClaim, V1DeviceClass, V1ResourceSlice } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { allocate, type AllocateOutcome } from '../../../../src/plan/scheduling/dra/allocator.js';
import { DraCatalog } from '../../../../src/plan/scheduling/dra/catalog.js';
import { NodeInfo } from '../../../../src/plan/scheduling/node-info.js';
import { makeNode, makeSnapshot } from '../../builders.js';
import { claim, device, deviceClass, DRIVER, request, slice } from './dra-fixtures.js';

/**
 * The structured allocator on one node, its cases translated from dynamic-resource-allocation's
 * structured/internal/allocatortesting (allocator_testing.go): which devices a node reaches, selectors,
 * ExactCount and All, devices already allocated, matchAttribute and distinctAttribute, firstAvailable,
 * pools (newest generation, incomplete, invalid), the results limit, and device taints.
 */
const node1 = new NodeInfo(makeNode().name('node-1').label('region', 'west').obj());

interface Case {
  readonly slices: readonly V1ResourceSlice[];
  readonly classes?: readonly V1DeviceClass[];
  readonly claims: ReadonlyArray<V1DeviceClaim | undefined>;
  readonly inUse?: readonly string[];
  /** The server's version (the DRA features on by default); the newest supported by default. */
  readonly serverVersion?: string;
}

function run(c: Case): AllocateOutcome {
  const catalog = new DraCatalog(
    makeSnapshot({
      resourceSlices: [...c.slices],
      deviceClasses: [...(c.classes ?? [deviceClass()])],
      serverVersion: c.serverVersion,
    }),
  );
  const inUse = new Set(c.inUse ?? []);
  const claims = c.claims.map((devices, i) => ({ key: `default/claim-${i}`, devices }));
  return allocate(catalog, node1, claims, (id) => inUse.has(id));
}

/** The devices each claim got, as `pool/device` (or the failure). */
function devicesOf(outcome: AllocateOutcome): string[][] | 'failed' | string {
  if ('failed' in outcome) return 'failed';
  if ('unknown' in outcome) return outcome.unknown;
  return outcome.allocations.map((a) => a.devices.map((d) => `${d.entry.pool}/${d.entry.device.name}`));
}

const devices = (...requests: Parameters<typeof request>[]) =>
  claim(
    'c',
    requests.map((r) => request(...r)),
  ).spec.devices;
const twoDevices = [slice('node-1', [device('device-1'), device('device-2')])];

describe('structured allocator', () => {
  it('empty: no claims, nothing to allocate', () => {
    expect(devicesOf(run({ slices: twoDevices, claims: [] }))).toEqual([]);
  });

  it('simple: one claim, one device of the node', () => {
    expect(devicesOf(run({ slices: twoDevices, claims: [devices(['req-0'])] }))).toEqual([['node-1/device-1']]);
  });

  it('other-node: a slice of another node offers nothing here', () => {
    expect(devicesOf(run({ slices: [slice('node-2', [device('device-1')])], claims: [devices(['req-0'])] }))).toBe(
      'failed',
    );
  });

  it('already-allocated-devices are skipped', () => {
    const outcome = run({ slices: twoDevices, claims: [devices(['req-0'])], inUse: [`${DRIVER}/node-1/device-1`] });
    expect(devicesOf(outcome)).toEqual([['node-1/device-2']]);
  });

  it('two claims of one pod share nothing: each takes its own device, and a third finds none', () => {
    expect(devicesOf(run({ slices: twoDevices, claims: [devices(['a']), devices(['b'])] }))).toEqual([
      ['node-1/device-1'],
      ['node-1/device-2'],
    ]);
    expect(devicesOf(run({ slices: twoDevices, claims: [devices(['a']), devices(['b']), devices(['c'])] }))).toBe(
      'failed',
    );
  });

  it('ExactCount with a count: all or nothing', () => {
    expect(devicesOf(run({ slices: twoDevices, claims: [devices(['req-0', { count: 2 }])] }))).toEqual([
      ['node-1/device-1', 'node-1/device-2'],
    ]);
    expect(devicesOf(run({ slices: twoDevices, claims: [devices(['req-0', { count: 3 }])] }))).toBe('failed');
  });

  it('all-devices: every matching device, which must all be free', () => {
    expect(devicesOf(run({ slices: twoDevices, claims: [devices(['req-0', { all: true }])] }))).toEqual([
      ['node-1/device-1', 'node-1/device-2'],
    ]);
    const someAllocated = run({
      slices: twoDevices,
      claims: [devices(['req-0', { all: true }])],
      inUse: [`${DRIVER}/node-1/device-2`],
    });
    expect(devicesOf(someAllocated)).toBe('failed');
  });

  it('all-devices-no-devices: All needs at least one device', () => {
    expect(devicesOf(run({ slices: [], claims: [devices(['req-0', { all: true }])] }))).toBe('failed');
  });

  it('all-devices with an incomplete pool is the allocator error, so the placement is unknown', () => {
    const incomplete = [slice('node-1', [device('device-1')], { sliceCount: 2 })];
    expect(devicesOf(run({ slices: incomplete, claims: [devices(['req-0', { all: true }])] }))).toBe(
      `claim default/claim-0, request req-0: asks for all devices, but resource pool ${DRIVER}/node-1 is currently being updated`,
    );
  });

  it('an incomplete pool still serves ExactCount; an invalid one (a device named twice) serves nothing', () => {
    const incomplete = [slice('node-1', [device('device-1')], { sliceCount: 2 })];
    expect(devicesOf(run({ slices: incomplete, claims: [devices(['req-0'])] }))).toEqual([['node-1/device-1']]);
    const invalid = [
      slice('node-1', [device('device-1')], { sliceCount: 2, name: 'a' }),
      slice('node-1', [device('device-1')], { sliceCount: 2, name: 'b' }),
    ];
    expect(devicesOf(run({ slices: invalid, claims: [devices(['req-0'])] }))).toBe('failed');
  });

  it('only the newest generation of a pool counts', () => {
    const slices = [
      slice('node-1', [device('old')], { generation: 1, name: 'old' }),
      slice('node-1', [device('new')], { generation: 2, name: 'new' }),
    ];
    expect(devicesOf(run({ slices, claims: [devices(['req-0'])] }))).toEqual([['node-1/new']]);
  });

  it('network-attached-device (allNodes): usable anywhere, so the allocation has no node selector', () => {
    const outcome = run({ slices: [slice('net', [device('nic')], { allNodes: true })], claims: [devices(['req-0'])] });
    expect(devicesOf(outcome)).toEqual([['net/nic']]);
    expect('allocations' in outcome && outcome.allocations[0]!.reaches).toBeNull();
  });

  it('a node-local device ties the allocation to the node', () => {
    const outcome = run({ slices: twoDevices, claims: [devices(['req-0'])] });
    const reaches = 'allocations' in outcome ? outcome.allocations[0]!.reaches : null;
    expect(reaches?.(node1)).toBe(true);
    expect(reaches?.(new NodeInfo(makeNode().name('node-2').obj()))).toBe(false);
  });

  it('class and request selectors: both must hold', () => {
    const slices = [slice('node-1', [device('small', { memory: 16 }), device('large', { memory: 80 })])];
    const classes = [deviceClass('gpu', `device.attributes["${DRIVER}"].memory >= 32`)];
    expect(devicesOf(run({ slices, classes, claims: [devices(['req-0'])] }))).toEqual([['node-1/large']]);
    const noMatch = devices(['req-0', { selectors: [`device.attributes["${DRIVER}"].memory > 100`] }]);
    expect(devicesOf(run({ slices, classes, claims: [noMatch] }))).toBe('failed');
  });

  it('with-constraint: matchAttribute backtracks to devices that share the value', () => {
    const slices = [slice('node-1', [device('a', { numa: 0 }), device('b', { numa: 1 }), device('c', { numa: 1 })])];
    const c = claim('c', [request('req-0', { count: 2 })], [{ matchAttribute: `${DRIVER}/numa` }]).spec.devices;
    expect(devicesOf(run({ slices, claims: [c] }))).toEqual([['node-1/b', 'node-1/c']]);
  });

  it('with-constraint-non-existent-attribute: a device without it fails the constraint', () => {
    const c = claim('c', [request('req-0')], [{ matchAttribute: `${DRIVER}/numa` }]).spec.devices;
    expect(devicesOf(run({ slices: twoDevices, claims: [c] }))).toBe('failed');
  });

  it('with-constraint-not-matching-int-attribute across two requests', () => {
    const slices = [slice('node-1', [device('a', { numa: 0 }), device('b', { numa: 1 })])];
    const c = claim(
      'c',
      [request('r1'), request('r2')],
      [{ requests: ['r1', 'r2'], matchAttribute: `${DRIVER}/numa` }],
    );
    expect(devicesOf(run({ slices, claims: [c.spec.devices] }))).toBe('failed');
  });

  it('distinctAttribute: the devices must differ', () => {
    const slices = [slice('node-1', [device('a', { numa: 0 }), device('b', { numa: 0 }), device('c', { numa: 1 })])];
    const c = claim('c', [request('req-0', { count: 2 })], [{ distinctAttribute: `${DRIVER}/numa` }]).spec.devices;
    expect(devicesOf(run({ slices, claims: [c] }))).toEqual([['node-1/a', 'node-1/c']]);
  });

  it('prioritized-list (firstAvailable): the first subrequest that can be satisfied wins', () => {
    const slices = [slice('node-1', [device('small', { memory: 16 })])];
    const c: V1DeviceClaim = {
      requests: [
        {
          name: 'req-0',
          firstAvailable: [
            {
              name: 'large',
              deviceClassName: 'gpu',
              selectors: [{ cel: { expression: `device.attributes["${DRIVER}"].memory >= 80` } }],
            },
            { name: 'small', deviceClassName: 'gpu' },
          ],
        },
      ],
    };
    const outcome = run({ slices, claims: [c] });
    expect('allocations' in outcome && outcome.allocations[0]!.devices.map((d) => d.request)).toEqual(['req-0/small']);
  });

  it('too-many-devices: more than 32 for one claim is the allocator error', () => {
    expect(devicesOf(run({ slices: twoDevices, claims: [devices(['req-0', { count: 33 }])] }))).toBe(
      'claim default/claim-0: number of requested devices 33 exceeds the claim limit of 32',
    );
  });

  it('device taints: a NoSchedule taint keeps the device unless the request tolerates it', () => {
    const tainted = [slice('node-1', [{ ...device('device-1'), taints: [{ key: 'broken', effect: 'NoSchedule' }] }])];
    expect(devicesOf(run({ slices: tainted, claims: [devices(['req-0'])] }))).toBe('failed');
    const tolerating = devices(['req-0']);
    tolerating!.requests![0]!.exactly!.tolerations = [{ key: 'broken', operator: 'Exists' }];
    expect(devicesOf(run({ slices: tainted, claims: [tolerating] }))).toEqual([['node-1/device-1']]);
  });

  it('device taints count from 1.36 (DRADeviceTaints on by default); 1.34 and 1.35 allocate a tainted device', () => {
    const tainted = [slice('node-1', [{ ...device('device-1'), taints: [{ key: 'broken', effect: 'NoSchedule' }] }])];
    const claims = [devices(['req-0'])];
    expect(devicesOf(run({ slices: tainted, claims, serverVersion: 'v1.36.0' }))).toBe('failed');
    expect(devicesOf(run({ slices: tainted, claims, serverVersion: 'v1.35.4' }))).toEqual([['node-1/device-1']]);
    expect(devicesOf(run({ slices: tainted, claims, serverVersion: 'v1.34.4' }))).toEqual([['node-1/device-1']]);
  });

  it('a device that consumes counters is never allocated before 1.36; from 1.36 its counters decide: unknown', () => {
    const partition = { ...device('device-1'), consumesCounters: [{ counterSet: 'gpu-0', counters: {} }] };
    const slices = [slice('node-1', [partition, device('device-2')])];
    const claims = [devices(['req-0'])];
    expect(devicesOf(run({ slices, claims, serverVersion: 'v1.35.4' }))).toEqual([['node-1/device-2']]);
    expect(devicesOf(run({ slices, claims, serverVersion: 'v1.37.2' }))).toBe(
      'request req-0: device gpu.example.com/node-1/device-1 consumes shared counters, which the plan does not model',
    );
  });

  it("a template's request asked again on the node: the same devices match, which are free is asked anew, an error names its claim", () => {
    // The replacements of a workload allocate claims made from one template: the same request object.
    const catalog = (classes: readonly V1DeviceClass[]) =>
      new DraCatalog(makeSnapshot({ resourceSlices: [...twoDevices], deviceClasses: [...classes] }));
    const template = devices(['req-0']);
    const ask = (c: DraCatalog, name: string, inUse: readonly string[] = []) =>
      devicesOf(allocate(c, node1, [{ key: `default/${name}`, devices: template }], (id) => inUse.includes(id)));
    const gpus = catalog([deviceClass()]);
    expect(ask(gpus, 'a')).toEqual([['node-1/device-1']]);
    expect(ask(gpus, 'b', [`${DRIVER}/node-1/device-1`])).toEqual([['node-1/device-2']]);
    expect(ask(gpus, 'c', [`${DRIVER}/node-1/device-1`, `${DRIVER}/node-1/device-2`])).toBe('failed');
    const failing = catalog([deviceClass('gpu', `device.attributes["${DRIVER}"].memory >= 32`)]);
    expect(ask(failing, 'a')).toMatch(/^claim default\/a: selector #\d: CEL runtime error/);
    expect(ask(failing, 'b')).toMatch(/^claim default\/b: selector #\d: CEL runtime error/);
  });

  it('a CEL runtime error (an attribute the device lacks) aborts: the placement is unknown', () => {
    const classes = [deviceClass('gpu', `device.attributes["${DRIVER}"].memory >= 32`)];
    expect(devicesOf(run({ slices: twoDevices, classes, claims: [devices(['req-0'])] }))).toMatch(
      /^claim default\/claim-0: selector #\d: CEL runtime error on device gpu\.example\.com\/node-1\/device-1: /,
    );
  });
});
