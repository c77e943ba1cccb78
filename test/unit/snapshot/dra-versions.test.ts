import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toV1 } from '../../../src/snapshot/dra-versions.js';
import { loadSnapshotFile } from '../../../src/snapshot/load-file.js';
import { claim, device, deviceClass, request, slice, template } from '../plan/scheduling/dra-fixtures.js';

// The same DRA objects as resource.k8s.io/v1beta1 serves them (k8s.io/api resource/v1beta1, v0.34): a
// device's fields under `basic`, a request's fields on the request itself.
const v1Slice = slice('n1', [device('gpu-0', { model: 'a100' }, { memory: '80Gi' })]);
const v1beta1Slice = {
  ...v1Slice,
  apiVersion: 'resource.k8s.io/v1beta1',
  spec: {
    ...v1Slice.spec,
    devices: [
      { name: 'gpu-0', basic: { attributes: { model: { string: 'a100' } }, capacity: { memory: { value: '80Gi' } } } },
    ],
  },
};
const v1Claim = claim('shared', [request('gpu', { count: 2 })]);
const v1beta1Claim = {
  ...v1Claim,
  apiVersion: 'resource.k8s.io/v1beta1',
  spec: {
    devices: {
      requests: [{ name: 'gpu', deviceClassName: 'gpu', allocationMode: 'ExactCount', count: 2 }],
      constraints: [],
    },
  },
};
const firstAvailable = {
  name: 'either',
  firstAvailable: [{ name: 'big', deviceClassName: 'gpu', count: 1 }],
};

describe('DRA objects of v1beta1 in v1 shape', () => {
  it('a ResourceSlice: each device flattened', () => {
    expect(toV1('ResourceSlice', v1beta1Slice, 'v1beta1')).toEqual({
      ...v1Slice,
      apiVersion: 'resource.k8s.io/v1beta1',
    });
  });

  it("a ResourceClaim and a template's claim: the request's fields under `exactly`; firstAvailable as it is", () => {
    expect(toV1('ResourceClaim', v1beta1Claim, 'v1beta1')).toEqual({
      ...v1Claim,
      apiVersion: 'resource.k8s.io/v1beta1',
    });
    const t = template('t', []);
    const beta = {
      ...t,
      spec: { spec: { devices: { requests: [firstAvailable, v1beta1Claim.spec.devices.requests[0]] } } },
    };
    expect(toV1('ResourceClaimTemplate', beta, 'v1beta1')).toEqual({
      ...t,
      spec: { spec: { devices: { requests: [firstAvailable, v1Claim.spec.devices!.requests![0]] } } },
    });
  });

  it('v1beta2 and v1 are left as they are', () => {
    expect(toV1('ResourceClaim', v1Claim as never, 'v1beta2')).toBe(v1Claim);
  });
});

describe('a snapshot file of a server that serves DRA as v1beta1', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'maint-dra-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } };

  it('loads the same objects as v1 would give', async () => {
    const list = (items: unknown[]) => ({ apiVersion: 'v1', kind: 'List', items });
    const write = (name: string, items: unknown[]) => {
      const file = path.join(dir, name);
      writeFileSync(file, JSON.stringify(list(items)));
      return file;
    };
    const beta = await loadSnapshotFile(write('beta.json', [node, deviceClass(), v1beta1Slice, v1beta1Claim]));
    const v1 = await loadSnapshotFile(write('v1.json', [node, deviceClass(), v1Slice, v1Claim]));
    const shape = (o: object) => ({ ...o, apiVersion: undefined });
    expect(beta.resourceSlices.map(shape)).toEqual(v1.resourceSlices.map(shape));
    expect(beta.resourceClaims.map(shape)).toEqual(v1.resourceClaims.map(shape));
  });
});
