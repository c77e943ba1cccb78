/**
 * The scale benchmark's generator must write a cluster the planner can believe: pods where the scheduler
 * could have put them, budgets whose status matches their pods, owners that resolve, and a file that is
 * what kubectl prints.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import {
  drainEveryPod,
  FULL_SCALE,
  HOSTNAME_LABEL,
  POOL_LABEL,
  syntheticClusterList,
  untakenName,
  writeSyntheticCluster,
  ZONE_LABEL,
  type SyntheticClusterOptions,
} from '../../../scripts/bench/synthetic-cluster.js';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { EVICTION_RACE_UNKNOWN, REPLACEMENT_ORDER_UNKNOWN } from '../../../src/plan/scheduling/simulation.js';
import { firstMatchingToleration } from '../../../src/plan/tolerations.js';
import { ClusterIndex } from '../../../src/snapshot/cluster-index.js';
import { snapshotFromDocuments } from '../../../src/snapshot/load-file.js';

const SMALL: SyntheticClusterOptions = { ...FULL_SCALE, nodes: 90, pods: 2_700, namespaces: 12 };
const list = syntheticClusterList(SMALL);
const snapshot = snapshotFromDocuments([list], { type: 'file', path: 'synthetic' }, 'synthetic');
const index = new ClusterIndex(snapshot);
const dir = mkdtempSync(path.join(tmpdir(), 'synthetic-cluster-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const nameOf = (o: { metadata?: { name?: string } }) => o.metadata?.name ?? '';
const ownerOf = (pod: V1Pod) => {
  const ref = pod.metadata?.ownerReferences?.find((r) => r.controller);
  return ref ? `${ref.kind}/${pod.metadata?.namespace}/${ref.name}` : `bare/${nameOf(pod)}`;
};
const podsByOwner = Map.groupBy(snapshot.pods, ownerOf);
const nodeOf = (pod: V1Pod) => index.node(pod.spec?.nodeName ?? '');

/** Millicores or bytes of a quantity as the generator writes them (m, Ki, Mi, Gi or plain). */
function amount(quantity: string): number {
  const units: Record<string, number> = { m: 0.001, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3 };
  const [, number, unit] = /^(\d+)(m|Ki|Mi|Gi)?$/.exec(quantity)!;
  return Number(number) * (unit ? units[unit]! : 1);
}

describe('synthetic cluster: the shape asked for', () => {
  it('is deterministic: the same seed gives the same objects, another seed another cluster', () => {
    expect(JSON.stringify(syntheticClusterList(SMALL))).toBe(JSON.stringify(list));
    expect(JSON.stringify(syntheticClusterList({ ...SMALL, seed: SMALL.seed + 1 }))).not.toBe(JSON.stringify(list));
  });

  it('has the nodes, zones and namespaces asked for, and exactly the pods', () => {
    expect(snapshot.nodes).toHaveLength(SMALL.nodes);
    expect(snapshot.pods).toHaveLength(SMALL.pods);
    expect(new Set(snapshot.nodes.map((n) => n.metadata?.labels?.[ZONE_LABEL])).size).toBe(SMALL.zones);
    const namespaces = new Set(snapshot.pods.map((p) => p.metadata?.namespace));
    expect(namespaces.size).toBeGreaterThan(SMALL.namespaces / 2);
    expect(namespaces.size).toBeLessThanOrEqual(SMALL.namespaces + 1); // + kube-system
  });

  it('runs one pod of each DaemonSet on every node', () => {
    for (const ds of snapshot.daemonSets) {
      const nodes = podsByOwner.get(`DaemonSet/kube-system/${nameOf(ds)}`)!.map((p) => p.spec?.nodeName);
      expect(new Set(nodes).size).toBe(SMALL.nodes);
    }
  });

  it('has every kind of workload the planner distinguishes', () => {
    const specs = snapshot.pods.map((p) => p.spec!);
    const has = (test: (spec: V1Pod['spec'] & object) => boolean) => specs.some(test);
    expect(has((s) => !!s.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution)).toBe(true);
    expect(has((s) => !!s.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution)).toBe(true);
    expect(has((s) => !!s.topologySpreadConstraints?.some((c) => c.nodeTaintsPolicy === 'Honor'))).toBe(true);
    expect(has((s) => !!s.topologySpreadConstraints?.some((c) => c.minDomains === 3))).toBe(true);
    expect(has((s) => !!s.volumes?.some((v) => v.emptyDir))).toBe(true);
    expect(snapshot.statefulSets.length).toBeGreaterThan(0);
    expect(snapshot.pods.some((p) => !p.metadata?.ownerReferences)).toBe(true); // bare pods
    expect(snapshot.pods.some((p) => p.metadata?.annotations?.['kubernetes.io/config.mirror'])).toBe(true);
    const budgets = snapshot.pdbs.map((b) => b.spec!);
    expect(budgets.some((b) => typeof b.maxUnavailable === 'string')).toBe(true);
    expect(budgets.some((b) => typeof b.minAvailable === 'string')).toBe(true);
    expect(budgets.some((b) => typeof b.minAvailable === 'number')).toBe(true);
  });
});

describe('synthetic cluster: pods where the scheduler could have put them', () => {
  it('replicas with required anti-affinity or a DoNotSchedule hostname spread are on different nodes', () => {
    for (const pods of podsByOwner.values()) {
      const spec = pods[0]!.spec!;
      const onePerNode =
        !!spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ||
        !!spec.topologySpreadConstraints?.some(
          (c) => c.topologyKey === HOSTNAME_LABEL && c.whenUnsatisfiable === 'DoNotSchedule',
        );
      const nodes = pods.filter((p) => p.spec?.nodeName).map((p) => p.spec!.nodeName);
      if (onePerNode) expect(new Set(nodes).size).toBe(nodes.length);
    }
  });

  it('a DoNotSchedule zone spread is within its maxSkew', () => {
    for (const pods of podsByOwner.values()) {
      const zone = pods[0]!.spec?.topologySpreadConstraints?.find(
        (c) => c.topologyKey === ZONE_LABEL && c.whenUnsatisfiable === 'DoNotSchedule',
      );
      if (!zone || pods.some((p) => !p.spec?.nodeName)) continue;
      const perZone = Map.groupBy(pods, (p) => nodeOf(p)!.metadata!.labels![ZONE_LABEL]);
      const counts = [...new Set(snapshot.nodes.map((n) => n.metadata!.labels![ZONE_LABEL]))].map(
        (z) => perZone.get(z)?.length ?? 0,
      );
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(zone.maxSkew);
    }
  });

  it('the requests on each node fit its allocatable cpu, memory and pods', () => {
    for (const node of snapshot.nodes) {
      const pods = index.podsOnNode(nameOf(node));
      const requested = (resource: string) =>
        pods.reduce((sum, p) => sum + amount(p.spec!.containers[0]!.resources!.requests![resource]!), 0);
      const allocatable = node.status!.allocatable!;
      expect(requested('cpu')).toBeLessThanOrEqual(amount(allocatable['cpu']!));
      expect(requested('memory')).toBeLessThanOrEqual(amount(allocatable['memory']!));
      expect(pods.length).toBeLessThanOrEqual(Number(allocatable['pods']));
    }
  });

  it('a tainted node only runs pods that tolerate its taints (the control plane: DaemonSets and static pods)', () => {
    const tainted = snapshot.nodes.filter((n: V1Node) => n.spec?.taints?.length);
    expect(new Set(tainted.map((n) => n.metadata?.labels?.[POOL_LABEL]))).toEqual(
      new Set(['control-plane', 'highmem']),
    );
    for (const node of tainted) {
      for (const pod of index.podsOnNode(nameOf(node))) {
        const mirror = pod.metadata?.annotations?.['kubernetes.io/config.mirror'] !== undefined;
        const tolerated = node.spec!.taints!.every((t) => firstMatchingToleration(pod.spec?.tolerations, t));
        expect(mirror || tolerated).toBe(true);
      }
    }
  });
});

describe('synthetic cluster: objects that agree with each other', () => {
  it("a budget's status counts the pods it selects, as the disruption controller would", () => {
    for (const pdb of snapshot.pdbs) {
      const pods = index.podsMatching(pdb.metadata!.namespace!, pdb.spec!.selector!);
      const healthy = pods.filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
      const status = pdb.status!;
      expect([status.expectedPods, status.currentHealthy]).toEqual([pods.length, healthy.length]);
      expect(status.disruptionsAllowed).toBe(Math.max(0, status.currentHealthy! - status.desiredHealthy!));
      const { maxUnavailable, minAvailable } = pdb.spec!;
      const scaled = (v: number | string) =>
        typeof v === 'number' ? v : Math.ceil((parseInt(v, 10) * pods.length) / 100);
      const desired = maxUnavailable !== undefined ? pods.length - scaled(maxUnavailable) : scaled(minAvailable!);
      expect(status.desiredHealthy).toBe(desired);
    }
  });

  it('owner references resolve: pod to ReplicaSet (by uid) to Deployment, StatefulSet, DaemonSet, Node', () => {
    for (const pod of snapshot.pods) {
      const ref = pod.metadata?.ownerReferences?.[0];
      if (!ref) continue;
      const namespace = pod.metadata!.namespace!;
      const owner = ref.kind === 'Node' ? index.node(ref.name) : index.owner(ref.kind, namespace, ref.name);
      expect(owner?.metadata?.uid, `${namespace}/${nameOf(pod)}`).toBe(ref.uid);
      if (ref.kind === 'ReplicaSet') {
        const replicaSet = snapshot.replicaSets.find((rs) => rs.metadata?.uid === ref.uid)!;
        const deployment = replicaSet.metadata!.ownerReferences![0]!;
        expect(index.owner('Deployment', namespace, deployment.name)?.metadata?.uid).toBe(deployment.uid);
      }
    }
  });

  it('a generated pod name that is taken is drawn again, as generateName is retried on a conflict', () => {
    // At full scale the 5-letter suffixes met once in 150,000 pods: two different pods under one name.
    const taken = new Set(['web-abc12-bbbbb']);
    const draws = ['bbbbb', 'bbbbb', 'ccccc'];
    expect(untakenName(taken, 'web-abc12', () => draws.shift()!)).toBe('web-abc12-ccccc');
    expect(taken).toEqual(new Set(['web-abc12-bbbbb', 'web-abc12-ccccc']));
  });

  it('every uid is unique', () => {
    const uids = list.items.map((item) => item.metadata['uid']);
    expect(new Set(uids).size).toBe(uids.length);
  });

  it("each GPU pod's claim holds a device of its own node's slice, and no device is held twice", () => {
    const claims = snapshot.resourceClaims;
    expect(claims.length).toBeGreaterThan(0);
    const devicesOf = new Map(
      snapshot.resourceSlices.map((s) => [s.spec.nodeName, new Set((s.spec.devices ?? []).map((d) => d.name))]),
    );
    const held = claims.flatMap((c) => c.status!.allocation!.devices!.results!.map((r) => `${r.pool}/${r.device}`));
    expect(new Set(held).size).toBe(held.length);
    for (const c of claims) {
      const owner = snapshot.pods.find((p) => p.metadata?.uid === c.metadata?.ownerReferences?.[0]?.uid)!;
      const [result] = c.status!.allocation!.devices!.results!;
      expect(result!.pool).toBe(owner.spec!.nodeName);
      expect(devicesOf.get(owner.spec!.nodeName)?.has(result!.device)).toBe(true);
    }
  });

  it("a GPU node's plan allocates its GPU pods' replacements devices elsewhere in the pool", () => {
    const gpuNode = snapshot.pods.find((p) => (p.spec?.resourceClaims ?? []).length > 0)!.spec!.nodeName!;
    const plan = buildPlan(index, drainEveryPod([gpuNode]));
    const gpuPods = plan.pods.filter(
      (p) =>
        p.replacement && index.snapshot.resourceClaims.some((c) => c.metadata?.ownerReferences?.[0]?.uid === p.uid),
    );
    // A replacement whose node the wave's race, or the order of its StatefulSet replacements, decides is
    // unknown (those rules' own tests); the others are placed with a device of the pool.
    const placed = gpuPods.filter((p) => p.replacement!.schedulable && p.replacement!.unknown === undefined);
    expect(placed.length).toBeGreaterThan(0);
    for (const p of placed) {
      expect(index.node(p.replacement!.placedOn!)?.metadata?.labels?.[POOL_LABEL]).toBe('highmem');
    }
    for (const p of gpuPods.filter((p) => p.replacement!.unknown !== undefined)) {
      expect([EVICTION_RACE_UNKNOWN, REPLACEMENT_ORDER_UNKNOWN]).toContain(p.replacement!.unknown);
    }
    // Some may not fit for their spread or anti-affinity; none for want of a device.
    for (const p of gpuPods) expect(p.replacement!.message).not.toMatch(/cannot allocate all claims/);
  });

  it("a node's plan evicts its pods and places their replacements elsewhere", () => {
    const node = snapshot.nodes.find((n) => n.metadata?.labels?.[POOL_LABEL] === 'general')!;
    const plan = buildPlan(index, drainEveryPod([nameOf(node)]));
    const placed = plan.pods.filter((p) => p.replacement?.schedulable);
    expect(placed.length).toBeGreaterThan(0);
    expect(placed.every((p) => p.replacement!.placedOn !== nameOf(node))).toBe(true);
  });
});

describe('synthetic cluster: the file kubectl would print', () => {
  it('is the same List, indented with four spaces, and each item range holds one item', async () => {
    const file = path.join(dir, 'small.json');
    const written = await writeSyntheticCluster(file, SMALL);
    const bytes = readFileSync(file);
    expect(written.bytes).toBe(bytes.length);
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(list);
    expect(bytes.toString('utf8', 0, 100)).toMatch(
      /^\{\n {4}"apiVersion": "v1",\n {4}"items": \[\n {8}\{\n {12}"apiVersion"/,
    );
    expect(written.itemRanges).toHaveLength(2 * list.items.length);
    const third = JSON.parse(bytes.toString('utf8', written.itemRanges[4], written.itemRanges[5]));
    expect(third).toEqual(list.items[2]);
    expect(written.counts['Pod']).toBe(SMALL.pods);
  });
});
