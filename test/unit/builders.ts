/**
 * Fluent fixture builders shaped like kube-scheduler's `st.MakePod()` wrappers
 * (pkg/scheduler/testing/wrappers.go): start from a minimal valid object, chain what the case is about,
 * finish with `.obj()`. Shared by every unit test that needs cluster objects.
 *
 *   makePod().name('hello-1').ns('demo').node('k8s-node-1').label('app', 'hello')
 *     .owner('ReplicaSet', 'hello-abc').requests('100m', '64Mi').obj()
 *   makeNode().name('k8s-node-1').allocatable('2', '3377252Ki', '110').obj()
 *   makePdb().name('hello').ns('demo').selector({ app: 'hello' }).maxUnavailable(1).status({ ... }).obj()
 *   makeSnapshot({ nodes, pods, pdbs, replicaSets, deployments })
 *
 * Defaults: namespace `default`, phase Running with a Ready condition, uid `uid-<ns>-<name>` (so tests
 * can predict it), every kind of the snapshot marked as loaded unless `kinds` says otherwise.
 */
import type {
  V1Affinity,
  V1Container,
  V1DaemonSet,
  V1Deployment,
  V1Job,
  V1LabelSelector,
  V1Node,
  V1NodeCondition,
  V1OwnerReference,
  V1Pod,
  V1PodCondition,
  V1PodDisruptionBudget,
  V1ReplicaSet,
  V1ReplicationController,
  V1StatefulSet,
  V1Taint,
  V1Toleration,
  V1TopologySpreadConstraint,
  V1Volume,
} from '@kubernetes/client-node';
import { ClusterIndex } from '../../src/snapshot/cluster-index.js';
import { SNAPSHOT_KINDS, type Snapshot, type SnapshotKind } from '../../src/snapshot/types.js';

type IntOrString = number | string;

/** The apiVersion of each controller kind, as the API writes it in ownerReferences. */
const OWNER_API_VERSION: Readonly<Record<string, string>> = {
  ReplicaSet: 'apps/v1',
  Deployment: 'apps/v1',
  StatefulSet: 'apps/v1',
  DaemonSet: 'apps/v1',
  ReplicationController: 'v1',
  Job: 'batch/v1',
  Node: 'v1',
};

const uidFor = (kind: string, namespace: string, name: string) => `uid-${kind.toLowerCase()}-${namespace}-${name}`;

export interface OwnerOptions {
  /** Defaults to true (the controller reference); false adds a plain owner. */
  readonly controller?: boolean;
  /** Defaults to the kind's usual apiVersion (apps/v1, v1, batch/v1). */
  readonly apiVersion?: string;
  readonly uid?: string;
}

function ownerRef(kind: string, name: string, namespace: string | undefined, options: OwnerOptions): V1OwnerReference {
  return {
    apiVersion: options.apiVersion ?? OWNER_API_VERSION[kind] ?? 'v1',
    kind,
    name,
    uid: options.uid ?? uidFor(kind, namespace ?? 'default', name),
    ...(options.controller === false ? {} : { controller: true, blockOwnerDeletion: true }),
  };
}

interface BuiltMeta {
  name?: string;
  namespace?: string;
  uid?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: V1OwnerReference[];
}

/** Metadata setters every builder shares; `obj()` returns a deep copy with a predictable uid. */
abstract class ObjectBuilder<T extends { kind?: string; metadata?: BuiltMeta }> {
  protected constructor(protected readonly o: T) {}

  protected get meta(): BuiltMeta {
    return (this.o.metadata ??= {});
  }
  name(name: string): this {
    this.meta.name = name;
    return this;
  }
  ns(namespace: string): this {
    this.meta.namespace = namespace;
    return this;
  }
  uid(uid: string): this {
    this.meta.uid = uid;
    return this;
  }
  label(key: string, value: string): this {
    this.meta.labels = { ...this.meta.labels, [key]: value };
    return this;
  }
  labels(labels: Readonly<Record<string, string>>): this {
    this.meta.labels = { ...this.meta.labels, ...labels };
    return this;
  }
  annotation(key: string, value: string): this {
    this.meta.annotations = { ...this.meta.annotations, [key]: value };
    return this;
  }
  owner(kind: string, name: string, options: OwnerOptions = {}): this {
    this.meta.ownerReferences = [
      ...(this.meta.ownerReferences ?? []),
      ownerRef(kind, name, this.meta.namespace, options),
    ];
    return this;
  }
  obj(): T {
    const out = structuredClone(this.o);
    const meta = out.metadata!;
    meta.uid ??= uidFor(out.kind ?? '', meta.namespace ?? '', meta.name ?? '');
    return out;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Pod

export class PodBuilder extends ObjectBuilder<V1Pod> {
  constructor() {
    super({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'pod', namespace: 'default', labels: {} },
      spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10' }] },
      status: { phase: 'Running', conditions: [readyCondition(true)] },
    });
  }

  private get spec() {
    return this.o.spec!;
  }
  private get status() {
    return this.o.status!;
  }

  /** spec.nodeName: the pod is bound to this node. */
  node(nodeName: string): this {
    this.spec.nodeName = nodeName;
    return this;
  }
  /** A static pod's mirror on the API server (kubectl drain's mirrorPodFilter). */
  mirror(): this {
    return this.annotation('kubernetes.io/config.mirror', 'mirror-hash');
  }
  phase(phase: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown'): this {
    this.status.phase = phase;
    return this;
  }
  /** Sets the Ready condition (true by default on a new pod). */
  ready(ready: boolean): this {
    this.status.conditions = [
      ...(this.status.conditions ?? []).filter((c) => c.type !== 'Ready'),
      readyCondition(ready),
    ];
    return this;
  }
  /** Marks the pod terminating: metadata.deletionTimestamp as an RFC 3339 string, as a file snapshot holds it. */
  deleting(epochSeconds: number, gracePeriodSeconds = 30): this {
    const meta = this.o.metadata!;
    // The models type timestamps as Date; a file snapshot holds strings. Keep the file form.
    meta.deletionTimestamp = new Date(epochSeconds * 1000).toISOString() as unknown as Date;
    meta.deletionGracePeriodSeconds = gracePeriodSeconds;
    return this;
  }
  /** Requests of the first container (cpu like '100m', memory like '64Mi'). */
  requests(cpu?: string, memory?: string): this {
    const requests: Record<string, string> = {};
    if (cpu !== undefined) requests['cpu'] = cpu;
    if (memory !== undefined) requests['memory'] = memory;
    this.firstContainer().resources = { ...this.firstContainer().resources, requests };
    return this;
  }
  container(container: V1Container): this {
    this.spec.containers = [...this.spec.containers, container];
    return this;
  }
  hostPort(port: number, protocol = 'TCP'): this {
    const c = this.firstContainer();
    c.ports = [...(c.ports ?? []), { containerPort: port, hostPort: port, protocol }];
    return this;
  }
  toleration(toleration: V1Toleration): this {
    this.spec.tolerations = [...(this.spec.tolerations ?? []), toleration];
    return this;
  }
  /** The two NoExecute tolerations the DefaultTolerationSeconds admission plugin adds (300 s unless given). */
  defaultTolerations(seconds = 300): this {
    for (const key of ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']) {
      this.toleration({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds });
    }
    return this;
  }
  /** `operator: Exists` with no key: tolerates every taint, as DaemonSet pods of CNI agents do. */
  tolerateEverything(): this {
    return this.toleration({ operator: 'Exists' });
  }
  nodeSelector(selector: Readonly<Record<string, string>>): this {
    this.spec.nodeSelector = { ...selector };
    return this;
  }
  affinity(affinity: V1Affinity): this {
    this.spec.affinity = affinity;
    return this;
  }
  /** A topology spread constraint; the selector defaults to the pod's labels at the time of the call. */
  spread(maxSkew: number, topologyKey: string, extra: Partial<V1TopologySpreadConstraint> = {}): this {
    const constraint: V1TopologySpreadConstraint = {
      maxSkew,
      topologyKey,
      whenUnsatisfiable: 'DoNotSchedule',
      labelSelector: { matchLabels: { ...this.meta.labels } },
      ...extra,
    };
    this.spec.topologySpreadConstraints = [...(this.spec.topologySpreadConstraints ?? []), constraint];
    return this;
  }
  volume(volume: V1Volume): this {
    this.spec.volumes = [...(this.spec.volumes ?? []), volume];
    return this;
  }
  emptyDir(name = 'scratch'): this {
    return this.volume({ name, emptyDir: {} });
  }
  priority(priority: number, className?: string): this {
    this.spec.priority = priority;
    if (className !== undefined) this.spec.priorityClassName = className;
    return this;
  }

  private firstContainer(): V1Container {
    return this.spec.containers[0]!;
  }
}

export const makePod = () => new PodBuilder();

function readyCondition(ready: boolean): V1PodCondition {
  return { type: 'Ready', status: ready ? 'True' : 'False' };
}

// ---------------------------------------------------------------------------------------------------------------
// Node

export class NodeBuilder extends ObjectBuilder<V1Node> {
  constructor() {
    super({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'node', labels: {} },
      spec: {},
      status: {
        allocatable: { cpu: '2', memory: '3377252Ki', pods: '110' },
        capacity: { cpu: '2', memory: '3377252Ki', pods: '110' },
        conditions: [nodeReady(true)],
      },
    });
  }

  /** Also sets the kubernetes.io/hostname label, as the kubelet does. */
  override name(name: string): this {
    return super.name(name).label('kubernetes.io/hostname', name);
  }
  taint(key: string, effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute', value?: string): this {
    const taint: V1Taint = { key, effect, ...(value !== undefined ? { value } : {}) };
    this.o.spec!.taints = [...(this.o.spec!.taints ?? []), taint];
    return this;
  }
  /** spec.unschedulable plus the taint the node lifecycle controller adds for it. */
  cordoned(): this {
    this.o.spec!.unschedulable = true;
    return this.taint('node.kubernetes.io/unschedulable', 'NoSchedule');
  }
  /** The control-plane label and NoSchedule taint kubeadm sets. */
  controlPlane(): this {
    return this.label('node-role.kubernetes.io/control-plane', '').taint(
      'node-role.kubernetes.io/control-plane',
      'NoSchedule',
    );
  }
  allocatable(cpu: string, memory: string, pods = '110'): this {
    this.o.status!.allocatable = { cpu, memory, pods };
    this.o.status!.capacity = { cpu, memory, pods };
    return this;
  }
  ready(ready: boolean): this {
    this.o.status!.conditions = [nodeReady(ready)];
    return this;
  }
}

export const makeNode = () => new NodeBuilder();

function nodeReady(ready: boolean): V1NodeCondition {
  return { type: 'Ready', status: ready ? 'True' : 'False', reason: ready ? 'KubeletReady' : 'KubeletNotReady' };
}

// ---------------------------------------------------------------------------------------------------------------
// PodDisruptionBudget

export interface PdbStatusInput {
  readonly disruptionsAllowed: number;
  readonly currentHealthy: number;
  readonly desiredHealthy: number;
  readonly expectedPods: number;
  /** Defaults to metadata.generation (a fresh status). */
  readonly observedGeneration?: number;
}

export class PdbBuilder extends ObjectBuilder<V1PodDisruptionBudget> {
  constructor() {
    super({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'pdb', namespace: 'default', generation: 1 },
      spec: { selector: {} },
    });
  }

  /** matchLabels shorthand; pass a full selector, or null to leave spec.selector unset (selects nothing). */
  selector(selector: Readonly<Record<string, string>> | V1LabelSelector | null): this {
    const spec = this.o.spec!;
    if (selector === null) delete spec.selector;
    else if ('matchLabels' in selector || 'matchExpressions' in selector) spec.selector = structuredClone(selector);
    else spec.selector = { matchLabels: { ...(selector as Record<string, string>) } };
    return this;
  }
  minAvailable(value: IntOrString): this {
    this.o.spec!.minAvailable = value;
    return this;
  }
  maxUnavailable(value: IntOrString): this {
    this.o.spec!.maxUnavailable = value;
    return this;
  }
  unhealthyPodEvictionPolicy(policy: 'IfHealthyBudget' | 'AlwaysAllow'): this {
    this.o.spec!.unhealthyPodEvictionPolicy = policy;
    return this;
  }
  generation(generation: number): this {
    this.o.metadata!.generation = generation;
    return this;
  }
  status(status: PdbStatusInput): this {
    this.o.status = {
      disruptionsAllowed: status.disruptionsAllowed,
      currentHealthy: status.currentHealthy,
      desiredHealthy: status.desiredHealthy,
      expectedPods: status.expectedPods,
      observedGeneration: status.observedGeneration ?? this.o.metadata!.generation ?? 1,
    };
    return this;
  }
}

export const makePdb = () => new PdbBuilder();

// ---------------------------------------------------------------------------------------------------------------
// Controllers (ReplicaSet, Deployment, StatefulSet, DaemonSet, ReplicationController, Job)

type ControllerKind = 'ReplicaSet' | 'Deployment' | 'StatefulSet' | 'DaemonSet' | 'ReplicationController' | 'Job';
interface ControllerObject {
  apiVersion?: string;
  kind?: string;
  metadata?: BuiltMeta & { generation?: number };
  spec?: { replicas?: number; selector?: V1LabelSelector; template?: unknown };
}

/** A controller object; `T` is its client-node type (V1ReplicaSet, V1Deployment…). */
export class ControllerBuilder<T extends { kind?: string; metadata?: BuiltMeta }> extends ObjectBuilder<T> {
  constructor(kind: ControllerKind) {
    const o: ControllerObject = {
      apiVersion: OWNER_API_VERSION[kind] ?? 'v1',
      kind,
      metadata: { name: kind.toLowerCase(), namespace: 'default', generation: 1, labels: {} },
      spec: { selector: { matchLabels: {} }, template: { metadata: { labels: {} }, spec: { containers: [] } } },
    };
    super(o as T);
  }

  private get spec() {
    return (this.o as ControllerObject).spec!;
  }

  replicas(replicas: number): this {
    this.spec.replicas = replicas;
    return this;
  }
  /** spec.selector.matchLabels and the template's labels. */
  selector(matchLabels: Readonly<Record<string, string>>): this {
    this.spec.selector = { matchLabels: { ...matchLabels } };
    this.spec.template = { metadata: { labels: { ...matchLabels } }, spec: { containers: [] } };
    return this;
  }
}

export const makeReplicaSet = () => new ControllerBuilder<V1ReplicaSet>('ReplicaSet');
export const makeDeployment = () => new ControllerBuilder<V1Deployment>('Deployment');
export const makeStatefulSet = () => new ControllerBuilder<V1StatefulSet>('StatefulSet');
export const makeDaemonSet = () => new ControllerBuilder<V1DaemonSet>('DaemonSet');
export const makeReplicationController = () => new ControllerBuilder<V1ReplicationController>('ReplicationController');
export const makeJob = () => new ControllerBuilder<V1Job>('Job');

// ---------------------------------------------------------------------------------------------------------------
// Snapshot

export type SnapshotInput = Partial<Omit<Snapshot, 'source' | 'kinds'>> & {
  /** The kinds that were read; defaults to every kind (loaded, possibly empty). */
  readonly kinds?: readonly SnapshotKind[];
};

export function makeSnapshot(input: SnapshotInput = {}): Snapshot {
  const { kinds, ...objects } = input;
  return {
    source: { type: 'embedded', name: 'test' },
    nodes: [],
    pods: [],
    pdbs: [],
    replicaSets: [],
    deployments: [],
    statefulSets: [],
    daemonSets: [],
    replicationControllers: [],
    jobs: [],
    services: [],
    persistentVolumeClaims: [],
    persistentVolumes: [],
    storageClasses: [],
    csiNodes: [],
    csiDrivers: [],
    csiStorageCapacities: [],
    namespaces: [],
    priorityClasses: [],
    resourceClaims: [],
    resourceClaimTemplates: [],
    deviceClasses: [],
    resourceSlices: [],
    autoscalers: [],
    validatingAdmissionPolicies: [],
    validatingAdmissionPolicyBindings: [],
    validatingWebhooks: [],
    mutatingWebhooks: [],
    warnings: [],
    // The lab's version, as a live read or a snapshot taken with `npm run lab -- snapshot` records it.
    serverVersion: 'v1.37.2',
    ...objects,
    kinds: new Set(kinds ?? SNAPSHOT_KINDS),
  };
}

/** `new ClusterIndex(makeSnapshot(input))`. */
export const makeIndex = (input: SnapshotInput = {}) => new ClusterIndex(makeSnapshot(input));
