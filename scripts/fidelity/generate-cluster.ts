/**
 * A small, realistic cluster for the fidelity harness, from a seed: 4–6 KWOK nodes in two or three zones,
 * node pools (one tainted, with GPUs published as ResourceSlices), and a handful of Deployments and
 * StatefulSets with topology spread, (anti-)affinity, budgets, priorities, local and zonal
 * PersistentVolumes and DRA claims — 10 to 30 pods, so that one lab seeds, plans and drains it in well
 * under a minute. Pure: the same seed gives the same objects.
 *
 * Where the pods land is the lab's scheduler's business; the generator only keeps the cluster placeable
 * (requests within a share of each pool's room, one replica per node where anti-affinity or a local
 * volume asks for it, claims within the GPUs published), so that every pod runs before the drain.
 */
import type { KubeObject } from '../lab/seed.js';
import type * as Synthetic from '../bench/synthetic-cluster.js';

// Imported by URL: node runs these scripts from source and resolves a .ts file only by its own name.
const { Random } = (await import(new URL('../bench/synthetic-cluster.ts', import.meta.url).href)) as typeof Synthetic;
type Random = InstanceType<typeof Random>;

export const NAMESPACE = 'fidelity';
const SCENARIO = { 'lab.kubectl-maint.io/scenario': 'true' };
const ZONE = 'topology.kubernetes.io/zone';
const HOSTNAME = 'kubernetes.io/hostname';
const POOL = 'node.example.com/pool';
const GPU_DRIVER = 'gpu.fidelity.example.com';
const GPU_TAINT = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
/** Fixed names and values: PriorityClasses outlive a reset, and a value cannot change. */
const PRIORITIES = { 'fidelity-low': 100, 'fidelity-high': 1000 } as const;

export interface GeneratedNode {
  readonly name: string;
  readonly zone: string;
  readonly pool: 'general' | 'gpu';
  readonly milliCpu: number;
  readonly gpus: number;
}

export interface GeneratedCluster {
  readonly seed: number;
  readonly nodes: readonly GeneratedNode[];
  /** For seedObjects: the nodes first (schedulable before any pod exists), then everything else. */
  readonly steps: KubeObject[][][];
  /** One line per workload: what it is made of, for a report. */
  readonly workloads: readonly string[];
}

interface Workload {
  readonly name: string;
  readonly kind: 'Deployment' | 'StatefulSet';
  readonly pool: 'general' | 'gpu';
  readonly replicas: number;
  readonly milliCpu: number;
  readonly traits: string[];
  readonly objects: KubeObject[];
}

const obj = (apiVersion: string, kind: string, metadata: KubeObject['metadata'], rest: object = {}): KubeObject =>
  ({ apiVersion, kind, metadata, ...rest }) as KubeObject;

/**
 * Where the cluster's admission webhooks are served (webhook-server.ts): the base of their URLs and the CA
 * that signed the server's certificate. Without a server the URLs lead nowhere (a cluster only looked at).
 */
export interface WebhookServer {
  readonly url: string;
  readonly caBundle: string;
}

const NO_SERVER: WebhookServer = { url: 'https://127.0.0.1:1', caBundle: '' };

/** The cluster of `seed`, its webhooks served by `server` (null: no webhooks). */
export function generateCluster(seed: number, server: WebhookServer | null = NO_SERVER): GeneratedCluster {
  const random = new Random(seed);
  const zones = ['zone-a', 'zone-b', 'zone-c'].slice(0, random.between(2, 3));
  const nodeCount = random.between(4, 6);
  const gpuNodes = random.chance(0.6) ? random.between(1, 2) : 0;
  const nodes: GeneratedNode[] = Array.from({ length: nodeCount }, (_, i) => {
    const pool = i >= nodeCount - gpuNodes ? 'gpu' : 'general';
    return {
      name: `fid-node-${i + 1}`,
      zone: zones[i % zones.length]!,
      pool,
      milliCpu: random.pick([2000, 3000, 4000]),
      gpus: pool === 'gpu' ? random.between(1, 2) : 0,
    };
  });
  const gpuTainted = gpuNodes > 0 && random.chance(0.7);

  const base: KubeObject[] = [
    obj('v1', 'Namespace', { name: NAMESPACE, labels: { ...SCENARIO, team: 'fidelity' } }),
    ...Object.entries(PRIORITIES).map(([name, value]) =>
      obj(
        'scheduling.k8s.io/v1',
        'PriorityClass',
        { name, labels: SCENARIO },
        { value, preemptionPolicy: 'PreemptLowerPriority' },
      ),
    ),
    obj(
      'storage.k8s.io/v1',
      'StorageClass',
      { name: 'fidelity-local', labels: SCENARIO },
      { provisioner: 'kubernetes.io/no-provisioner', volumeBindingMode: 'WaitForFirstConsumer' },
    ),
    obj(
      'storage.k8s.io/v1',
      'StorageClass',
      { name: 'fidelity-zonal', labels: SCENARIO },
      { provisioner: 'kubernetes.io/no-provisioner', volumeBindingMode: 'Immediate' },
    ),
    agentDaemonSet(),
  ];
  if (gpuNodes > 0) {
    base.push(
      obj(
        'resource.k8s.io/v1',
        'DeviceClass',
        { name: GPU_DRIVER, labels: SCENARIO },
        { spec: { selectors: [{ cel: { expression: `device.driver == "${GPU_DRIVER}"` } }] } },
      ),
      ...nodes.filter((n) => n.gpus > 0).map(resourceSlice),
    );
  }

  // Each pool's room, of which the workloads take at most a share: at the most the drain finds too little
  // room for some pods, and preempts.
  const share = random.pick([0.5, 0.65, 0.8]);
  const room = new Map<string, number>();
  for (const n of nodes) room.set(n.pool, (room.get(n.pool) ?? 0) + n.milliCpu * share);
  let gpusLeft = nodes.reduce((sum, n) => sum + n.gpus, 0);
  const workloads: Workload[] = [];
  const count = random.between(3, 7);
  for (let i = 1; i <= count; i++) {
    const pool = gpuNodes > 0 && random.chance(0.3) ? 'gpu' : 'general';
    const eligible = nodes.filter((n) => n.pool === pool);
    const w = workload(random, i, pool, eligible, {
      gpuTainted,
      gpusLeft,
      room: room.get(pool) ?? 0,
      earlier: workloads,
    });
    if (!w) continue;
    room.set(pool, (room.get(pool) ?? 0) - w.replicas * w.milliCpu);
    if (w.traits.includes('gpu claim')) gpusLeft -= w.replicas;
    workloads.push(w);
  }
  // Often a low-priority filler takes the general pool up to its share: the drained node's replacements
  // then find too little room, and a higher-priority one preempts.
  const pods = workloads.reduce((sum, w) => sum + w.replicas, 0);
  const fill = Math.min(Math.floor((room.get('general') ?? 0) / FILLER_MILLI_CPU), 8, MAX_PODS - pods);
  if (fill > 0 && random.chance(0.5)) workloads.push(filler(fill));
  // Drawn last, so that the objects above are the same with or without them.
  const admission = random.chance(0.6) ? evictionPolicies(random, workloads) : { objects: [], lines: [] };
  const webhooks =
    server !== null && random.chance(0.5) ? evictionWebhooks(random, workloads, server) : { objects: [], lines: [] };

  return {
    seed,
    nodes,
    steps: [
      [nodes.map((n) => node(n, gpuTainted))],
      [base, ...workloads.map((w) => w.objects), [...admission.objects, ...webhooks.objects]],
    ],
    workloads: [
      ...workloads.map(
        (w) => `${w.kind} ${w.name} ×${w.replicas} ${w.milliCpu}m on ${w.pool}: ${w.traits.join(', ') || 'plain'}`,
      ),
      ...admission.lines,
      ...webhooks.lines,
    ],
  };
}

function node(n: GeneratedNode, gpuTainted: boolean): KubeObject {
  const cpu = `${n.milliCpu}m`;
  return obj(
    'v1',
    'Node',
    {
      name: n.name,
      annotations: { 'kwok.x-k8s.io/node': 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
      labels: {
        [HOSTNAME]: n.name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        [ZONE]: n.zone,
        [POOL]: n.pool,
        type: 'kwok',
      },
    },
    {
      spec: n.pool === 'gpu' && gpuTainted ? { taints: [GPU_TAINT] } : {},
      status: {
        allocatable: { cpu, memory: '16Gi', pods: '110' },
        capacity: { cpu, memory: '16Gi', pods: '110' },
      },
    },
  );
}

/** The node's GPUs, published by hand: no DRA driver runs on a KWOK node. */
function resourceSlice(n: GeneratedNode): KubeObject {
  return obj(
    'resource.k8s.io/v1',
    'ResourceSlice',
    { name: `${n.name}-${GPU_DRIVER}`, labels: SCENARIO },
    {
      spec: {
        driver: GPU_DRIVER,
        nodeName: n.name,
        pool: { name: n.name, generation: 1, resourceSliceCount: 1 },
        devices: Array.from({ length: n.gpus }, (_, i) => ({
          name: `gpu-${i}`,
          attributes: { model: { string: 'a100' } },
          capacity: { memory: { value: '80Gi' } },
        })),
      },
    },
  );
}

/** A node agent on every node: what the drain skips under --ignore-daemonsets. */
function agentDaemonSet(): KubeObject {
  return obj(
    'apps/v1',
    'DaemonSet',
    { name: 'agent', namespace: NAMESPACE },
    {
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: {
            terminationGracePeriodSeconds: 0,
            tolerations: [{ operator: 'Exists' }],
            containers: [
              { name: 'agent', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '10m' } } },
            ],
          },
        },
      },
    },
  );
}

interface Context {
  readonly gpuTainted: boolean;
  readonly gpusLeft: number;
  readonly room: number;
  readonly earlier: readonly Workload[];
}

function workload(
  random: Random,
  index: number,
  pool: 'general' | 'gpu',
  eligible: readonly GeneratedNode[],
  context: Context,
): Workload | undefined {
  const kind = random.chance(0.4) ? 'StatefulSet' : 'Deployment';
  const name = `${kind === 'StatefulSet' ? 'db' : 'web'}-${index}`;
  const milliCpu = random.pick([100, 200, 250, 400, 500]);
  const zones = [...new Set(eligible.map((n) => n.zone))];
  const traits: string[] = [];
  const gpu = pool === 'gpu' && context.gpusLeft > 0 && random.chance(0.7);
  // Volumes pin each replica: a local PV to one node, a zonal PV to one zone. Not with a GPU claim: another
  // workload may take the pinned node's only GPU first, and the replica would never start.
  const volume =
    kind === 'StatefulSet' && !gpu
      ? random.weighted<'local' | 'zonal' | 'none'>([
          [3, 'local'],
          [2, 'zonal'],
          [1, 'none'],
        ])
      : 'none';
  const antiAffinity = random.chance(0.3);
  let most = Math.floor(context.room / milliCpu);
  if (antiAffinity || volume === 'local') most = Math.min(most, eligible.length);
  // One replica per zone: a zone may have a single node of the pool.
  if (volume === 'zonal') most = Math.min(most, zones.length);
  if (gpu) most = Math.min(most, context.gpusLeft);
  const replicas = Math.min(random.between(1, 5), most);
  if (replicas < 1) return undefined;

  const labels = { app: name };
  const spec: Record<string, unknown> = {
    terminationGracePeriodSeconds: 0,
    containers: [
      {
        name: 'app',
        image: 'registry.k8s.io/pause:3.10',
        resources: { requests: { cpu: `${milliCpu}m`, memory: '64Mi' }, ...(gpu ? { claims: [{ name: 'gpu' }] } : {}) },
        ...(volume === 'none' ? {} : { volumeMounts: [{ name: 'data', mountPath: '/data' }] }),
      },
    ],
  };
  const objects: KubeObject[] = [];

  if (pool === 'gpu') {
    spec.nodeSelector = { [POOL]: 'gpu' };
    if (context.gpuTainted) spec.tolerations = [{ ...GPU_TAINT, operator: 'Equal' }];
    traits.push('gpu pool');
  } else if (random.chance(0.2)) {
    // Kept off the GPU pool by affinity rather than by the taint alone.
    spec.affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: POOL, operator: 'NotIn', values: ['gpu'] }] }],
        },
      },
    };
    traits.push('node affinity');
  }
  const priority = random.weighted<keyof typeof PRIORITIES | undefined>([
    [2, undefined],
    [1, 'fidelity-low'],
    [1, 'fidelity-high'],
  ]);
  if (priority) {
    spec.priorityClassName = priority;
    traits.push(priority.replace('fidelity-', 'priority '));
  }

  const podAffinity: Record<string, unknown> = {};
  if (antiAffinity) {
    podAffinity.podAntiAffinity = {
      requiredDuringSchedulingIgnoredDuringExecution: [
        { labelSelector: { matchLabels: labels }, topologyKey: HOSTNAME },
      ],
    };
    traits.push('anti-affinity');
  } else if (random.chance(0.25)) {
    podAffinity.podAntiAffinity = {
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 100, podAffinityTerm: { labelSelector: { matchLabels: labels }, topologyKey: HOSTNAME } },
      ],
    };
    traits.push('preferred anti-affinity');
  }
  const partner = context.earlier.find((w) => w.pool === pool && w.kind === 'Deployment');
  const affine = partner !== undefined && volume === 'none' && random.chance(0.15);
  if (partner && affine) {
    // Required affinity to another workload's zone, the other way round namespaceSelector-wide.
    podAffinity.podAffinity = {
      requiredDuringSchedulingIgnoredDuringExecution: [
        {
          labelSelector: { matchLabels: { app: partner.name } },
          topologyKey: ZONE,
          namespaceSelector: { matchLabels: { team: 'fidelity' } },
        },
      ],
    };
    traits.push(`zone affinity to ${partner.name}`);
  }
  if (Object.keys(podAffinity).length > 0) spec.affinity = { ...(spec.affinity as object | undefined), ...podAffinity };

  const spread: unknown[] = [];
  if (random.chance(0.4)) {
    // Replicas pinned to nodes by local volumes, or drawn to a partner's zones, may not spread evenly.
    const strict = volume !== 'local' && !affine;
    const whenUnsatisfiable = strict ? random.pick(['DoNotSchedule', 'ScheduleAnyway']) : 'ScheduleAnyway';
    spread.push({ maxSkew: 1, topologyKey: ZONE, whenUnsatisfiable, labelSelector: { matchLabels: labels } });
    traits.push(`zone spread (${whenUnsatisfiable})`);
  }
  if (random.chance(0.2) && replicas <= eligible.length) {
    spread.push({
      maxSkew: 1,
      topologyKey: HOSTNAME,
      whenUnsatisfiable: 'DoNotSchedule',
      labelSelector: { matchLabels: labels },
    });
    traits.push('host spread');
  }
  if (spread.length > 0) spec.topologySpreadConstraints = spread;

  if (gpu) {
    spec.resourceClaims = [{ name: 'gpu', resourceClaimTemplateName: `${name}-gpu` }];
    objects.push(
      obj(
        'resource.k8s.io/v1',
        'ResourceClaimTemplate',
        { name: `${name}-gpu`, namespace: NAMESPACE },
        { spec: { spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: GPU_DRIVER } }] } } } },
      ),
    );
    traits.push('gpu claim');
  }

  const template = { metadata: { labels }, spec };
  if (kind === 'Deployment') {
    objects.push(
      obj(
        'apps/v1',
        'Deployment',
        { name, namespace: NAMESPACE },
        { spec: { replicas, selector: { matchLabels: labels }, template } },
      ),
    );
  } else {
    const claimClass = volume === 'local' ? 'fidelity-local' : 'fidelity-zonal';
    objects.push(
      obj(
        'apps/v1',
        'StatefulSet',
        { name, namespace: NAMESPACE },
        {
          spec: {
            replicas,
            serviceName: name,
            podManagementPolicy: 'Parallel',
            selector: { matchLabels: labels },
            template,
            ...(volume === 'none'
              ? {}
              : {
                  volumeClaimTemplates: [
                    {
                      metadata: { name: 'data' },
                      spec: {
                        accessModes: ['ReadWriteOnce'],
                        storageClassName: claimClass,
                        resources: { requests: { storage: '1Gi' } },
                      },
                    },
                  ],
                }),
          },
        },
      ),
    );
    // Each replica's volume, pre-bound to the claim its StatefulSet makes (claimRef), so the PV controller
    // binds it as soon as the claim exists: a local disk of one node, or a disk of one zone.
    const offset = random.int(eligible.length);
    for (let r = 0; r < replicas && volume !== 'none'; r++) {
      const at = eligible[(offset + r) % eligible.length]!;
      const zone = zones[(offset + r) % zones.length]!;
      objects.push(persistentVolume(`${name}-${r}`, `data-${name}-${r}`, volume, volume === 'local' ? at.name : zone));
    }
    if (volume !== 'none') traits.push(volume === 'local' ? 'local PVs' : 'zonal PVs');
  }

  if (random.chance(0.65)) {
    // A budget that never allows (maxUnavailable 0) blocks the drain: rarer, since each blocked drain is
    // waited out.
    const budget = random.weighted<Record<string, number | string>>([
      [4, { maxUnavailable: 1 }],
      [2, replicas > 1 ? { minAvailable: replicas - 1 } : { maxUnavailable: 1 }],
      [2, { maxUnavailable: '50%' }],
      [0.5, { maxUnavailable: 0 }],
    ]);
    objects.push(
      obj(
        'policy/v1',
        'PodDisruptionBudget',
        { name, namespace: NAMESPACE },
        { spec: { ...budget, selector: { matchLabels: labels } } },
      ),
    );
    traits.push(
      `budget ${Object.entries(budget)
        .map(([k, v]) => `${k} ${v}`)
        .join('')}`,
    );
  }
  return { name, kind, pool, replicas, milliCpu, traits, objects };
}

const FILLER_MILLI_CPU = 500;
/** Small enough for one lab to seed, plan and drain in well under a minute. */
const MAX_PODS = 30;

/** Batch work of no importance (priority 100), spread loosely: what preemption deletes first. */
function filler(replicas: number): Workload {
  const labels = { app: 'filler' };
  const template = {
    metadata: { labels },
    spec: {
      terminationGracePeriodSeconds: 0,
      priorityClassName: 'fidelity-low',
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: POOL, operator: 'In', values: ['general'] }] }],
          },
        },
      },
      containers: [
        {
          name: 'app',
          image: 'registry.k8s.io/pause:3.10',
          resources: { requests: { cpu: `${FILLER_MILLI_CPU}m`, memory: '64Mi' } },
        },
      ],
    },
  };
  return {
    name: 'filler',
    kind: 'Deployment',
    pool: 'general',
    replicas,
    milliCpu: FILLER_MILLI_CPU,
    traits: ['priority low', 'filler'],
    objects: [
      obj(
        'apps/v1',
        'Deployment',
        { name: 'filler', namespace: NAMESPACE },
        { spec: { replicas, selector: { matchLabels: labels }, template } },
      ),
    ],
  };
}

function persistentVolume(name: string, claim: string, volume: 'local' | 'zonal', where: string): KubeObject {
  const local = volume === 'local';
  return obj(
    'v1',
    'PersistentVolume',
    { name: `fidelity-${name}`, labels: { ...SCENARIO, ...(local ? {} : { [ZONE]: where }) } },
    {
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        storageClassName: local ? 'fidelity-local' : 'fidelity-zonal',
        persistentVolumeReclaimPolicy: 'Retain',
        claimRef: { namespace: NAMESPACE, name: claim },
        ...(local
          ? {
              local: { path: `/mnt/disks/${name}` },
              nodeAffinity: {
                required: {
                  nodeSelectorTerms: [{ matchExpressions: [{ key: HOSTNAME, operator: 'In', values: [where] }] }],
                },
              },
            }
          : { hostPath: { path: `/mnt/disks/${name}` } }),
      },
    },
  );
}

/** The ConfigMap a params policy reads: which workload's pods it guards. */
const PARAMS = 'fidelity-eviction-params';

/**
 * One or two ValidatingAdmissionPolicies on evictions (CREATE pods/eviction), each bound to the namespace:
 * Deny or Warn, on one workload's pods, chosen by a matchCondition on the Eviction's name (admission sees the
 * Eviction, never the pod's labels), its namespace, or by the name a params ConfigMap holds. What the plan
 * says of each pod's eviction is compared with what the API server answered the drain (compare.ts).
 */
function evictionPolicies(random: Random, workloads: readonly Workload[]): { objects: KubeObject[]; lines: string[] } {
  const objects: KubeObject[] = [];
  const lines: string[] = [];
  const count = random.between(1, 2);
  for (let i = 1; i <= count && workloads.length > 0; i++) {
    const target = random.pick(workloads.map((w) => w.name));
    const style = random.pick(['name', 'namespace', 'params'] as const);
    const action = random.chance(0.5) ? 'Deny' : 'Warn';
    const name = `fidelity-${action.toLowerCase()}-${i}`;
    const prefix = `${target}-`;
    const onName = { name: 'this-workload', expression: `object.metadata.name.startsWith(${JSON.stringify(prefix)})` };
    const onNamespace = { name: 'this-namespace', expression: `object.metadata.namespace == "${NAMESPACE}"` };
    const spec =
      style === 'params'
        ? {
            paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
            matchConditions: [onNamespace],
            validations: [
              {
                expression: '!object.metadata.name.startsWith(params.data.guarded + "-")',
                messageExpression: '"evictions of " + params.data.guarded + " pods go through its operator"',
              },
            ],
          }
        : {
            matchConditions: style === 'namespace' ? [onNamespace, onName] : [onName],
            validations: [{ expression: 'false', message: `evictions of ${target} pods go through its operator` }],
          };
    objects.push(
      obj(
        'admissionregistration.k8s.io/v1',
        'ValidatingAdmissionPolicy',
        { name, labels: SCENARIO },
        {
          spec: {
            failurePolicy: 'Fail',
            matchConstraints: {
              resourceRules: [
                { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods/eviction'] },
              ],
            },
            ...spec,
          },
        },
      ),
      obj(
        'admissionregistration.k8s.io/v1',
        'ValidatingAdmissionPolicyBinding',
        { name: `${name}-binding`, labels: SCENARIO },
        {
          spec: {
            policyName: name,
            validationActions: [action],
            matchResources: { namespaceSelector: { matchLabels: { team: 'fidelity' } } },
            ...(style === 'params'
              ? { paramRef: { name: `${PARAMS}-${i}`, namespace: NAMESPACE, parameterNotFoundAction: 'Deny' } }
              : {}),
          },
        },
      ),
    );
    if (style === 'params') {
      objects.push(
        obj('v1', 'ConfigMap', { name: `${PARAMS}-${i}`, namespace: NAMESPACE }, { data: { guarded: target } }),
      );
    }
    lines.push(`ValidatingAdmissionPolicy ${name} (${action}) on evictions of ${target} pods, by ${style}`);
  }
  return { objects, lines };
}

/**
 * How a generated webhook answers an eviction, read by webhook-server.ts from its URL's path
 * (`/NAME/MODE/TARGET/REFUSALS`): `deny` refuses every call (403); `wait` refuses each pod's first REFUSALS
 * real calls with 429, then admits; `kubevirt` and `strimzi` answer as those operators' webhooks do
 * (webhook-operators.ts in the plan): KubeVirt 429 "Eviction triggered evacuation of VMI" for TARGET's pods
 * until it has migrated them (REFUSALS calls), Strimzi's drain cleaner 500 for TARGET's pods; both admit
 * any other pod.
 */
export type WebhookMode = 'deny' | 'wait' | 'kubevirt' | 'strimzi';

const KUBEVIRT_WEBHOOK = 'virt-launcher-eviction-interceptor.kubevirt.io';
const STRIMZI_WEBHOOK = 'strimzi-drain-cleaner.strimzi.io';

/**
 * One or two admission webhooks on evictions (CREATE pods/eviction), served by the harness on loopback:
 * an operator's the plan knows (KubeVirt's eviction interceptor, its target's pods made VM launchers by the
 * kubevirt.io/domain annotation; Strimzi's drain cleaner, its target's pods labelled as Kafka brokers),
 * called for every eviction in the namespace; or one of the plan does not know, aimed at one workload's
 * pods by a matchCondition on the Eviction's name, or by an objectSelector on the pods' labels (which
 * admission never sees: the Eviction has none, so it is never called). Validating or mutating; the plan's
 * prediction of each pod's eviction is compared with what the API server answered (compare.ts).
 */
function evictionWebhooks(
  random: Random,
  workloads: readonly Workload[],
  server: WebhookServer,
): { objects: KubeObject[]; lines: string[] } {
  const objects: KubeObject[] = [];
  const lines: string[] = [];
  const count = random.between(1, 2);
  const operators = new Set<WebhookMode>();
  for (let i = 1; i <= count && workloads.length > 0; i++) {
    const target = random.pick(workloads);
    let mode = random.pick(['deny', 'wait', 'kubevirt', 'strimzi'] as const);
    // One configuration per operator: its webhook's name is the operator's.
    if (operators.has(mode)) mode = 'deny';
    const operator = mode === 'kubevirt' || mode === 'strimzi';
    if (operator) operators.add(mode);
    const kind = !operator && random.chance(0.3) ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration';
    const by = operator ? 'namespace' : random.pick(['name', 'name', 'objectSelector'] as const);
    const refusals = mode === 'wait' || mode === 'kubevirt' ? random.between(1, 3) : 0;
    const name =
      mode === 'kubevirt'
        ? KUBEVIRT_WEBHOOK
        : mode === 'strimzi'
          ? STRIMZI_WEBHOOK
          : `${mode}-${i}.fidelity.example.com`;
    if (mode === 'kubevirt') podTemplateOf(target).metadata.annotations = { 'kubevirt.io/domain': target.name };
    if (mode === 'strimzi') {
      // A copy: the template's labels are the selector's object too.
      const template = podTemplateOf(target);
      template.metadata.labels = {
        ...template.metadata.labels,
        'strimzi.io/kind': 'Kafka',
        'strimzi.io/name': `${target.name}-kafka`,
      };
    }
    const prefix = `${target.name}-`;
    objects.push(
      obj(
        'admissionregistration.k8s.io/v1',
        kind,
        { name: `fidelity-${mode}-${i}`, labels: SCENARIO },
        {
          webhooks: [
            {
              name,
              admissionReviewVersions: ['v1'],
              sideEffects: 'None',
              failurePolicy: 'Fail',
              timeoutSeconds: 5,
              ...(kind === 'MutatingWebhookConfiguration' ? { reinvocationPolicy: 'Never' } : {}),
              clientConfig: {
                url: `${server.url}/${name}/${mode}/${target.name}/${refusals}`,
                caBundle: server.caBundle,
              },
              rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods/eviction'] }],
              namespaceSelector: { matchLabels: { team: 'fidelity' } },
              ...(by === 'name'
                ? {
                    matchConditions: [
                      {
                        name: 'this-workload',
                        expression: `object.metadata.name.startsWith(${JSON.stringify(prefix)})`,
                      },
                    ],
                  }
                : by === 'objectSelector'
                  ? { objectSelector: { matchLabels: { app: target.name } } }
                  : {}),
            },
          ],
        },
      ),
    );
    const answers =
      mode === 'deny' ? 'denies' : mode === 'strimzi' ? 'denies (500)' : `answers 429 ${refusals}× then admits`;
    lines.push(`${kind} ${name} ${answers} evictions of ${target.name} pods, by ${by}`);
  }
  return { objects, lines };
}

interface PodTemplate {
  metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
}

/** The pod template of a workload's Deployment or StatefulSet. */
function podTemplateOf(w: Workload): PodTemplate {
  const owner = w.objects.find((o) => o.kind === w.kind)!;
  return (owner as unknown as { spec: { template: PodTemplate } }).spec.template;
}
