import { labelKeyProblem, labelSelectorProblem, labelValueProblem, quoted } from './label-selector.js';
import { quantityProblem } from './quantity.js';
import type { SnapshotKind } from './types.js';

/**
 * Checks an object of a snapshot file as the API server would have checked it before storing it, for the
 * fields the plan reads: their types (a list is a list, a map a map of strings), names, labels, label
 * selectors, resource quantities, a budget's exclusive minAvailable/maxUnavailable, a pod's spec. A file
 * can hold anything; the cluster could not. Returns the first problem as `field: problem`, or null.
 *
 * Hand-written rather than walking client-node's generated models: their type maps are complete but
 * loading the 205 models the ten kinds reach costs about 90 ms at every start, and they say nothing of
 * names, selectors or quantities, which are the checks that change a verdict.
 */
export function objectProblem(kind: SnapshotKind, object: Record<string, unknown>): string | null {
  const problem = checkOf(kind)(object);
  if (problem) return `${problem.at.replace(/^\./, '') || '(the object)'}: ${problem.problem}`;
  return semanticProblem(kind, object);
}

// ---------------------------------------------------------------------------------------------------
// A small schema of the fields the plan reads. Absent and null fields are fine unless required (the API
// server decodes null as absent); a field of the wrong type, or a null element of a list, is not.

type Leaf = 'string' | 'integer' | 'boolean' | 'timestamp' | 'intOrString' | 'quantity' | 'labels' | 'selector' | 'any';
type Schema =
  | Leaf
  | { readonly object: Readonly<Record<string, Schema>>; readonly required?: readonly string[] }
  | { readonly list: Schema; readonly nonEmpty?: boolean }
  | { readonly map: Schema };

const obj = (fields: Record<string, Schema>, required?: readonly string[]): Schema =>
  required ? { object: fields, required } : { object: fields };
const list = (of: Schema, nonEmpty = false): Schema => ({ list: of, nonEmpty });
const map = (of: Schema): Schema => ({ map: of });
const RESOURCES = map('quantity');

const OWNER_REFERENCE = obj(
  { apiVersion: 'string', kind: 'string', name: 'string', uid: 'string', controller: 'boolean' },
  ['kind', 'name'],
);
const METADATA = obj(
  {
    name: 'string',
    namespace: 'string',
    uid: 'string',
    labels: 'labels',
    annotations: map('string'),
    ownerReferences: list(OWNER_REFERENCE),
    generation: 'integer',
    deletionTimestamp: 'timestamp',
    creationTimestamp: 'timestamp',
    deletionGracePeriodSeconds: 'integer',
    finalizers: list('string'),
  },
  ['name'],
);
const TAINT = obj({ key: 'string', value: 'string', effect: 'string', timeAdded: 'timestamp' }, ['key', 'effect']);
const TOLERATION = obj({
  key: 'string',
  operator: 'string',
  value: 'string',
  effect: 'string',
  tolerationSeconds: 'integer',
});
const NODE_SELECTOR_REQUIREMENT = obj({ key: 'string', operator: 'string', values: list('string') }, [
  'key',
  'operator',
]);
const NODE_SELECTOR_TERM = obj({
  matchExpressions: list(NODE_SELECTOR_REQUIREMENT),
  matchFields: list(NODE_SELECTOR_REQUIREMENT),
});
const POD_AFFINITY_TERM = obj(
  {
    labelSelector: 'selector',
    namespaceSelector: 'selector',
    namespaces: list('string'),
    topologyKey: 'string',
    matchLabelKeys: list('string'),
    mismatchLabelKeys: list('string'),
  },
  ['topologyKey'],
);
const WEIGHTED_POD_AFFINITY_TERM = obj({ weight: 'integer', podAffinityTerm: POD_AFFINITY_TERM });
const POD_AFFINITY = obj({
  requiredDuringSchedulingIgnoredDuringExecution: list(POD_AFFINITY_TERM),
  preferredDuringSchedulingIgnoredDuringExecution: list(WEIGHTED_POD_AFFINITY_TERM),
});
const AFFINITY = obj({
  nodeAffinity: obj({
    requiredDuringSchedulingIgnoredDuringExecution: obj({ nodeSelectorTerms: list(NODE_SELECTOR_TERM) }),
    preferredDuringSchedulingIgnoredDuringExecution: list(obj({ weight: 'integer', preference: NODE_SELECTOR_TERM })),
  }),
  podAffinity: POD_AFFINITY,
  podAntiAffinity: POD_AFFINITY,
});
const RESOURCE_REQUIREMENTS = obj({ requests: RESOURCES, limits: RESOURCES });
const CONTAINER = obj(
  {
    name: 'string',
    restartPolicy: 'string',
    resources: RESOURCE_REQUIREMENTS,
    ports: list(obj({ containerPort: 'integer', hostPort: 'integer', hostIP: 'string', protocol: 'string' })),
  },
  ['name'],
);
const CONTAINER_STATUS = obj(
  { name: 'string', allocatedResources: RESOURCES, resources: RESOURCE_REQUIREMENTS, ready: 'boolean' },
  ['name'],
);
const CONDITION = obj(
  { type: 'string', status: 'string', reason: 'string', message: 'string', lastTransitionTime: 'timestamp' },
  ['type'],
);
const SPREAD_CONSTRAINT = obj(
  {
    maxSkew: 'integer',
    topologyKey: 'string',
    whenUnsatisfiable: 'string',
    labelSelector: 'selector',
    minDomains: 'integer',
    nodeAffinityPolicy: 'string',
    nodeTaintsPolicy: 'string',
    matchLabelKeys: list('string'),
  },
  ['maxSkew', 'topologyKey', 'whenUnsatisfiable'],
);
const POD_SPEC = obj(
  {
    nodeName: 'string',
    priority: 'integer',
    priorityClassName: 'string',
    preemptionPolicy: 'string',
    schedulerName: 'string',
    schedulingGates: list(obj({ name: 'string' }, ['name'])),
    nodeSelector: map('string'),
    tolerations: list(TOLERATION),
    affinity: AFFINITY,
    topologySpreadConstraints: list(SPREAD_CONSTRAINT),
    containers: list(CONTAINER, true),
    initContainers: list(CONTAINER),
    volumes: list(
      obj(
        {
          name: 'string',
          emptyDir: 'any',
          persistentVolumeClaim: obj({ claimName: 'string', readOnly: 'boolean' }, ['claimName']),
          ephemeral: obj({ volumeClaimTemplate: obj({ metadata: 'any', spec: 'any' }) }),
        },
        ['name'],
      ),
    ),
    overhead: RESOURCES,
    resources: RESOURCE_REQUIREMENTS,
    terminationGracePeriodSeconds: 'integer',
    resourceClaims: list(
      obj({ name: 'string', resourceClaimName: 'string', resourceClaimTemplateName: 'string' }, ['name']),
    ),
  },
  ['containers'],
);
const POD_TEMPLATE = obj({ metadata: obj({ labels: 'labels' }), spec: 'any' });
const WORKLOAD_SPEC = obj({ replicas: 'integer', selector: 'selector', template: POD_TEMPLATE });

const ACCESS_MODES = list('string');
const CEL_SELECTORS = list(obj({ cel: obj({ expression: 'string' }, ['expression']) }));
const DEVICE_REQUEST_FIELDS = {
  deviceClassName: 'string',
  selectors: CEL_SELECTORS,
  allocationMode: 'string',
  count: 'integer',
  adminAccess: 'boolean',
  tolerations: list(TOLERATION),
} as const;
const DEVICE_CLAIM = obj({
  requests: list(
    obj(
      {
        name: 'string',
        exactly: obj(DEVICE_REQUEST_FIELDS, ['deviceClassName']),
        firstAvailable: list(obj({ name: 'string', ...DEVICE_REQUEST_FIELDS }, ['name', 'deviceClassName'])),
      },
      ['name'],
    ),
  ),
  constraints: list(obj({ requests: list('string'), matchAttribute: 'string', distinctAttribute: 'string' })),
});
const DEVICE_RESULT = obj(
  { request: 'string', driver: 'string', pool: 'string', device: 'string', adminAccess: 'boolean' },
  ['request', 'driver', 'pool', 'device'],
);
const DEVICE = obj(
  {
    name: 'string',
    attributes: map('any'),
    capacity: map(obj({ value: 'quantity' }, ['value'])),
    nodeName: 'string',
    allNodes: 'boolean',
    taints: list(TAINT),
  },
  ['name'],
);
const NODE_SELECTOR = obj({ nodeSelectorTerms: list(NODE_SELECTOR_TERM) });

const RULE = obj({
  apiGroups: list('string'),
  apiVersions: list('string'),
  resources: list('string'),
  operations: list('string'),
  scope: 'string',
  resourceNames: list('string'),
});
const MATCH_RESOURCES = obj({
  namespaceSelector: 'selector',
  objectSelector: 'selector',
  resourceRules: list(RULE),
  excludeResourceRules: list(RULE),
  matchPolicy: 'string',
});
const NAMED_EXPRESSION = obj({ name: 'string', expression: 'string' }, ['name', 'expression']);
const WEBHOOK = obj(
  {
    name: 'string',
    rules: list(RULE),
    namespaceSelector: 'selector',
    objectSelector: 'selector',
    matchConditions: list(NAMED_EXPRESSION),
    failurePolicy: 'string',
    sideEffects: 'string',
    timeoutSeconds: 'integer',
    clientConfig: 'any',
  },
  ['name'],
);

const SCHEMA_OF_KIND: Readonly<Record<SnapshotKind, Schema>> = {
  Node: obj(
    {
      metadata: METADATA,
      spec: obj({ unschedulable: 'boolean', taints: list(TAINT) }),
      status: obj({ allocatable: RESOURCES, capacity: RESOURCES, conditions: list(CONDITION) }),
    },
    ['metadata'],
  ),
  Pod: obj(
    {
      metadata: METADATA,
      spec: POD_SPEC,
      status: obj({
        phase: 'string',
        nominatedNodeName: 'string',
        startTime: 'timestamp',
        conditions: list(CONDITION),
        containerStatuses: list(CONTAINER_STATUS),
        initContainerStatuses: list(CONTAINER_STATUS),
        resourceClaimStatuses: list(obj({ name: 'string', resourceClaimName: 'string' }, ['name'])),
      }),
    },
    ['metadata', 'spec'],
  ),
  PodDisruptionBudget: obj(
    {
      metadata: METADATA,
      spec: obj({
        selector: 'selector',
        minAvailable: 'intOrString',
        maxUnavailable: 'intOrString',
        unhealthyPodEvictionPolicy: 'string',
      }),
      status: obj({
        disruptionsAllowed: 'integer',
        currentHealthy: 'integer',
        desiredHealthy: 'integer',
        expectedPods: 'integer',
        observedGeneration: 'integer',
        conditions: list(CONDITION),
      }),
    },
    ['metadata'],
  ),
  ReplicaSet: obj({ metadata: METADATA, spec: WORKLOAD_SPEC }, ['metadata']),
  Deployment: obj({ metadata: METADATA, spec: WORKLOAD_SPEC }, ['metadata']),
  StatefulSet: obj({ metadata: METADATA, spec: WORKLOAD_SPEC }, ['metadata']),
  DaemonSet: obj({ metadata: METADATA, spec: WORKLOAD_SPEC }, ['metadata']),
  ReplicationController: obj({ metadata: METADATA, spec: obj({ replicas: 'integer', selector: map('string') }) }, [
    'metadata',
  ]),
  Job: obj({ metadata: METADATA, spec: obj({ parallelism: 'integer', completions: 'integer' }) }, ['metadata']),
  Service: obj({ metadata: METADATA, spec: obj({ selector: map('string') }) }, ['metadata']),
  PersistentVolumeClaim: obj(
    {
      metadata: METADATA,
      spec: obj({
        volumeName: 'string',
        storageClassName: 'string',
        accessModes: ACCESS_MODES,
        volumeMode: 'string',
        selector: 'selector',
        resources: RESOURCE_REQUIREMENTS,
      }),
      status: obj({ phase: 'string' }),
    },
    ['metadata'],
  ),
  PersistentVolume: obj(
    {
      metadata: METADATA,
      spec: obj({
        capacity: RESOURCES,
        storageClassName: 'string',
        accessModes: ACCESS_MODES,
        volumeMode: 'string',
        claimRef: obj({ namespace: 'string', name: 'string', uid: 'string' }),
        nodeAffinity: obj({ required: NODE_SELECTOR }),
        csi: obj({ driver: 'string', volumeHandle: 'string' }, ['driver', 'volumeHandle']),
      }),
      status: obj({ phase: 'string' }),
    },
    ['metadata'],
  ),
  StorageClass: obj(
    {
      metadata: METADATA,
      provisioner: 'string',
      volumeBindingMode: 'string',
      allowedTopologies: list(
        obj({ matchLabelExpressions: list(obj({ key: 'string', values: list('string') }, ['key', 'values'])) }),
      ),
    },
    ['metadata', 'provisioner'],
  ),
  CSINode: obj(
    {
      metadata: METADATA,
      spec: obj({
        drivers: list(obj({ name: 'string', nodeID: 'string', allocatable: obj({ count: 'integer' }) }, ['name'])),
      }),
    },
    ['metadata'],
  ),
  CSIDriver: obj({ metadata: METADATA, spec: obj({ storageCapacity: 'boolean' }) }, ['metadata']),
  CSIStorageCapacity: obj(
    {
      metadata: METADATA,
      storageClassName: 'string',
      capacity: 'quantity',
      maximumVolumeSize: 'quantity',
      nodeTopology: 'selector',
    },
    ['metadata', 'storageClassName'],
  ),
  Namespace: obj({ metadata: METADATA }, ['metadata']),
  PriorityClass: obj({ metadata: METADATA, value: 'integer', globalDefault: 'boolean', preemptionPolicy: 'string' }, [
    'metadata',
    'value',
  ]),
  ResourceClaim: obj(
    {
      metadata: METADATA,
      spec: obj({ devices: DEVICE_CLAIM }),
      status: obj({
        allocation: obj({ devices: obj({ results: list(DEVICE_RESULT) }), nodeSelector: NODE_SELECTOR }),
        reservedFor: list(obj({ resource: 'string', name: 'string', uid: 'string' })),
      }),
    },
    ['metadata'],
  ),
  ResourceClaimTemplate: obj(
    { metadata: METADATA, spec: obj({ metadata: 'any', spec: obj({ devices: DEVICE_CLAIM }) }) },
    ['metadata'],
  ),
  DeviceClass: obj({ metadata: METADATA, spec: obj({ selectors: CEL_SELECTORS, extendedResourceName: 'string' }) }, [
    'metadata',
  ]),
  ResourceSlice: obj(
    {
      metadata: METADATA,
      spec: obj(
        {
          driver: 'string',
          pool: obj({ name: 'string', generation: 'integer', resourceSliceCount: 'integer' }, [
            'name',
            'generation',
            'resourceSliceCount',
          ]),
          nodeName: 'string',
          nodeSelector: NODE_SELECTOR,
          allNodes: 'boolean',
          perDeviceNodeSelection: 'boolean',
          devices: list(DEVICE),
        },
        ['driver', 'pool'],
      ),
    },
    ['metadata'],
  ),
  HorizontalPodAutoscaler: obj(
    {
      metadata: METADATA,
      spec: obj(
        {
          scaleTargetRef: obj({ kind: 'string', name: 'string' }, ['kind', 'name']),
          minReplicas: 'integer',
          maxReplicas: 'integer',
        },
        ['scaleTargetRef', 'maxReplicas'],
      ),
    },
    ['metadata', 'spec'],
  ),
  ValidatingAdmissionPolicy: obj(
    {
      metadata: METADATA,
      spec: obj({
        failurePolicy: 'string',
        paramKind: obj({ apiVersion: 'string', kind: 'string' }),
        matchConstraints: MATCH_RESOURCES,
        matchConditions: list(NAMED_EXPRESSION),
        variables: list(NAMED_EXPRESSION),
        validations: list(
          obj({ expression: 'string', message: 'string', messageExpression: 'string', reason: 'string' }, [
            'expression',
          ]),
        ),
      }),
    },
    ['metadata'],
  ),
  ValidatingAdmissionPolicyBinding: obj(
    {
      metadata: METADATA,
      spec: obj({
        policyName: 'string',
        validationActions: list('string'),
        paramRef: obj({ name: 'string', namespace: 'string', selector: 'selector', parameterNotFoundAction: 'string' }),
        matchResources: MATCH_RESOURCES,
      }),
    },
    ['metadata'],
  ),
  ValidatingWebhookConfiguration: obj({ metadata: METADATA, webhooks: list(WEBHOOK) }, ['metadata']),
  MutatingWebhookConfiguration: obj({ metadata: METADATA, webhooks: list(WEBHOOK) }, ['metadata']),
};

let compiled: Readonly<Record<SnapshotKind, Check>> | undefined;

/** Each kind's schema compiled once, on first use (a plan of the live cluster never needs them). */
function checkOf(kind: SnapshotKind): Check {
  compiled ??= Object.fromEntries(
    Object.entries(SCHEMA_OF_KIND).map(([name, schema]) => [name, compile(schema)]),
  ) as Record<SnapshotKind, Check>;
  return compiled[kind];
}

/**
 * A problem below a value: `at` is the path from that value (`.spec.containers[0]`), built only on the
 * way back from a problem, so that checking a valid object builds no strings at all.
 */
interface Found {
  readonly at: string;
  readonly problem: string;
}

const found = (problem: string): Found => ({ at: '', problem });
const under = (segment: string, inner: Found): Found => ({ at: `${segment}${inner.at}`, problem: inner.problem });

/** A schema compiled to a function: walking the schema's description again for every object costs more. */
type Check = (value: unknown) => Found | null;

function compile(schema: Schema): Check {
  if (typeof schema === 'string') return LEAF_CHECKS[schema];
  if ('list' in schema) return compileList(compile(schema.list), schema.nonEmpty === true);
  if ('map' in schema) return compileMap(compile(schema.map));
  return compileObject(schema.object, schema.required ?? []);
}

function compileList(element: Check, nonEmpty: boolean): Check {
  return (value) => {
    if (!Array.isArray(value)) return found(`${describe(value)}, not a list`);
    if (nonEmpty && value.length === 0) return found('must have at least one element');
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const inner = item === null || item === undefined ? found('is null') : element(item);
      if (inner) return under(`[${i}]`, inner);
    }
    return null;
  };
}

function compileMap(element: Check): Check {
  return (value) => {
    if (!isRecord(value)) return found(`${describe(value)}, not an object`);
    for (const key in value) {
      const inner = element(value[key]);
      if (inner) return under(`[${quoted(key)}]`, inner);
    }
    return null;
  };
}

function compileObject(fields: Readonly<Record<string, Schema>>, required: readonly string[]): Check {
  const names = Object.keys(fields);
  const checks = names.map((name) => compile(fields[name]!));
  return (value) => {
    if (!isRecord(value)) return found(`${describe(value)}, not an object`);
    for (const field of required) {
      if (value[field] === undefined || value[field] === null) return under(`.${field}`, found('is required'));
    }
    for (let i = 0; i < names.length; i++) {
      const element = value[names[i]!];
      if (element === undefined || element === null) continue;
      const inner = checks[i]!(element);
      if (inner) return under(`.${names[i]!}`, inner);
    }
    return null;
  };
}

/**
 * The form the API server writes (RFC 3339, fields in range): every such string is one Date.parse accepts,
 * and this test costs a sixth of Date.parse, which remains the judge of any other form.
 */
const RFC3339 =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

const LEAF_CHECKS: Readonly<Record<Leaf, Check>> = {
  any: () => null,
  string: (value) => (typeof value === 'string' ? null : wrongType(value, 'not a string')),
  boolean: (value) => (typeof value === 'boolean' ? null : wrongType(value, 'not true or false')),
  integer: (value) => (Number.isSafeInteger(value) ? null : wrongType(value, 'not an integer')),
  intOrString: (value) =>
    Number.isSafeInteger(value) || typeof value === 'string' ? null : wrongType(value, 'not an integer or a string'),
  timestamp: (value) =>
    value instanceof Date || (typeof value === 'string' && (RFC3339.test(value) || !Number.isNaN(Date.parse(value))))
      ? null
      : wrongType(value, 'not a timestamp'),
  quantity: (value) => {
    const reason = quantityProblem(value);
    return reason ? found(reason) : null;
  },
  labels: (value) => labelsProblem(value),
  selector: (value) => {
    const reason = labelSelectorProblem(value);
    return reason ? { at: reason.field, problem: reason.problem } : null;
  },
};

const wrongType = (value: unknown, what: string): Found => found(`${describe(value)}, ${what}`);

function labelsProblem(value: unknown): Found | null {
  if (!isRecord(value)) return found(`${describe(value)}, not a map of labels`);
  for (const key in value) {
    const label = value[key];
    const problem =
      typeof label !== 'string'
        ? `${describe(label)}, not a string`
        : (labelKeyProblem(key) ?? labelValueProblem(label));
    if (problem) return under(`[${quoted(key)}]`, found(problem));
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------
// What the types cannot say

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const PERCENT = /^(\d+)%$/;

function semanticProblem(kind: SnapshotKind, object: Record<string, unknown>): string | null {
  const metadata = object.metadata as Record<string, unknown>;
  const name = metadata.name as string;
  if (name.length > 253 || !DNS1123_SUBDOMAIN.test(name)) {
    return `metadata.name: ${quoted(name)} is not a valid name (lowercase alphanumerics, '-' and '.', at most 253)`;
  }
  const namespace = metadata.namespace;
  if (typeof namespace === 'string' && namespace !== '' && (namespace.length > 63 || !DNS1123_LABEL.test(namespace))) {
    return `metadata.namespace: ${quoted(namespace)} is not a valid namespace (lowercase alphanumerics and '-', at most 63)`;
  }
  return kind === 'PodDisruptionBudget' ? budgetProblem((object.spec ?? {}) as Record<string, unknown>) : null;
}

/** ValidatePodDisruptionBudgetSpec: one of minAvailable or maxUnavailable, each an int >= 0 or 0-100 %. */
function budgetProblem(spec: Record<string, unknown>): string | null {
  const { minAvailable, maxUnavailable } = spec;
  const has = (v: unknown) => v !== undefined && v !== null;
  if (has(minAvailable) && has(maxUnavailable)) {
    return 'spec: minAvailable and maxUnavailable cannot both be set';
  }
  for (const [field, value] of [
    ['minAvailable', minAvailable],
    ['maxUnavailable', maxUnavailable],
  ] as const) {
    if (!has(value)) continue;
    if (typeof value === 'number' && value < 0) return `spec.${field}: ${value} must be greater than or equal to 0`;
    if (typeof value === 'string') {
      const m = PERCENT.exec(value);
      if (!m) return `spec.${field}: ${quoted(value)} is not an integer or a percentage ("50%")`;
      if (Number(m[1]) > 100) return `spec.${field}: ${quoted(value)} must not be greater than 100%`;
    }
  }
  return null;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return `the string ${quoted(value)}`;
    case 'number':
    case 'boolean':
      return `${typeof value} ${String(value)}`;
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
