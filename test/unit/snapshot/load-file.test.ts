import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { EMBEDDED_SNAPSHOT_NAMES, loadEmbeddedSnapshot } from '../../../src/snapshot/embedded.js';
import {
  loadSnapshotFile,
  SNAPSHOT_COMMAND,
  SnapshotLoadError,
  type FileProgress,
} from '../../../src/snapshot/load-file.js';

const dir = mkdtempSync(path.join(tmpdir(), 'maint-snapshot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let fileCount = 0;
function file(content: string, ext = 'json'): string {
  const name = path.join(dir, `s${++fileCount}.${ext}`);
  writeFileSync(name, content);
  return name;
}

const node = (name: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name } });
const pod = (name: string, nodeName = 'n1') => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'demo' },
  spec: { nodeName, containers: [{ name: 'c', image: 'x' }] },
});
const pdb = (name: string) => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name, namespace: 'demo' },
});
/** What `kubectl get nodes,pods,… -A -o json` prints. */
const list = (...items: unknown[]) => ({ apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, items });

async function loadError(name: string): Promise<string> {
  try {
    await loadSnapshotFile(name);
  } catch (err) {
    expect(err).toBeInstanceOf(SnapshotLoadError);
    return (err as Error).message;
  }
  throw new Error('the snapshot unexpectedly loaded');
}

describe('loadSnapshotFile: progress', () => {
  it('reports the bytes read, then the parse, with the file size', async () => {
    const name = file(JSON.stringify(list(node('n1'), pod('a'))));
    const reports: FileProgress[] = [];
    await loadSnapshotFile(name, { onProgress: (p) => reports.push(p) });
    const size = reports[0]!.totalBytes;
    expect(size).toBeGreaterThan(0);
    expect(reports.map((r) => [r.phase, r.bytesRead])).toEqual([
      ['reading', 0],
      ['reading', size],
      ['parsing', size],
    ]);
  });
});

describe('loadSnapshotFile: accepted shapes', () => {
  it('a kubectl List of mixed kinds, JSON', async () => {
    const name = file(JSON.stringify(list(node('n1'), node('n2'), pod('a'), pod('b', 'n2'), pdb('web'))));
    const s = await loadSnapshotFile(name);
    expect(s.source).toEqual({ type: 'file', path: name });
    expect([...s.kinds]).toEqual(['Node', 'Pod', 'PodDisruptionBudget']);
    expect([s.nodes.length, s.pods.length, s.pdbs.length]).toEqual([2, 2, 1]);
    expect(s.pods[1]?.spec?.nodeName).toBe('n2');
    expect(s.warnings).toEqual([]);
  });

  it('a pipe, which has no size (`--snapshot <(kubectl get …)`), is read to its end', async () => {
    const fifo = path.join(dir, 'pipe.json');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', 'cat "$1" > "$2"', 'sh', file(JSON.stringify(list(node('n1'), pod('a')))), fifo]);
    // Listened for before the read: on a loaded machine the writer can be gone before the load returns,
    // and a 'close' listener added after the event waits for ever (ci-under-load: timed out at 60 s).
    const closed = new Promise((resolve) => writer.on('close', resolve));
    const s = await loadSnapshotFile(fifo);
    expect([s.nodes.length, s.pods.length]).toEqual([1, 1]);
    await closed;
  });

  it('UTF-8 beyond ASCII, across the 16 MB pieces the file is read in, is decoded whole', async () => {
    const annotation = 'é→✓'.repeat(3_000_000); // 21 MB of multi-byte characters: a piece ends inside one
    const name = file(
      JSON.stringify(list({ ...node('n1'), metadata: { name: 'n1', annotations: { a: annotation } } })),
    );
    const s = await loadSnapshotFile(name);
    expect(s.nodes[0]?.metadata?.annotations?.a).toBe(annotation);
  });

  it('the same List as YAML', async () => {
    const s = await loadSnapshotFile(file(stringify(list(node('n1'), pod('a'))), 'yaml'));
    expect([s.nodes.length, s.pods.length]).toEqual([1, 1]);
  });

  it('a multi-document YAML stream of objects and lists', async () => {
    const yaml = [stringify(node('n1')), stringify(list(pod('a'), pod('b'))), stringify(pdb('web'))].join('---\n');
    const s = await loadSnapshotFile(file(yaml, 'yaml'));
    expect([s.nodes.length, s.pods.length, s.pdbs.length]).toEqual([1, 2, 1]);
  });

  it('a plain JSON array of objects', async () => {
    const s = await loadSnapshotFile(file(JSON.stringify([node('n1'), pod('a')])));
    expect([...s.kinds]).toEqual(['Node', 'Pod']);
  });

  it('a typed list (as the API serves it) gives its items their kind, and counts as loaded even when empty', async () => {
    const yaml = [
      stringify({ kind: 'NodeList', apiVersion: 'v1', items: [{ metadata: { name: 'n1' } }] }),
      stringify({
        kind: 'PodList',
        apiVersion: 'v1',
        items: [{ metadata: { name: 'a', namespace: 'demo' }, spec: { containers: [{ name: 'c' }] } }],
      }),
      stringify({ kind: 'PodDisruptionBudgetList', apiVersion: 'policy/v1', items: [] }),
    ].join('---\n');
    const s = await loadSnapshotFile(file(yaml, 'yaml'));
    expect([...s.kinds]).toEqual(['Node', 'Pod', 'PodDisruptionBudget']);
    expect(s.nodes[0]).toMatchObject({ kind: 'Node', metadata: { name: 'n1' } });
    expect(s.pdbs).toEqual([]);
  });

  it('a kind with no object in a mixed List is not loaded: the plan gets a caveat, the load does not fail', async () => {
    const s = await loadSnapshotFile(file(JSON.stringify(list(node('n1'), pod('a')))));
    expect(s.kinds.has('PodDisruptionBudget')).toBe(false);
    expect(s.kinds.has('ReplicaSet')).toBe(false);
  });

  it('the volume kinds are loaded: claims, volumes, classes, CSI nodes, drivers and capacities', async () => {
    const pvc = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data-db-0', namespace: 'demo' },
      spec: { volumeName: 'pv-1', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      status: { phase: 'Bound' },
    };
    const pv = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv-1' },
      spec: {
        capacity: { storage: '1Gi' },
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['n1'] }] },
            ],
          },
        },
      },
    };
    const sc = { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'local' }, provisioner: 'x' };
    const csiNode = {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSINode',
      metadata: { name: 'n1' },
      spec: { drivers: [{ name: 'ebs.csi.aws.com', nodeID: 'i-1', allocatable: { count: 25 } }] },
    };
    const driver = { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: 'ebs.csi.aws.com' } };
    const capacity = {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIStorageCapacity',
      metadata: { name: 'c1', namespace: 'kube-system' },
      storageClassName: 'local',
      capacity: '10Gi',
    };
    const s = await loadSnapshotFile(file(JSON.stringify(list(node('n1'), pvc, pv, sc, csiNode, driver, capacity))));
    expect(s.warnings).toEqual([]);
    expect([
      s.persistentVolumeClaims.length,
      s.persistentVolumes.length,
      s.storageClasses.length,
      s.csiNodes.length,
      s.csiDrivers.length,
      s.csiStorageCapacities.length,
    ]).toEqual([1, 1, 1, 1, 1, 1]);
    expect(s.kinds.has('PersistentVolumeClaim') && s.kinds.has('CSIStorageCapacity')).toBe(true);
  });

  it('a PersistentVolume whose capacity is not a quantity is refused, naming the field', async () => {
    const pv = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv-1' },
      spec: { capacity: { storage: 'lots' } },
    };
    const name = file(JSON.stringify(list(node('n1'), pv)));
    expect(await loadError(name)).toMatch(
      /^cannot read snapshot ".*": items\[1\]: PersistentVolume pv-1: spec\.capacity\["storage"\]: /,
    );
  });

  it('kinds the plan does not use are skipped with one warning that counts them', async () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } };
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'y', namespace: 'demo' } };
    const name = file(JSON.stringify(list(node('n1'), pod('a'), cm, cm, secret)));
    const s = await loadSnapshotFile(name);
    expect(s.warnings).toEqual([
      `snapshot "${name}": ignored objects of kinds the plan does not use: ConfigMap (2), Secret (1)`,
    ]);
  });

  it('Namespaces (their labels, for a namespaceSelector) and PriorityClasses are loaded', async () => {
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'demo', labels: { team: 'data' } } };
    const pc = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 };
    const s = await loadSnapshotFile(file(JSON.stringify(list(node('n1'), pod('a'), ns, pc))));
    expect(s.warnings).toEqual([]);
    expect([s.namespaces[0]?.metadata?.labels, s.priorityClasses[0]?.value]).toEqual([{ team: 'data' }, 1000]);
    expect(s.kinds.has('Namespace') && s.kinds.has('PriorityClass')).toBe(true);
  });

  it('a PriorityClass without a value is refused, naming the field', async () => {
    const pc = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' } };
    const name = file(JSON.stringify(list(node('n1'), pc)));
    expect(await loadError(name)).toMatch(/^cannot read snapshot ".*": items\[1\]: PriorityClass high: value: /);
  });
});

describe('loadSnapshotFile: one-line errors that name the file and the problem', () => {
  it('a missing file', async () => {
    const name = path.join(dir, 'missing.json');
    expect(await loadError(name)).toBe(`cannot read snapshot "${name}": no such file`);
  });

  it('an empty file', async () => {
    const name = file('  \n');
    expect(await loadError(name)).toBe(`cannot read snapshot "${name}": the file is empty`);
  });

  it('broken JSON gives the line and column', async () => {
    const name = file('{\n  "kind": "List",\n  "items": [\n    {"kind": "Node",}\n  ]\n}\n');
    expect(await loadError(name)).toMatch(
      new RegExp(`^cannot read snapshot "${name}": not valid JSON at line 4, column 21: .+$`),
    );
  });

  it('broken YAML gives the line', async () => {
    const name = file('kind: List\nitems:\n  - kind: Node\n    metadata: {name: n1\n', 'yaml');
    const message = await loadError(name);
    expect(message).toMatch(
      new RegExp(`^cannot read snapshot "${name}": not valid JSON or YAML at line \\d+, column \\d+: .+$`),
    );
    expect(message).not.toContain('\n');
  });

  it('a document that is not a List says how to make one', async () => {
    const name = file(JSON.stringify({ apiVersion: 'v1', clusters: [] }));
    expect(await loadError(name)).toBe(
      `cannot read snapshot "${name}": not a List (make one with: ${SNAPSHOT_COMMAND})`,
    );
  });

  it('an item without a kind is named by its position', async () => {
    const name = file(JSON.stringify(list(node('n1'), { metadata: { name: 'x' } })));
    expect(await loadError(name)).toBe(`cannot read snapshot "${name}": items[1] has no kind`);
  });

  it('an item that is not an object is named by its position', async () => {
    const name = file(JSON.stringify(list(node('n1'), 'pod-a')));
    expect(await loadError(name)).toBe(`cannot read snapshot "${name}": items[1] is not an object`);
  });

  it('an object without a name', async () => {
    const name = file(JSON.stringify(list(node('n1'), { kind: 'Pod', metadata: {} })));
    expect(await loadError(name)).toBe(`cannot read snapshot "${name}": items[1] (Pod) has no metadata.name`);
  });

  it('in a multi-document stream the document is named too', async () => {
    const name = file(`${stringify(node('n1'))}---\n${stringify(list(pod('a'), { metadata: { name: 'b' } }))}`, 'yaml');
    expect(await loadError(name)).toBe(`cannot read snapshot "${name}": document 2: items[1] has no kind`);
  });

  it('a snapshot with no Node objects cannot be planned', async () => {
    const name = file(JSON.stringify(list(pod('a'))));
    expect(await loadError(name)).toBe(
      `cannot read snapshot "${name}": it has no Node objects (make one with: ${SNAPSHOT_COMMAND})`,
    );
  });

  it('a snapshot with no Pod object loads, with pods marked as not read (the plan says it is incomplete)', async () => {
    const s = await loadSnapshotFile(file(JSON.stringify(list(node('n1')))));
    expect(s.nodes).toHaveLength(1);
    expect(s.pods).toEqual([]);
    expect(s.kinds.has('Pod')).toBe(false);
  });
});

describe('loadEmbeddedSnapshot', () => {
  it.each(EMBEDDED_SNAPSHOT_NAMES)('the bundled "%s" example loads with the hello scenario\'s three nodes', (name) => {
    const s = loadEmbeddedSnapshot(name);
    expect(s.source).toEqual({ type: 'embedded', name });
    expect(s.nodes.map((n) => n.metadata?.name).sort()).toEqual(['k8s-master-1', 'k8s-node-1', 'k8s-node-2']);
    expect(s.pods.filter((p) => p.metadata?.namespace === 'demo')).toHaveLength(4);
    expect(s.kinds.has('PodDisruptionBudget')).toBe(true);
  });
});

describe('loadSnapshotFile: the server version it was read from', () => {
  const serverVersion = { major: '1', minor: '34', gitVersion: 'v1.34.4', platform: 'linux/amd64' };

  it('as the List field `npm run lab -- snapshot` writes', async () => {
    const s = await loadSnapshotFile(file(JSON.stringify({ ...list(node('n1')), serverVersion })));
    expect(s.serverVersion).toBe('v1.34.4');
  });

  it('as a document of its own: what `kubectl version -o yaml` prints, before the List', async () => {
    const yaml = [stringify({ clientVersion: { gitVersion: 'v1.37.2' }, serverVersion }), stringify(list(node('n1')))];
    const s = await loadSnapshotFile(file(yaml.join('---\n'), 'yaml'));
    expect([s.serverVersion, [...s.kinds]]).toEqual(['v1.34.4', ['Node']]);
  });

  it('absent when the file does not say (the plan then models the newest supported minor)', async () => {
    expect((await loadSnapshotFile(file(JSON.stringify(list(node('n1')))))).serverVersion).toBeUndefined();
  });

  it('one that is not a version, or two that differ, fail the load naming the place', async () => {
    const bad = file(JSON.stringify({ ...list(node('n1')), serverVersion: 'v1.34.4' }));
    expect(await loadError(bad)).toBe(
      `cannot read snapshot "${bad}": serverVersion: not a version (expected what kubectl version -o json prints there)`,
    );
    const other = { ...serverVersion, gitVersion: 'v1.35.0' };
    const two = file(
      [stringify({ serverVersion }), stringify({ ...list(node('n1')), serverVersion: other })].join('---\n'),
      'yaml',
    );
    expect(await loadError(two)).toBe(
      `cannot read snapshot "${two}": document 2: serverVersion: v1.35.0, but the file also says v1.34.4`,
    );
  });
});
