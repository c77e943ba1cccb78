/**
 * A large, realistic, deterministic cluster snapshot for the planner's scale benchmark: what
 * `kubectl get nodes,pods,poddisruptionbudgets,replicasets,deployments,statefulsets,daemonsets,services,persistentvolumeclaims,persistentvolumes,storageclasses,resourceclaims,resourceclaimtemplates,deviceclasses,resourceslices -A -o json`
 * prints for a cluster of thousands of nodes (a `List`, 4-space indented, items grouped by kind).
 *
 * The cluster is first laid out as a small model (nodes, workloads, which pod runs where), placed the way
 * the scheduler would have placed it (zones round-robin, one replica per node under required anti-affinity
 * or hostname spread, requests within allocatable, taints respected), then written object by object so that
 * the 150,000 pods never sit in memory at once. A seeded PRNG drives every choice: the same options give
 * the same bytes.
 */
import { open } from 'node:fs/promises';
import type { PlanOptions } from '../../src/plan/types.js';

export interface SyntheticClusterOptions {
  /** Nodes in total, the three control-plane nodes included. */
  readonly nodes: number;
  /** Pods in total (DaemonSet, static, workload and bare pods); the last workload is cut to fit. */
  readonly pods: number;
  readonly namespaces: number;
  readonly zones: number;
  readonly seed: number;
}

/** The plan of one node must stay interactive at this size. */
export const FULL_SCALE: SyntheticClusterOptions = {
  nodes: 5_000,
  pods: 150_000,
  namespaces: 500,
  zones: 3,
  seed: 20_260_715,
};

/** A JSON object as kubectl prints it (timestamps are strings, so client-node's types do not fit). */
export type ApiObject = { apiVersion: string; kind: string; metadata: Record<string, unknown> } & Record<
  string,
  unknown
>;

export const ZONE_LABEL = 'topology.kubernetes.io/zone';
export const HOSTNAME_LABEL = 'kubernetes.io/hostname';
/** Label of the node pool; workloads on the tainted high-memory pool select it. */
export const POOL_LABEL = 'node.example.com/pool';
const HIGHMEM_TAINT = { effect: 'NoSchedule', key: 'dedicated', value: 'highmem' };
const CONTROL_PLANE_TAINT = { effect: 'NoSchedule', key: 'node-role.kubernetes.io/control-plane' };
const CONTROL_PLANE_NODES = 3;
/** Static pods of each control-plane node (mirror pods, owned by the Node). */
const STATIC_PODS = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler'];
const REGION = 'eu-west-1';
/** 2026-01-15T08:00:00Z: every timestamp is an offset from here. */
const EPOCH_MS = Date.UTC(2026, 0, 15, 8, 0, 0);

/**
 * The plan options the benchmark drains with: kubectl drain --ignore-daemonsets --delete-emptydir-data
 * --force, so that every pod of a node goes through the budget waves and the scheduling simulation
 * (a refused pod would stop its node before any of that).
 */
export function drainEveryPod(nodes: readonly string[]): PlanOptions {
  return {
    nodes,
    ignoreDaemonSets: true,
    deleteEmptyDirData: true,
    force: true,
    disableEviction: false,
    skipWaitForDeleteTimeoutSeconds: 0,
    taint: { key: 'kubectl-maint/maintenance' },
    nodeMonitorGracePeriodSeconds: 50,
    nowEpochSeconds: EPOCH_MS / 1000 + 86_400 * 60,
  };
}

// ---------------------------------------------------------------------------------------------------
// Seeded randomness

/** mulberry32: small, fast and good enough to pick shapes and names; never Math.random. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  int(below: number): number {
    return Math.floor(this.next() * below);
  }

  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** One value of `[weight, value]` pairs, with probability proportional to its weight. */
  weighted<T>(choices: ReadonlyArray<readonly [number, T]>): T {
    const total = choices.reduce((sum, [w]) => sum + w, 0);
    let x = this.next() * total;
    for (const [w, value] of choices) if ((x -= w) < 0) return value;
    return choices[choices.length - 1]![1];
  }

  hex(length: number): string {
    let out = '';
    while (out.length < length) out += (this.int(0x1_0000_0000) >>> 0).toString(16).padStart(8, '0');
    return out.slice(0, length);
  }

  uid(): string {
    return `${this.hex(8)}-${this.hex(4)}-4${this.hex(3)}-${this.pick(['8', '9', 'a', 'b'])}${this.hex(3)}-${this.hex(12)}`;
  }

  /** The alphabet of pod-template-hash and generated name suffixes (apimachinery's rand.SafeEncodeString). */
  safe(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += SAFE_ALPHABET[this.int(SAFE_ALPHABET.length)];
    return out;
  }
}

const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

// ---------------------------------------------------------------------------------------------------
// The model: nodes, workloads, and where each pod runs

type Pool = 'control-plane' | 'general' | 'highmem';

interface NodeModel {
  readonly index: number;
  readonly name: string;
  readonly zone: string;
  readonly pool: Pool;
  readonly uid: string;
  readonly instanceType: string;
  readonly cpuMillis: number;
  readonly memoryKi: number;
  readonly maxPods: number;
  readonly created: number;
  usedCpuMillis: number;
  usedMemoryKi: number;
  podCount: number;
}

/** How a workload's pods are kept apart; each maps to what real charts set. */
type Shape = 'zone-spread' | 'host-spread' | 'required-anti-affinity' | 'preferred-anti-affinity' | 'plain';

type BudgetSpec = { maxUnavailable: number | string } | { minAvailable: number | string };

interface WorkloadModel {
  readonly kind: 'Deployment' | 'StatefulSet' | 'DaemonSet' | 'Static' | 'Bare';
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly budgetUid: string;
  readonly serviceUid: string;
  readonly replicas: number;
  readonly shape: Shape;
  /** Spread constraints: honour taints (the cordon drops a node out of the domains), and minDomains. */
  readonly honorTaints: boolean;
  readonly minDomains: number | undefined;
  readonly pool: Pool;
  readonly emptyDir: boolean;
  readonly cpu: string;
  readonly memory: string;
  readonly image: string;
  readonly imageDigest: string;
  readonly hash: string;
  /** The ReplicaSet (Deployment) holding the pods; an older one kept at 0 replicas for rollbacks. */
  readonly replicaSetUid: string;
  readonly oldReplicaSet: { readonly hash: string; readonly uid: string } | null;
  readonly budget: BudgetSpec | null;
  readonly alwaysAllowUnhealthy: boolean;
  readonly created: number;
  readonly pods: PodModel[];
}

interface PodModel {
  readonly name: string;
  readonly uid: string;
  readonly ordinal: number;
  /** null: Pending, no node had room. */
  readonly node: NodeModel | null;
  readonly ready: boolean;
  readonly ip: string | null;
  readonly containerId: string;
  readonly created: number;
}

interface ClusterModel {
  readonly nodes: readonly NodeModel[];
  /** DaemonSets, static pods, Deployments, StatefulSets and bare pods, in creation order. */
  readonly workloads: readonly WorkloadModel[];
}

// prettier-ignore
const WORDS = [
  'api', 'web', 'worker', 'cache', 'auth', 'billing', 'search', 'payments', 'orders', 'catalog',
  'notifications', 'gateway', 'reports', 'ingest', 'scheduler', 'export', 'media', 'profile', 'cart', 'pricing',
  'inventory', 'shipping', 'ledger', 'events', 'metrics', 'frontend', 'backend', 'graphql', 'queue', 'mailer',
];
const TEAMS = ['checkout', 'growth', 'platform', 'data', 'identity', 'risk', 'logistics', 'content', 'mobile', 'ads'];
const ENVIRONMENTS = ['prod', 'staging', 'canary', 'perf', 'sandbox'];
// prettier-ignore
const CPU_REQUESTS: ReadonlyArray<readonly [number, string]> = [
  [10, '10m'], [20, '50m'], [25, '100m'], [25, '250m'], [12, '500m'], [6, '1'], [2, '2'],
];
// prettier-ignore
const MEMORY_REQUESTS: ReadonlyArray<readonly [number, string]> = [
  [15, '64Mi'], [25, '128Mi'], [25, '256Mi'], [20, '512Mi'], [10, '1Gi'], [4, '2Gi'], [1, '4Gi'],
];
/** Replica counts: many small services, a long tail of large ones. */
// prettier-ignore
const REPLICAS: ReadonlyArray<readonly [number, readonly [number, number]]> = [
  [5, [1, 1]], [15, [2, 2]], [25, [3, 3]], [20, [4, 6]], [20, [8, 16]], [12, [20, 50]], [3, [60, 200]],
];
// prettier-ignore
const SHAPES: ReadonlyArray<readonly [number, Shape]> = [
  [25, 'zone-spread'], [10, 'host-spread'], [15, 'required-anti-affinity'], [25, 'preferred-anti-affinity'], [25, 'plain'],
];
const BUDGETS: ReadonlyArray<readonly [number, (replicas: number) => BudgetSpec]> = [
  [40, () => ({ maxUnavailable: 1 })],
  [15, () => ({ maxUnavailable: '25%' })],
  [15, () => ({ minAvailable: '50%' })],
  [20, (replicas) => ({ minAvailable: Math.max(1, replicas - 1) })],
  [8, () => ({ minAvailable: 1 })],
  [2, () => ({ maxUnavailable: 0 })], // the budget that blocks every drain: real clusters have a few
];
/** Required anti-affinity and hostname spread need a node per replica; real charts with them stay small. */
const MAX_ONE_PER_NODE_REPLICAS = 30;

const toMillis = (cpu: string) => (cpu.endsWith('m') ? Number(cpu.slice(0, -1)) : Number(cpu) * 1000);
const toKi = (memory: string) => Number(memory.slice(0, -2)) * (memory.endsWith('Gi') ? 1024 * 1024 : 1024);
const timestamp = (seconds: number) => new Date(EPOCH_MS + seconds * 1000).toISOString().replace('.000Z', 'Z');

/** Lays the cluster out: nodes, then workloads placed one replica at a time. */
function buildClusterModel(options: SyntheticClusterOptions): ClusterModel {
  const random = new Random(options.seed);
  const nodes = makeNodes(options, random);
  const placer = new Placer(nodes, options.zones, random);
  const namespaces = makeNamespaces(options.namespaces);
  const workloads: WorkloadModel[] = [];
  const names = new Map<string, Set<string>>();
  const uniqueName = (namespace: string, base: string) => {
    const taken = names.get(namespace) ?? names.set(namespace, new Set()).get(namespace)!;
    let name = base;
    for (let i = 2; taken.has(name); i++) name = `${base}-${i}`;
    taken.add(name);
    return name;
  };

  for (const ds of ['kube-proxy', 'cilium']) workloads.push(daemonSet(ds, nodes, random));
  for (const node of nodes.filter((n) => n.pool === 'control-plane')) workloads.push(staticPods(node, random));
  let remaining = options.pods - workloads.reduce((sum, w) => sum + w.pods.length, 0);
  const bare = Math.max(1, Math.round(remaining * 0.0005));
  remaining -= bare;
  // Bigger namespaces come first: a few teams own most of the pods, as in real multi-tenant clusters.
  const namespaceOf = () => namespaces[Math.floor(namespaces.length * random.next() ** 2)]!;
  for (let created = 0; remaining > 0; created++) {
    const namespace = namespaceOf();
    const kind = random.chance(0.08) ? 'StatefulSet' : 'Deployment';
    const name = uniqueName(namespace, random.pick(WORDS));
    const w = workload(kind, namespace, name, remaining, created, random);
    placer.placeAll(w);
    workloads.push(w);
    remaining -= w.replicas;
  }
  for (let i = 0; i < bare; i++) {
    const namespace = namespaceOf();
    const w = workload('Bare', namespace, uniqueName(namespace, `debug-${random.safe(5)}`), 1, i, random);
    placer.placeAll(w);
    workloads.push(w);
  }
  return { nodes, workloads };
}

function makeNamespaces(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const team = TEAMS[i % TEAMS.length]!;
    const env = ENVIRONMENTS[Math.floor(i / TEAMS.length) % ENVIRONMENTS.length]!;
    return `${team}-${env}-${String(i).padStart(3, '0')}`;
  });
}

/** Three control-plane nodes, 5 % high-memory nodes (tainted dedicated=highmem), the rest general purpose. */
function makeNodes(options: SyntheticClusterOptions, random: Random): NodeModel[] {
  const zones = Array.from({ length: options.zones }, (_, i) => `${REGION}${String.fromCharCode(97 + i)}`);
  return Array.from({ length: options.nodes }, (_, index) => {
    const pool: Pool = index < CONTROL_PLANE_NODES ? 'control-plane' : index % 20 === 0 ? 'highmem' : 'general';
    const zone = zones[index % zones.length]!;
    const ip = `10.${16 + (index % zones.length)}.${(index >> 8) & 255}.${index & 255}`;
    const size = {
      'control-plane': { instanceType: 'm6i.2xlarge', cpuMillis: 7910, memoryKi: 31_369_272 },
      general: { instanceType: 'm6i.4xlarge', cpuMillis: 15_890, memoryKi: 63_213_108 },
      highmem: { instanceType: 'r6i.8xlarge', cpuMillis: 31_850, memoryKi: 260_054_372 },
    }[pool];
    return {
      index,
      name: `ip-${ip.replaceAll('.', '-')}.${REGION}.compute.internal`,
      zone,
      pool,
      uid: random.uid(),
      ...size,
      maxPods: 110,
      created: random.int(86_400 * 30),
      usedCpuMillis: 0,
      usedMemoryKi: 0,
      podCount: 0,
    };
  });
}

/** Picks nodes the way the scheduler's filters would have allowed, spreading replicas over zones. */
class Placer {
  private readonly byPoolAndZone: Map<string, NodeModel[]>;
  private readonly zones: string[];
  private readonly random: Random;

  constructor(nodes: readonly NodeModel[], zoneCount: number, random: Random) {
    this.random = random;
    this.byPoolAndZone = Map.groupBy(nodes, (node) => `${node.pool}/${node.zone}`);
    this.zones = [...new Set(nodes.map((n) => n.zone))].slice(0, zoneCount);
  }

  placeAll(w: WorkloadModel): void {
    const used = new Set<NodeModel>();
    const onePerNode = w.shape === 'required-anti-affinity' || w.shape === 'host-spread';
    const firstZone = this.random.int(this.zones.length);
    for (let ordinal = 0; ordinal < w.replicas; ordinal++) {
      const node = this.place(w, (firstZone + ordinal) % this.zones.length, onePerNode ? used : null);
      if (node) used.add(node);
      w.pods.push(podModel(w, ordinal, node, this.random));
    }
  }

  /** A random node of the zone with room (and not already used, for one-per-node shapes); then any zone. */
  private place(w: WorkloadModel, zoneIndex: number, used: ReadonlySet<NodeModel> | null): NodeModel | null {
    // Parsed once per placement, not once per candidate node tried.
    const [cpuMillis, memoryKi] = [toMillis(w.cpu), toKi(w.memory)];
    const fits = (n: NodeModel) =>
      n.podCount < n.maxPods &&
      n.usedCpuMillis + cpuMillis <= n.cpuMillis &&
      n.usedMemoryKi + memoryKi <= n.memoryKi &&
      !used?.has(n);
    const zoneOrder = this.zones.map((_, i) => this.zones[(zoneIndex + i) % this.zones.length]!);
    for (const zone of zoneOrder) {
      const candidates = this.byPoolAndZone.get(`${w.pool}/${zone}`) ?? [];
      for (let attempt = 0; attempt < 32 && candidates.length > 0; attempt++) {
        const node = this.random.pick(candidates);
        if (fits(node)) return hold(node, w);
      }
      const node = candidates.find(fits);
      if (node) return hold(node, w);
    }
    return null;
  }
}

function hold(node: NodeModel, w: WorkloadModel): NodeModel {
  node.podCount++;
  node.usedCpuMillis += toMillis(w.cpu);
  node.usedMemoryKi += toKi(w.memory);
  return node;
}

/**
 * Pod names a controller generated: a random suffix, drawn again while the workload already has that name,
 * as the API server's generateName is retried on a conflict. 27^5 suffixes meet within a 5,000-pod
 * DaemonSet about once (the birthday bound), which made the full-scale snapshot hold two different pods
 * under one name: a file the snapshot loader rightly refuses.
 */
const generatedNames = new WeakMap<WorkloadModel, Set<string>>();

function generatedName(w: WorkloadModel, prefix: string, random: Random): string {
  let taken = generatedNames.get(w);
  if (!taken) generatedNames.set(w, (taken = new Set()));
  return untakenName(taken, prefix, () => random.safe(5));
}

/** `prefix-SUFFIX` with a suffix drawn until the name is not taken; the name is then taken. */
export function untakenName(taken: Set<string>, prefix: string, draw: () => string): string {
  let name = `${prefix}-${draw()}`;
  while (taken.has(name)) name = `${prefix}-${draw()}`;
  taken.add(name);
  return name;
}

function podModel(w: WorkloadModel, ordinal: number, node: NodeModel | null, random: Random): PodModel {
  const name = {
    Deployment: () => generatedName(w, `${w.name}-${w.hash}`, random),
    StatefulSet: () => `${w.name}-${ordinal}`,
    DaemonSet: () => generatedName(w, w.name, random),
    Static: () => `${STATIC_PODS[ordinal]}-${node!.name}`,
    Bare: () => w.name,
  }[w.kind]();
  const slot = node ? node.podCount : 0;
  // hostNetwork pods (DaemonSets, static pods) have the node's IP; others one from the node's /24.
  const hostNetwork = w.kind === 'DaemonSet' || w.kind === 'Static';
  const ip = node
    ? hostNetwork
      ? nodeIp(node)
      : `100.${64 + (node.index >> 8)}.${node.index & 255}.${slot + 1}`
    : null;
  return {
    name,
    uid: random.uid(),
    ordinal,
    node,
    // About one pod in 200 is crash-looping: the budgets see it as unhealthy.
    ready: node !== null && !random.chance(0.005),
    ip,
    containerId: random.hex(64),
    created: w.created + 60 + random.int(86_400 * 7),
  };
}

const nodeIp = (node: NodeModel) => node.name.slice(3, node.name.indexOf('.')).replaceAll('-', '.');

function workload(
  kind: 'Deployment' | 'StatefulSet' | 'Bare',
  namespace: string,
  name: string,
  remaining: number,
  order: number,
  random: Random,
): WorkloadModel {
  const shape: Shape = kind === 'Bare' ? 'plain' : random.weighted(SHAPES);
  const onePerNode = shape === 'required-anti-affinity' || shape === 'host-spread';
  const [min, max] = kind === 'StatefulSet' ? ([3, 5] as const) : random.weighted(REPLICAS);
  const wanted = kind === 'Bare' ? 1 : random.between(min, max);
  const replicas = Math.min(remaining, onePerNode ? Math.min(wanted, MAX_ONE_PER_NODE_REPLICAS) : wanted);
  const budgeted = kind === 'StatefulSet' || (kind === 'Deployment' && replicas >= 2 && random.chance(0.6));
  return {
    kind,
    namespace,
    name,
    uid: random.uid(),
    budgetUid: random.uid(),
    serviceUid: random.uid(),
    replicas,
    shape,
    honorTaints: random.chance(0.35),
    minDomains: shape === 'zone-spread' && random.chance(0.25) ? 3 : undefined,
    pool: random.chance(0.05) ? 'highmem' : 'general',
    emptyDir: random.chance(0.1),
    cpu: random.weighted(CPU_REQUESTS),
    memory: random.weighted(MEMORY_REQUESTS),
    image: `registry.example.com/${namespace.split('-')[0]}/${name}:1.${random.int(40)}.${random.int(10)}`,
    imageDigest: random.hex(64),
    hash: random.safe(10),
    replicaSetUid: random.uid(),
    oldReplicaSet: kind === 'Deployment' && random.chance(0.5) ? { hash: random.safe(10), uid: random.uid() } : null,
    budget: budgeted ? random.weighted(BUDGETS)(replicas) : null,
    alwaysAllowUnhealthy: random.chance(0.3),
    created: 86_400 * 30 + order * 7,
    pods: [],
  };
}

function daemonSet(name: string, nodes: readonly NodeModel[], random: Random): WorkloadModel {
  const w: WorkloadModel = {
    ...workload('Deployment', 'kube-system', name, nodes.length, 0, random),
    kind: 'DaemonSet',
    replicas: nodes.length,
    shape: 'plain',
    pool: 'general',
    emptyDir: false,
    cpu: '100m',
    memory: name === 'cilium' ? '512Mi' : '128Mi',
    image: name === 'cilium' ? 'quay.io/cilium/cilium:v1.19.2' : 'registry.k8s.io/kube-proxy:v1.37.2',
    oldReplicaSet: null,
    budget: null,
    created: 3_600,
  };
  for (const [ordinal, node] of nodes.entries()) w.pods.push(podModel(w, ordinal, hold(node, w), random));
  return w;
}

function staticPods(node: NodeModel, random: Random): WorkloadModel {
  const w: WorkloadModel = {
    ...workload('Bare', 'kube-system', `static-${node.name}`, STATIC_PODS.length, 0, random),
    kind: 'Static',
    replicas: STATIC_PODS.length,
    pool: 'control-plane',
    emptyDir: false,
    cpu: '250m',
    memory: '256Mi',
    created: node.created,
  };
  for (const ordinal of STATIC_PODS.keys()) w.pods.push(podModel(w, ordinal, hold(node, w), random));
  return w;
}

// ---------------------------------------------------------------------------------------------------
// The API objects

/** Every object of the snapshot, in the order kubectl prints the kinds of the command above. */
export function* syntheticClusterItems(options: SyntheticClusterOptions): Generator<ApiObject> {
  const { nodes, workloads } = buildClusterModel(options);
  for (const node of nodes) yield nodeObject(node);
  for (const w of workloads) for (const pod of w.pods) yield podObject(w, pod, nodes.length);
  for (const w of workloads) if (w.budget) yield budgetObject(w, w.budget);
  for (const w of workloads) if (w.kind === 'Deployment') yield* replicaSetObjects(w);
  for (const w of workloads) if (w.kind === 'Deployment') yield deploymentObject(w);
  for (const w of workloads) if (w.kind === 'StatefulSet') yield statefulSetObject(w);
  for (const w of workloads) if (w.kind === 'DaemonSet') yield daemonSetObject(w);
  yield kubernetesService();
  let services = 0;
  for (const w of workloads) {
    if (w.kind === 'Deployment' || w.kind === 'StatefulSet') yield serviceObject(w, ++services);
  }
  const volumes = workloads.flatMap((w) => (w.kind === 'StatefulSet' ? w.pods.map((pod) => ({ w, pod })) : []));
  for (const { w, pod } of volumes) yield claimObject(w, pod);
  for (const { w, pod } of volumes) if (pod.node) yield volumeObject(w, pod, pod.node);
  yield storageClassObject();
  const gpus = gpuLayout(nodes, workloads);
  for (const { w, pod, device } of gpus.claims) yield resourceClaimObject(w, pod, device);
  for (const [i, namespace] of gpus.namespaces.entries()) yield claimTemplateObject(namespace, i);
  yield deviceClassObject();
  for (const [node, count] of gpus.devicesPerNode) yield resourceSliceObject(node, count);
}

// ---------------------------------------------------------------------------------------------------
// DRA: GPUs on the high-memory pool

const GPU_DRIVER = 'gpu.nvidia.com';
/** Each high-memory node publishes at least this many GPUs (twice as many as its pods claim, when more). */
const GPUS_PER_NODE = 16;

/** A high-memory Deployment claims one GPU per pod (through a ResourceClaimTemplate) one time in three. */
const claimsGpu = (w: WorkloadModel) =>
  w.kind === 'Deployment' && w.pool === 'highmem' && w.uid.charCodeAt(0) % 3 === 0;

interface GpuLayout {
  /** Each placed GPU pod's claim and the device (`gpu-<n>` of its node) it was allocated. */
  readonly claims: ReadonlyArray<{ w: WorkloadModel; pod: PodModel; device: number }>;
  readonly namespaces: readonly string[];
  readonly devicesPerNode: ReadonlyMap<NodeModel, number>;
}

function gpuLayout(nodes: readonly NodeModel[], workloads: readonly WorkloadModel[]): GpuLayout {
  const used = new Map<NodeModel, number>();
  const claims: Array<{ w: WorkloadModel; pod: PodModel; device: number }> = [];
  const namespaces = new Set<string>();
  for (const w of workloads.filter(claimsGpu)) {
    namespaces.add(w.namespace);
    for (const pod of w.pods) {
      if (!pod.node) continue;
      const device = used.get(pod.node) ?? 0;
      used.set(pod.node, device + 1);
      claims.push({ w, pod, device });
    }
  }
  const devicesPerNode = new Map<NodeModel, number>();
  for (const node of nodes) {
    // Half the node's GPUs free, as a pool sized for a node's loss: a drained node's GPU pods fit elsewhere.
    if (node.pool === 'highmem') devicesPerNode.set(node, Math.max(GPUS_PER_NODE, 2 * (used.get(node) ?? 0)));
  }
  return { claims, namespaces: [...namespaces].sort(), devicesPerNode };
}

/** The claim the resourceclaim controller made from the template for the pod, allocated by the scheduler. */
function resourceClaimObject(w: WorkloadModel, pod: PodModel, device: number): ApiObject {
  const node = pod.node!;
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: {
      annotations: { 'resource.kubernetes.io/pod-claim-name': 'gpu' },
      creationTimestamp: timestamp(pod.created),
      finalizers: ['resource.kubernetes.io/delete-protection'],
      name: gpuClaimName(pod),
      namespace: w.namespace,
      ownerReferences: [
        { apiVersion: 'v1', blockOwnerDeletion: true, controller: true, kind: 'Pod', name: pod.name, uid: pod.uid },
      ],
      resourceVersion: String(6_000_000 + pod.created),
      uid: `${pod.uid.slice(0, -4)}d7a1`,
    },
    spec: gpuClaimSpec(),
    status: {
      allocation: {
        devices: { results: [{ device: `gpu-${device}`, driver: GPU_DRIVER, pool: node.name, request: 'gpu' }] },
        nodeSelector: {
          nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node.name] }] }],
        },
      },
      reservedFor: [{ name: pod.name, resource: 'pods', uid: pod.uid }],
    },
  };
}

const gpuClaimName = (pod: PodModel) => `${pod.name}-gpu-${pod.uid.slice(0, 5)}`;

function gpuClaimSpec(): Record<string, unknown> {
  const selectors = [
    { cel: { expression: `device.capacity["${GPU_DRIVER}"].memory.compareTo(quantity("40Gi")) >= 0` } },
  ];
  return {
    devices: {
      requests: [
        { exactly: { allocationMode: 'ExactCount', count: 1, deviceClassName: GPU_DRIVER, selectors }, name: 'gpu' },
      ],
    },
  };
}

function claimTemplateObject(namespace: string, n: number): ApiObject {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaimTemplate',
    metadata: {
      creationTimestamp: timestamp(86_400),
      name: 'gpu',
      namespace,
      resourceVersion: '7000',
      uid: `7e000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    },
    spec: { spec: gpuClaimSpec() },
  };
}

function deviceClassObject(): ApiObject {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'DeviceClass',
    metadata: {
      creationTimestamp: timestamp(0),
      name: GPU_DRIVER,
      resourceVersion: '1001',
      uid: '5c000000-0000-4000-8000-000000000002',
    },
    spec: { selectors: [{ cel: { expression: `device.driver == "${GPU_DRIVER}"` } }] },
  };
}

/** What the GPU driver's kubelet plugin publishes for its node: one pool, one slice. */
function resourceSliceObject(node: NodeModel, count: number): ApiObject {
  const devices = Array.from({ length: count }, (_, i) => ({
    attributes: {
      index: { int: i },
      productName: { string: 'NVIDIA A100-SXM4-80GB' },
      uuid: { string: `GPU-${node.uid.slice(0, 8)}-${i.toString().padStart(4, '0')}` },
      driverVersion: { version: '580.65.6' },
    },
    capacity: { memory: { value: '80Gi' } },
    name: `gpu-${i}`,
  }));
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceSlice',
    metadata: {
      creationTimestamp: timestamp(node.created),
      generateName: `${node.name}-${GPU_DRIVER}-`,
      name: `${node.name}-${GPU_DRIVER}-${node.uid.slice(0, 5)}`,
      ownerReferences: [{ apiVersion: 'v1', controller: true, kind: 'Node', name: node.name, uid: node.uid }],
      resourceVersion: String(8_000_000 + node.index),
      uid: `${node.uid.slice(0, -4)}5e1c`,
    },
    spec: {
      devices,
      driver: GPU_DRIVER,
      nodeName: node.name,
      pool: { generation: 1, name: node.name, resourceSliceCount: 1 },
    },
  };
}

export interface ApiList {
  readonly apiVersion: 'v1';
  readonly items: ApiObject[];
  readonly kind: 'List';
  readonly metadata: { readonly resourceVersion: string };
}

/** The whole List in memory: for tests and small clusters (at full scale, write it with writeSyntheticCluster). */
export function syntheticClusterList(options: SyntheticClusterOptions): ApiList {
  return {
    apiVersion: 'v1',
    items: [...syntheticClusterItems(options)],
    kind: 'List',
    metadata: { resourceVersion: '' },
  };
}

export interface WrittenCluster {
  readonly bytes: number;
  /** Objects written, per kind. */
  readonly counts: Readonly<Record<string, number>>;
  /** Byte offsets of each item of the List, [start, end) pairs: lets a baseline parse the items without finding them. */
  readonly itemRanges: readonly number[];
}

/** The List around the items, in the two forms a reader meets: kubectl's indented one and a compact one. */
const LAYOUTS = {
  pretty: {
    head: '{\n    "apiVersion": "v1",\n    "items": [\n',
    tail: '\n    ],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n',
    first: '        ',
    separator: ',\n        ',
    item: (item: ApiObject) => JSON.stringify(item, null, 4).replaceAll('\n', '\n        '),
  },
  compact: {
    head: '{"apiVersion":"v1","items":[',
    tail: '],"kind":"List","metadata":{"resourceVersion":""}}\n',
    first: '',
    separator: ',',
    item: (item: ApiObject) => JSON.stringify(item),
  },
} as const;

export type ListLayout = keyof typeof LAYOUTS;

/**
 * Writes the List as `kubectl get … -o json` prints it (json.MarshalIndent with four spaces), or compact
 * (one line, as `jq -c`, an API client or `kubectl get --raw` gives it), streaming: one item is serialised
 * at a time, so the file may exceed what one JavaScript string can hold.
 */
export async function writeSyntheticCluster(
  path: string,
  options: SyntheticClusterOptions,
  layout: ListLayout = 'pretty',
): Promise<WrittenCluster> {
  const form = LAYOUTS[layout];
  const file = await open(path, 'w');
  const counts: Record<string, number> = {};
  const itemRanges: number[] = [];
  let chunk: string = form.head;
  let bytes = Buffer.byteLength(chunk);
  try {
    for (const item of syntheticClusterItems(options)) {
      counts[item.kind] = (counts[item.kind] ?? 0) + 1;
      const separator = itemRanges.length === 0 ? form.first : form.separator;
      const text = form.item(item);
      const start = bytes + Buffer.byteLength(separator);
      bytes = start + Buffer.byteLength(text);
      itemRanges.push(start, bytes);
      chunk += separator + text;
      if (chunk.length > 4_000_000) {
        await file.write(chunk);
        chunk = '';
      }
    }
    chunk += form.tail;
    bytes += Buffer.byteLength(form.tail);
    await file.write(chunk);
  } finally {
    await file.close();
  }
  return { bytes, counts, itemRanges };
}

function nodeObject(n: NodeModel): ApiObject {
  const ip = nodeIp(n);
  const allocatable = {
    cpu: `${n.cpuMillis}m`,
    'ephemeral-storage': '95491281146',
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: `${n.memoryKi}Ki`,
    pods: String(n.maxPods),
  };
  const capacity = {
    ...allocatable,
    cpu: String(Math.ceil(n.cpuMillis / 1000)),
    'ephemeral-storage': '104845292Ki',
    memory: `${n.memoryKi + 1_048_576}Ki`,
  };
  const taints = n.pool === 'control-plane' ? [CONTROL_PLANE_TAINT] : n.pool === 'highmem' ? [HIGHMEM_TAINT] : [];
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      annotations: {
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
      creationTimestamp: timestamp(n.created),
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/instance-type': n.instanceType,
        'beta.kubernetes.io/os': 'linux',
        'failure-domain.beta.kubernetes.io/region': REGION,
        'failure-domain.beta.kubernetes.io/zone': n.zone,
        'kubernetes.io/arch': 'amd64',
        [HOSTNAME_LABEL]: n.name,
        'kubernetes.io/os': 'linux',
        [POOL_LABEL]: n.pool,
        ...(n.pool === 'control-plane' ? { 'node-role.kubernetes.io/control-plane': '' } : {}),
        'node.kubernetes.io/instance-type': n.instanceType,
        'topology.kubernetes.io/region': REGION,
        [ZONE_LABEL]: n.zone,
      },
      name: n.name,
      resourceVersion: String(1_000_000 + n.index * 7),
      uid: n.uid,
    },
    spec: {
      podCIDR: `100.${64 + (n.index >> 8)}.${n.index & 255}.0/24`,
      podCIDRs: [`100.${64 + (n.index >> 8)}.${n.index & 255}.0/24`],
      providerID: `aws:///${n.zone}/i-0${n.uid.replaceAll('-', '').slice(0, 16)}`,
      ...(taints.length > 0 ? { taints } : {}),
    },
    status: {
      addresses: [
        { address: ip, type: 'InternalIP' },
        { address: n.name, type: 'InternalDNS' },
        { address: n.name, type: 'Hostname' },
      ],
      allocatable,
      capacity,
      conditions: [
        ['MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
        ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
        ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
        ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
      ].map(([type, status, reason, message]) => ({
        lastHeartbeatTime: timestamp(86_400 * 40),
        lastTransitionTime: timestamp(n.created + 30),
        message,
        reason,
        status,
        type,
      })),
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        architecture: 'amd64',
        bootID: n.uid,
        containerRuntimeVersion: 'containerd://2.2.1',
        kernelVersion: '6.12.40-63.114.amzn2023.x86_64',
        kubeProxyVersion: '',
        kubeletVersion: 'v1.37.2',
        machineID: n.uid.replaceAll('-', ''),
        operatingSystem: 'linux',
        osImage: 'Amazon Linux 2023.9.20260301',
        systemUUID: n.uid,
      },
    },
  };
}

/** Labels of a workload's pods: what its selector matches, plus the controller's own labels. */
function podLabels(w: WorkloadModel, pod: PodModel): Record<string, string> {
  const app = { 'app.kubernetes.io/name': w.name, 'app.kubernetes.io/part-of': w.namespace };
  switch (w.kind) {
    case 'Deployment':
      return { ...app, 'pod-template-hash': w.hash };
    case 'StatefulSet':
      return {
        ...app,
        'apps.kubernetes.io/pod-index': String(pod.ordinal),
        'controller-revision-hash': `${w.name}-${w.hash}`,
        'statefulset.kubernetes.io/pod-name': pod.name,
      };
    case 'DaemonSet':
      return { 'controller-revision-hash': w.hash, 'k8s-app': w.name, 'pod-template-generation': '1' };
    case 'Static':
      return { component: STATIC_PODS[pod.ordinal]!, tier: 'control-plane' };
    case 'Bare':
      return { run: w.name };
  }
}

const selectorOf = (w: WorkloadModel): Record<string, string> =>
  w.kind === 'DaemonSet' ? { 'k8s-app': w.name } : { 'app.kubernetes.io/name': w.name };

/** The pod template's spec, as the workload's manifest sets it (the API's defaults included). */
function templateSpec(w: WorkloadModel): Record<string, unknown> {
  const hostNetwork = w.kind === 'DaemonSet' || w.kind === 'Static';
  const selector = { matchLabels: selectorOf(w) };
  return {
    ...affinityOf(w, selector),
    containers: [
      {
        image: w.image,
        imagePullPolicy: 'IfNotPresent',
        name: w.kind === 'Static' ? 'main' : w.name,
        ports: hostNetwork ? [] : [{ containerPort: 8080, name: 'http', protocol: 'TCP' }],
        ...(hostNetwork
          ? {}
          : {
              readinessProbe: {
                failureThreshold: 3,
                httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' },
                periodSeconds: 10,
                successThreshold: 1,
                timeoutSeconds: 1,
              },
            }),
        resources: {
          ...(claimsGpu(w) ? { claims: [{ name: 'gpu' }] } : {}),
          limits: { memory: w.memory },
          requests: { cpu: w.cpu, memory: w.memory },
        },
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        ...(w.emptyDir ? { volumeMounts: [{ mountPath: '/tmp/cache', name: 'cache' }] } : {}),
      },
    ],
    dnsPolicy: hostNetwork ? 'ClusterFirstWithHostNet' : 'ClusterFirst',
    ...(hostNetwork ? { hostNetwork: true } : {}),
    ...(w.pool === 'highmem' ? { nodeSelector: { [POOL_LABEL]: 'highmem' } } : {}),
    ...(hostNetwork ? { priorityClassName: 'system-node-critical' } : {}),
    restartPolicy: 'Always',
    schedulerName: 'default-scheduler',
    securityContext: {},
    terminationGracePeriodSeconds: 30,
    ...(w.kind === 'DaemonSet' ? { tolerations: [{ operator: 'Exists' }] } : {}),
    ...(w.pool === 'highmem' ? { tolerations: [{ ...HIGHMEM_TAINT, operator: 'Equal' }] } : {}),
    ...spreadOf(w, selector),
    ...(claimsGpu(w) ? { resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 'gpu' }] } : {}),
    ...(w.emptyDir ? { volumes: [{ emptyDir: { sizeLimit: '1Gi' }, name: 'cache' }] } : {}),
  };
}

function affinityOf(w: WorkloadModel, labelSelector: object): Record<string, unknown> {
  const term = { labelSelector, topologyKey: HOSTNAME_LABEL };
  if (w.shape === 'required-anti-affinity') {
    return { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } } };
  }
  if (w.shape === 'preferred-anti-affinity') {
    const preferred = [{ podAffinityTerm: term, weight: 100 }];
    return { affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: preferred } } };
  }
  return {};
}

/** Zone spread (DoNotSchedule, per revision) with a soft hostname spread; or a hard hostname spread. */
function spreadOf(w: WorkloadModel, labelSelector: object): Record<string, unknown> {
  const policy = w.honorTaints ? { nodeTaintsPolicy: 'Honor' } : {};
  const matchLabelKeys = w.kind === 'Deployment' ? { matchLabelKeys: ['pod-template-hash'] } : {};
  if (w.shape === 'zone-spread') {
    const zone = {
      labelSelector,
      ...matchLabelKeys,
      maxSkew: 1,
      ...(w.minDomains ? { minDomains: w.minDomains } : {}),
    };
    const host = { labelSelector, ...matchLabelKeys, maxSkew: 2, topologyKey: HOSTNAME_LABEL };
    return {
      topologySpreadConstraints: [
        { ...zone, ...policy, topologyKey: ZONE_LABEL, whenUnsatisfiable: 'DoNotSchedule' },
        { ...host, whenUnsatisfiable: 'ScheduleAnyway' },
      ],
    };
  }
  if (w.shape === 'host-spread') {
    const host = { labelSelector, ...matchLabelKeys, maxSkew: 1, ...policy, topologyKey: HOSTNAME_LABEL };
    return { topologySpreadConstraints: [{ ...host, whenUnsatisfiable: 'DoNotSchedule' }] };
  }
  return {};
}

/** The template's spec as admission completes it on the pod: service account token, default tolerations, node. */
function podSpec(w: WorkloadModel, pod: PodModel): Record<string, unknown> {
  const spec = templateSpec(w);
  const token = `kube-api-access-${pod.uid.slice(0, 5)}`;
  const [container] = spec['containers'] as Array<Record<string, unknown>>;
  const mounts = [
    ...((container!['volumeMounts'] as object[] | undefined) ?? []),
    ...(w.kind === 'StatefulSet' ? [{ mountPath: '/data', name: 'data' }] : []),
    { mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', name: token, readOnly: true },
  ];
  const defaultTolerations = ['not-ready', 'unreachable'].map((key) => ({
    effect: 'NoExecute',
    key: `node.kubernetes.io/${key}`,
    operator: 'Exists',
    tolerationSeconds: 300,
  }));
  const critical = w.kind === 'DaemonSet' || w.kind === 'Static';
  return {
    ...spec,
    containers: [{ ...container, volumeMounts: mounts }],
    enableServiceLinks: true,
    ...(pod.node ? { nodeName: pod.node.name } : {}),
    preemptionPolicy: 'PreemptLowerPriority',
    priority: critical ? 2_000_001_000 : 0,
    serviceAccount: 'default',
    serviceAccountName: 'default',
    tolerations: [...((spec['tolerations'] as object[] | undefined) ?? []), ...(critical ? [] : defaultTolerations)],
    volumes: [
      ...((spec['volumes'] as object[] | undefined) ?? []),
      ...(w.kind === 'StatefulSet' ? [{ name: 'data', persistentVolumeClaim: { claimName: `data-${pod.name}` } }] : []),
      serviceAccountVolume(token),
    ],
  };
}

function serviceAccountVolume(name: string): object {
  return {
    name,
    projected: {
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: 'kube-root-ca.crt' } },
        {
          downwardAPI: {
            items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' }],
          },
        },
      ],
    },
  };
}

function ownerReferences(w: WorkloadModel, pod: PodModel): object[] {
  const ref = (apiVersion: string, kind: string, name: string, uid: string) => ({
    apiVersion,
    blockOwnerDeletion: true,
    controller: true,
    kind,
    name,
    uid,
  });
  switch (w.kind) {
    case 'Deployment':
      return [ref('apps/v1', 'ReplicaSet', `${w.name}-${w.hash}`, w.replicaSetUid)];
    case 'StatefulSet':
    case 'DaemonSet':
      return [ref('apps/v1', w.kind, w.name, w.uid)];
    case 'Static':
      return [{ apiVersion: 'v1', controller: true, kind: 'Node', name: pod.node!.name, uid: pod.node!.uid }];
    case 'Bare':
      return [];
  }
}

function podObject(w: WorkloadModel, pod: PodModel, nodeCount: number): ApiObject {
  const owners = ownerReferences(w, pod);
  const mirror =
    w.kind === 'Static'
      ? {
          annotations: {
            'kubernetes.io/config.hash': pod.uid.replaceAll('-', ''),
            'kubernetes.io/config.mirror': pod.uid.replaceAll('-', ''),
            'kubernetes.io/config.source': 'file',
          },
        }
      : {};
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...mirror,
      creationTimestamp: timestamp(pod.created),
      ...(w.kind === 'Deployment' || w.kind === 'DaemonSet' ? { generateName: pod.name.slice(0, -5) } : {}),
      labels: podLabels(w, pod),
      name: pod.name,
      namespace: w.namespace,
      ...(owners.length > 0 ? { ownerReferences: owners } : {}),
      resourceVersion: String(2_000_000 + pod.created),
      uid: pod.uid,
    },
    spec: podSpec(w, pod),
    status: pod.node ? runningStatus(w, pod) : pendingStatus(pod, nodeCount),
  };
}

/** A running GPU pod's status names the claim made for it (`resourceClaimStatuses`). */
function claimStatuses(w: WorkloadModel, pod: PodModel): Record<string, unknown> {
  return claimsGpu(w) ? { resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: gpuClaimName(pod) }] } : {};
}

function runningStatus(w: WorkloadModel, pod: PodModel): Record<string, unknown> {
  const started = timestamp(pod.created + 5);
  const ready = pod.ready ? 'True' : 'False';
  const condition = (type: string, status: string, at: number) => ({
    lastProbeTime: null,
    lastTransitionTime: timestamp(pod.created + at),
    ...(status === 'False'
      ? { message: `containers with unready status: [${w.name}]`, reason: 'ContainersNotReady' }
      : {}),
    status,
    type,
  });
  const state = pod.ready
    ? { running: { startedAt: started } }
    : { waiting: { message: 'back-off 5m0s restarting failed container', reason: 'CrashLoopBackOff' } };
  return {
    conditions: [
      condition('PodReadyToStartContainers', 'True', 4),
      condition('Initialized', 'True', 1),
      condition('Ready', ready, 12),
      condition('ContainersReady', ready, 12),
      condition('PodScheduled', 'True', 0),
    ],
    containerStatuses: [
      {
        containerID: `containerd://${pod.containerId}`,
        image: w.image,
        imageID: `${w.image.split(':')[0]}@sha256:${w.imageDigest}`,
        lastState: pod.ready ? {} : { terminated: { exitCode: 1, reason: 'Error' } },
        name: w.kind === 'Static' ? 'main' : w.name,
        ready: pod.ready,
        restartCount: pod.ready ? 0 : 17,
        started: pod.ready,
        state,
      },
    ],
    hostIP: nodeIp(pod.node!),
    hostIPs: [{ ip: nodeIp(pod.node!) }],
    phase: 'Running',
    podIP: pod.ip,
    podIPs: [{ ip: pod.ip }],
    qosClass: 'Burstable',
    ...claimStatuses(w, pod),
    startTime: timestamp(pod.created + 1),
  };
}

/** A pod no node had room for, as the scheduler leaves it. */
function pendingStatus(pod: PodModel, nodeCount: number): Record<string, unknown> {
  return {
    conditions: [
      {
        lastProbeTime: null,
        lastTransitionTime: timestamp(pod.created),
        message: `0/${nodeCount} nodes are available: ${nodeCount} Insufficient cpu.`,
        reason: 'Unschedulable',
        status: 'False',
        type: 'PodScheduled',
      },
    ],
    phase: 'Pending',
    qosClass: 'Burstable',
  };
}

/** Metadata of a workload object (Deployment, ReplicaSet, StatefulSet, DaemonSet, PDB; Service has no generation). */
function objectMeta(w: WorkloadModel, name = w.name, uid = w.uid, generation = true): Record<string, unknown> {
  return {
    creationTimestamp: timestamp(w.created),
    ...(generation ? { generation: 1 } : {}),
    labels: selectorOf(w),
    name,
    namespace: w.namespace,
    resourceVersion: String(3_000_000 + w.created),
    uid,
  };
}

/** The disruption controller's status: expected pods, desired and current healthy, disruptions allowed. */
function budgetObject(w: WorkloadModel, budget: BudgetSpec): ApiObject {
  const expected = w.replicas;
  const healthy = w.pods.filter((p) => p.ready).length;
  const scaled = (v: number | string) => (typeof v === 'number' ? v : Math.ceil((parseInt(v, 10) * expected) / 100));
  const desired =
    'maxUnavailable' in budget ? Math.max(0, expected - scaled(budget.maxUnavailable)) : scaled(budget.minAvailable);
  const allowed = Math.max(0, healthy - desired);
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: objectMeta(w, w.name, w.budgetUid),
    spec: {
      ...budget,
      selector: { matchLabels: selectorOf(w) },
      ...(w.alwaysAllowUnhealthy ? { unhealthyPodEvictionPolicy: 'AlwaysAllow' } : {}),
    },
    status: {
      conditions: [
        {
          lastTransitionTime: timestamp(w.created + 30),
          message: '',
          observedGeneration: 1,
          reason: allowed > 0 ? 'SufficientPods' : 'InsufficientPods',
          status: allowed > 0 ? 'True' : 'False',
          type: 'DisruptionAllowed',
        },
      ],
      currentHealthy: healthy,
      desiredHealthy: desired,
      disruptionsAllowed: allowed,
      expectedPods: expected,
      observedGeneration: 1,
    },
  };
}

function podTemplate(w: WorkloadModel, labels: Record<string, string>): object {
  return { metadata: { labels }, spec: templateSpec(w) };
}

function replicaStatus(w: WorkloadModel): Record<string, number> {
  const ready = w.pods.filter((p) => p.ready).length;
  return { availableReplicas: ready, observedGeneration: 1, readyReplicas: ready, replicas: w.replicas };
}

function* replicaSetObjects(w: WorkloadModel): Generator<ApiObject> {
  const revisions = [
    ...(w.oldReplicaSet ? [{ ...w.oldReplicaSet, revision: 1, replicas: 0 }] : []),
    { hash: w.hash, uid: w.replicaSetUid, revision: w.oldReplicaSet ? 2 : 1, replicas: w.replicas },
  ];
  for (const rs of revisions) {
    const labels = { ...selectorOf(w), 'pod-template-hash': rs.hash };
    yield {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        ...objectMeta(w, `${w.name}-${rs.hash}`, rs.uid),
        annotations: {
          'deployment.kubernetes.io/desired-replicas': String(w.replicas),
          'deployment.kubernetes.io/max-replicas': String(w.replicas + Math.ceil(w.replicas / 4)),
          'deployment.kubernetes.io/revision': String(rs.revision),
        },
        labels,
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            blockOwnerDeletion: true,
            controller: true,
            kind: 'Deployment',
            name: w.name,
            uid: w.uid,
          },
        ],
      },
      spec: {
        replicas: rs.replicas,
        selector: { matchLabels: labels },
        template: podTemplate(w, { ...podLabels(w, w.pods[0]!), 'pod-template-hash': rs.hash }),
      },
      status:
        rs.replicas === 0
          ? { observedGeneration: 1, replicas: 0 }
          : { ...replicaStatus(w), fullyLabeledReplicas: w.replicas },
    };
  }
}

function deploymentObject(w: WorkloadModel): ApiObject {
  const status = replicaStatus(w);
  const available = status['availableReplicas'] === w.replicas;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { ...objectMeta(w), annotations: { 'deployment.kubernetes.io/revision': w.oldReplicaSet ? '2' : '1' } },
    spec: {
      progressDeadlineSeconds: 600,
      replicas: w.replicas,
      revisionHistoryLimit: 10,
      selector: { matchLabels: selectorOf(w) },
      strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' }, type: 'RollingUpdate' },
      template: podTemplate(w, { 'app.kubernetes.io/name': w.name, 'app.kubernetes.io/part-of': w.namespace }),
    },
    status: {
      ...status,
      conditions: [
        {
          lastTransitionTime: timestamp(w.created + 40),
          lastUpdateTime: timestamp(w.created + 40),
          message: available
            ? 'Deployment has minimum availability.'
            : 'Deployment does not have minimum availability.',
          reason: available ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable',
          status: available ? 'True' : 'False',
          type: 'Available',
        },
        {
          lastTransitionTime: timestamp(w.created),
          lastUpdateTime: timestamp(w.created + 40),
          message: `ReplicaSet "${w.name}-${w.hash}" has successfully progressed.`,
          reason: 'NewReplicaSetAvailable',
          status: 'True',
          type: 'Progressing',
        },
      ],
      updatedReplicas: w.replicas,
    },
  };
}

function statefulSetObject(w: WorkloadModel): ApiObject {
  const template = podTemplate(w, { 'app.kubernetes.io/name': w.name, 'app.kubernetes.io/part-of': w.namespace });
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: objectMeta(w),
    spec: {
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      podManagementPolicy: 'OrderedReady',
      replicas: w.replicas,
      revisionHistoryLimit: 10,
      selector: { matchLabels: selectorOf(w) },
      serviceName: w.name,
      template,
      updateStrategy: { rollingUpdate: { partition: 0 }, type: 'RollingUpdate' },
      volumeClaimTemplates: [
        {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          metadata: { name: 'data' },
          spec: {
            accessModes: ['ReadWriteOnce'],
            resources: { requests: { storage: '20Gi' } },
            volumeMode: 'Filesystem',
          },
          status: { phase: 'Pending' },
        },
      ],
    },
    status: {
      ...replicaStatus(w),
      collisionCount: 0,
      currentReplicas: w.replicas,
      currentRevision: `${w.name}-${w.hash}`,
      updateRevision: `${w.name}-${w.hash}`,
      updatedReplicas: w.replicas,
    },
  };
}

function daemonSetObject(w: WorkloadModel): ApiObject {
  const ready = w.pods.filter((p) => p.ready).length;
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { ...objectMeta(w), annotations: { 'deprecated.daemonset.template.generation': '1' } },
    spec: {
      revisionHistoryLimit: 10,
      selector: { matchLabels: selectorOf(w) },
      template: podTemplate(w, selectorOf(w)),
      updateStrategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 1 }, type: 'RollingUpdate' },
    },
    status: {
      currentNumberScheduled: w.replicas,
      desiredNumberScheduled: w.replicas,
      numberAvailable: ready,
      numberMisscheduled: 0,
      numberReady: ready,
      numberUnavailable: w.replicas - ready,
      observedGeneration: 1,
      updatedNumberScheduled: w.replicas,
    },
  };
}

/** The n-th service: its ClusterIP comes from the service range in creation order. */
function serviceObject(w: WorkloadModel, n: number): ApiObject {
  const headless = w.kind === 'StatefulSet';
  const clusterIP = headless ? 'None' : `172.20.${(n >> 8) & 255}.${n & 255}`;
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: objectMeta(w, w.name, w.serviceUid, false),
    spec: {
      clusterIP,
      clusterIPs: [clusterIP],
      internalTrafficPolicy: 'Cluster',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 'http' }],
      selector: selectorOf(w),
      sessionAffinity: 'None',
      type: 'ClusterIP',
    },
    status: { loadBalancer: {} },
  };
}

/**
 * A StatefulSet pod's claim (`data-<pod>`, from its volumeClaimTemplate): bound, by the PV controller, to
 * a zonal EBS volume; a pod that is Pending has a claim still waiting for its first consumer.
 */
function claimObject(w: WorkloadModel, pod: PodModel): ApiObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      ...(pod.node ? { annotations: { 'pv.kubernetes.io/bind-completed': 'yes' } } : {}),
      creationTimestamp: timestamp(pod.created),
      labels: selectorOf(w),
      name: `data-${pod.name}`,
      namespace: w.namespace,
      resourceVersion: String(4_000_000 + pod.created),
      uid: `${pod.uid.slice(0, -4)}c1a1`,
    },
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '10Gi' } },
      storageClassName: STORAGE_CLASS,
      volumeMode: 'Filesystem',
      ...(pod.node ? { volumeName: volumeName(pod) } : {}),
    },
    status: pod.node
      ? { accessModes: ['ReadWriteOnce'], capacity: { storage: '10Gi' }, phase: 'Bound' }
      : { phase: 'Pending' },
  };
}

/** The zonal volume a StatefulSet pod's claim is bound to: any node of its node's zone may attach it. */
function volumeObject(w: WorkloadModel, pod: PodModel, node: NodeModel): ApiObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: {
      creationTimestamp: timestamp(pod.created),
      labels: { [ZONE_LABEL]: node.zone },
      name: volumeName(pod),
      resourceVersion: String(5_000_000 + pod.created),
      uid: `${pod.uid.slice(0, -4)}f0a1`,
    },
    spec: {
      accessModes: ['ReadWriteOnce'],
      capacity: { storage: '10Gi' },
      claimRef: { kind: 'PersistentVolumeClaim', name: `data-${pod.name}`, namespace: w.namespace },
      csi: { driver: EBS_DRIVER, fsType: 'ext4', volumeHandle: `vol-${pod.uid.replaceAll('-', '').slice(0, 17)}` },
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: ZONE_LABEL, operator: 'In', values: [node.zone] }] }],
        },
      },
      persistentVolumeReclaimPolicy: 'Delete',
      storageClassName: STORAGE_CLASS,
      volumeMode: 'Filesystem',
    },
    status: { phase: 'Bound' },
  };
}

const STORAGE_CLASS = 'gp3';
const EBS_DRIVER = 'ebs.csi.aws.com';
const volumeName = (pod: PodModel) => `pvc-${pod.uid}`;

function storageClassObject(): ApiObject {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: {
      annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' },
      creationTimestamp: timestamp(0),
      name: STORAGE_CLASS,
      resourceVersion: '1000',
      uid: '5c000000-0000-4000-8000-000000000001',
    },
    allowVolumeExpansion: true,
    parameters: { type: 'gp3' },
    provisioner: EBS_DRIVER,
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'WaitForFirstConsumer',
  };
}

function kubernetesService(): ApiObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      creationTimestamp: timestamp(0),
      labels: { component: 'apiserver', provider: 'kubernetes' },
      name: 'kubernetes',
      namespace: 'default',
      resourceVersion: '191',
      uid: '0c5b8e8e-1f0e-4c55-9a59-6c1f3a0d2b11',
    },
    spec: {
      clusterIP: '172.20.0.1',
      clusterIPs: ['172.20.0.1'],
      internalTrafficPolicy: 'Cluster',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }],
      sessionAffinity: 'None',
      type: 'ClusterIP',
    },
    status: { loadBalancer: {} },
  };
}
