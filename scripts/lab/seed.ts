// seed SCENARIO (npm run lab -- seed): resets the lab's workloads and nodes, applies the scenario's steps
// (scripts/lab/scenarios/SCENARIO.steps: one line per step, kustomize directories applied together) and
// waits after each step until it has settled: nodes Ready, rollouts complete, every pod Ready, and every
// budget's status observed by the disruption controller.
//
// It talks to the API server itself, over one kept-alive connection, and reads the state it waits for
// every 100 ms. The shell version before it started kubectl some forty times per seed, each start a
// Go binary reading its discovery cache: a seed took about 10 s of a loaded 2-core CI run, and the e2e
// suite seeds some sixty times. Run by Node 26 as it is (`node scripts/lab/seed.ts SCENARIO`, through
// seed.sh) and imported by the e2e tests (test/e2e/lab.ts), which seed without starting a process.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, fetch } from 'undici';
import { parse, parseAllDocuments } from 'yaml';

const SCENARIOS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'scenarios');
const SCENARIO_LABEL = 'lab.kubectl-maint.io/scenario=true';
const NUDGED = 'lab.kubectl-maint.io/nudged';
const READY_DELAY = 'lab.kubectl-maint.io/ready-delay';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
/** How often a wait reads the state again: one small request to a local API server. */
const POLL_MS = 100;

/** The API objects a scenario may hold, by apiVersion/kind: their resource and whether it is namespaced. */
const RESOURCES: Record<string, { readonly plural: string; readonly namespaced: boolean }> = {
  'v1/Namespace': { plural: 'namespaces', namespaced: false },
  'v1/Node': { plural: 'nodes', namespaced: false },
  'v1/Pod': { plural: 'pods', namespaced: true },
  'v1/Service': { plural: 'services', namespaced: true },
  'v1/ServiceAccount': { plural: 'serviceaccounts', namespaced: true },
  'v1/ConfigMap': { plural: 'configmaps', namespaced: true },
  'apps/v1/Deployment': { plural: 'deployments', namespaced: true },
  'apps/v1/StatefulSet': { plural: 'statefulsets', namespaced: true },
  'apps/v1/DaemonSet': { plural: 'daemonsets', namespaced: true },
  'apps/v1/ReplicaSet': { plural: 'replicasets', namespaced: true },
  'batch/v1/Job': { plural: 'jobs', namespaced: true },
  'policy/v1/PodDisruptionBudget': { plural: 'poddisruptionbudgets', namespaced: true },
  'scheduling.k8s.io/v1/PriorityClass': { plural: 'priorityclasses', namespaced: false },
  'v1/PersistentVolume': { plural: 'persistentvolumes', namespaced: false },
  'v1/PersistentVolumeClaim': { plural: 'persistentvolumeclaims', namespaced: true },
  'storage.k8s.io/v1/StorageClass': { plural: 'storageclasses', namespaced: false },
  'storage.k8s.io/v1/CSINode': { plural: 'csinodes', namespaced: false },
  'resource.k8s.io/v1/DeviceClass': { plural: 'deviceclasses', namespaced: false },
  'resource.k8s.io/v1/ResourceSlice': { plural: 'resourceslices', namespaced: false },
  'resource.k8s.io/v1/ResourceClaimTemplate': { plural: 'resourceclaimtemplates', namespaced: true },
  'resource.k8s.io/v1/ResourceClaim': { plural: 'resourceclaims', namespaced: true },
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy': {
    plural: 'validatingadmissionpolicies',
    namespaced: false,
  },
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding': {
    plural: 'validatingadmissionpolicybindings',
    namespaced: false,
  },
  'admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration': {
    plural: 'validatingwebhookconfigurations',
    namespaced: false,
  },
  'admissionregistration.k8s.io/v1/MutatingWebhookConfiguration': {
    plural: 'mutatingwebhookconfigurations',
    namespaced: false,
  },
};

/**
 * The cluster-scoped storage, DRA and admission objects a scenario makes (with its label); a reset deletes them after
 * the claims.
 */
const CLUSTER_STORAGE = [
  '/api/v1/persistentvolumes',
  '/apis/storage.k8s.io/v1/storageclasses',
  '/apis/storage.k8s.io/v1/csinodes',
  '/apis/resource.k8s.io/v1/deviceclasses',
  '/apis/resource.k8s.io/v1/resourceslices',
  '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings',
  '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies',
  '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
  '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations',
];

/** What a reset deletes in each scenario namespace first, so that no controller recreates a pod. */
const WORKLOADS = [
  '/apis/apps/v1/namespaces/NS/deployments',
  '/apis/apps/v1/namespaces/NS/statefulsets',
  '/apis/apps/v1/namespaces/NS/replicasets',
  '/apis/apps/v1/namespaces/NS/daemonsets',
  '/apis/batch/v1/namespaces/NS/jobs',
  '/api/v1/namespaces/NS/replicationcontrollers',
];

interface Condition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
}
/** An API object as a scenario holds it (what seedObjects applies). */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    ownerReferences?: Array<{ kind: string; name: string; uid: string; controller?: boolean }>;
    generation?: number;
    creationTimestamp?: string;
    deletionTimestamp?: string;
    finalizers?: string[];
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  // Each kind's own fields, read where needed.
  spec?: Record<string, unknown> & { replicas?: number; nodeName?: string };
  status?: Record<string, unknown> & { phase?: string; conditions?: Condition[]; observedGeneration?: number };
}

export interface SeedOptions {
  /** The lab's admin kubeconfig (client certificate and CA data inline, as `lab up` writes it). */
  readonly kubeconfig: string;
  /** The lab's kubectl, used only to render the kustomize directories and to describe a failure. */
  readonly kubectl: string;
  /** Progress and nudges, one line each; the error of a failed seed carries them too. */
  readonly log?: (line: string) => void;
  /**
   * How long a step may take to settle (rollouts, pods Ready), in seconds; GUARD_SECONDS unless set. A generated
   * cluster (scripts/fidelity) gives up sooner on one whose pods cannot all be placed.
   */
  readonly settleSeconds?: number;
}

/** A minimal client of the lab's API server: JSON in and out, the kubeconfig's client certificate. */
export class LabApi {
  readonly server: string;
  readonly dispatcher: Agent;
  /**
   * The kubeconfig's CA and client certificate and key (PEM): the lab's admin, also to the scheduler's
   * /metrics, which serves a certificate of the lab CA.
   */
  readonly client: { readonly ca: Buffer; readonly cert: Buffer; readonly key: Buffer };

  constructor(kubeconfig: string) {
    interface Named<T> {
      name: string;
      [key: string]: T | string;
    }
    const config = parse(readFileSync(kubeconfig, 'utf8')) as {
      'current-context': string;
      contexts: Named<{ cluster: string; user: string }>[];
      clusters: Named<{ server: string; 'certificate-authority-data': string }>[];
      users: Named<{ 'client-certificate-data': string; 'client-key-data': string }>[];
    };
    const pick = <T>(list: Named<T>[], name: string, key: string): T => {
      const entry = list.find((e) => e.name === name)?.[key];
      if (!entry || typeof entry === 'string') throw new Error(`lab: no ${key} named ${name} in ${kubeconfig}`);
      return entry;
    };
    const context = pick(config.contexts, config['current-context'], 'context');
    const cluster = pick(config.clusters, context.cluster, 'cluster');
    const user = pick(config.users, context.user, 'user');
    const pem = (b64: string) => Buffer.from(b64, 'base64');
    this.server = cluster.server;
    this.client = {
      ca: pem(cluster['certificate-authority-data']),
      cert: pem(user['client-certificate-data']),
      key: pem(user['client-key-data']),
    };
    this.dispatcher = new Agent({ connect: this.client });
  }

  /** One request; the answer's status and parsed body (an API Status on failure). */
  async call(
    method: string,
    url: string,
    body?: unknown,
    contentType = 'application/json',
    accept = 'application/json',
  ): Promise<{ status: number; body: { message?: string; items?: KubeObject[] } & Partial<KubeObject> }> {
    const response = await fetch(this.server + url, {
      method,
      dispatcher: this.dispatcher,
      headers: { accept, ...(body === undefined ? {} : { 'content-type': contentType }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const json = response.headers.get('content-type')?.startsWith('application/json');
    return { status: response.status, body: json ? JSON.parse(text) : { message: text } };
  }

  /** Like call, but a failure (other than the statuses in `allow`) throws with the API's message. */
  async must(method: string, url: string, body?: unknown, contentType?: string, allow: readonly number[] = []) {
    const answer = await this.call(method, url, body, contentType);
    if (answer.status >= 300 && !allow.includes(answer.status)) {
      throw new Error(`lab: ${method} ${url}: ${answer.status} ${answer.body.message ?? ''}`.trim());
    }
    return answer.body;
  }

  async list(url: string, labelSelector?: string): Promise<KubeObject[]> {
    const query = labelSelector ? `?labelSelector=${encodeURIComponent(labelSelector)}` : '';
    return (await this.must('GET', url + query)).items ?? [];
  }

  /** Deletes a collection; `query` carries the delete options (gracePeriodSeconds, propagationPolicy…). */
  async deleteAll(url: string, query = ''): Promise<void> {
    await this.must('DELETE', `${url}${query ? `?${query}` : ''}`, undefined, undefined, [404]);
  }
}

/** The steps of a scenario: each a list of kustomize directories under scenarios/. */
export function scenarioSteps(scenario: string): string[][] {
  const file = path.join(SCENARIOS, `${scenario}.steps`);
  if (!existsSync(file)) {
    const known = readdirSync(SCENARIOS)
      .filter((f) => f.endsWith('.steps'))
      .map((f) => f.replace(/\.steps$/, ''));
    throw new Error(`lab: unknown scenario '${scenario}' (one of: ${known.join(' ')})`);
  }
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean)
    .map((line) => line.split(/\s+/));
}

/**
 * kustomize's output for a directory: rendered by the lab's kubectl once, then read from the lab's
 * directory (each e2e file seeds from a fresh module) under a hash of every scenario file.
 */
const rendered = new Map<string, KubeObject[]>();
function render(kubectl: string, cacheDir: string, dir: string): KubeObject[] {
  const key = `${scenariosHash()}/${dir}`;
  let objects = rendered.get(key);
  if (!objects) {
    const file = path.join(cacheDir, 'rendered', scenariosHash(), `${dir.replaceAll('/', '_')}.json`);
    if (existsSync(file)) {
      objects = JSON.parse(readFileSync(file, 'utf8')) as KubeObject[];
    } else {
      const yaml = execFileSync(kubectl, ['kustomize', path.join(SCENARIOS, dir)], { encoding: 'utf8' });
      objects = parseAllDocuments(yaml)
        .map((doc) => doc.toJS() as KubeObject | null)
        .filter((o): o is KubeObject => o !== null);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(`${file}.${process.pid}`, JSON.stringify(objects));
      renameSync(`${file}.${process.pid}`, file);
    }
    rendered.set(key, objects);
  }
  return objects.map((o) => structuredClone(o));
}

let hash: string | undefined;
function scenariosHash(): string {
  if (!hash) {
    const digest = createHash('sha256');
    for (const file of readdirSync(SCENARIOS, { recursive: true, encoding: 'utf8' }).sort()) {
      const full = path.join(SCENARIOS, file);
      if (statSync(full).isFile()) digest.update(`${file}\0`).update(readFileSync(full)).update('\0');
    }
    hash = digest.digest('hex').slice(0, 16);
  }
  return hash;
}

function resourceUrl(object: KubeObject, withName: boolean): string {
  const resource = RESOURCES[`${object.apiVersion}/${object.kind}`];
  if (!resource) {
    throw new Error(`lab: a scenario holds a ${object.apiVersion} ${object.kind}: add it to RESOURCES in seed.ts`);
  }
  const group = object.apiVersion.includes('/') ? `/apis/${object.apiVersion}` : `/api/${object.apiVersion}`;
  const namespace = resource.namespaced ? `/namespaces/${object.metadata.namespace ?? 'default'}` : '';
  return `${group}${namespace}/${resource.plural}${withName ? `/${object.metadata.name}` : ''}`;
}

/** JSON with its keys sorted, as kubectl writes the last-applied annotation (Go marshals maps sorted). */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${sortedJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Creates the object as `kubectl apply` would (with its last-applied annotation, so that a test's own
 * `kubectl apply` of it later merges as usual); an object that exists already is merge-patched.
 */
async function apply(api: LabApi, object: KubeObject): Promise<void> {
  const applied = sortedJson(object) + '\n';
  object.metadata.annotations = { ...object.metadata.annotations, [LAST_APPLIED]: applied };
  const created = await api.call('POST', resourceUrl(object, false), object);
  if (created.status === 409) {
    // A namespace kept by the reset (or an object a step applies again): its metadata and spec become
    // the scenario's, whatever a test added to them.
    const live = (await api.must('GET', resourceUrl(object, true))) as KubeObject;
    live.metadata.labels = object.metadata.labels ?? {};
    live.metadata.annotations = object.metadata.annotations;
    if (object.spec) live.spec = object.spec;
    await api.must('PUT', resourceUrl(object, true), live);
  } else if (created.status >= 300) {
    const name = `${object.kind} ${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name}`;
    throw new Error(`lab: creating ${name}: ${created.status} ${created.body.message ?? ''}`.trim());
  }
}

const names = (objects: readonly KubeObject[]) => objects.map((o) => o.metadata.name);
const isTrue = (object: KubeObject, type: string) =>
  object.status?.conditions?.some((c) => c.type === type && c.status === 'True') ?? false;
const num = (value: unknown) => (typeof value === 'number' ? value : 0);

class TimedOut extends Error {}

/** A scenario that did not settle, its message already carrying the progress and the lab's state. */
class NotSettled extends Error {}

/**
 * How long a wait of the seed is given before it fails, unless its caller chose (a generated cluster
 * gives up sooner). It guards against a lab that hangs and is no speed check: on a 2-core CI machine
 * under load, KWOK's heartbeats and the controller-manager's reactions have taken more than the one or
 * two minutes an idle machine never comes near.
 */
const GUARD_SECONDS = 240;

/** Reads `check` every POLL_MS until it holds; throws after `seconds`. */
async function waitFor(seconds: number, what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new TimedOut(`timed out after ${seconds}s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The lab's own policy and binding of keepParamInformer: no scenario label, so no reset deletes them. */
const PARAM_ANCHOR = 'lab-configmap-params-anchor';

/**
 * Makes sure a binding always uses ConfigMap params, with a policy that matches no request. The API
 * server stops its informer of a built-in paramKind for good once no binding uses that kind for a moment
 * (kubernetes/kubernetes#133827): until a restart it then denies every binding of that kind "no params
 * found" (before 1.37) or judges with the params it saw last. A reset deletes every scenario's bindings,
 * so without this one each later scenario's policies would meet that frozen cache, the lab's history
 * rather than the scenario. Made before the first reset of a lab; a lab whose cache froze before needs a
 * restart.
 */
async function keepParamInformer(api: LabApi): Promise<void> {
  const admission = '/apis/admissionregistration.k8s.io/v1';
  const policy = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: PARAM_ANCHOR },
    spec: {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: {
        resourceRules: [
          {
            apiGroups: ['lab.kubectl-maint.invalid'],
            apiVersions: ['v1'],
            operations: ['CREATE'],
            resources: ['anchors'],
          },
        ],
      },
      validations: [{ expression: 'true' }],
    },
  };
  const binding = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: PARAM_ANCHOR },
    spec: {
      policyName: PARAM_ANCHOR,
      paramRef: { name: PARAM_ANCHOR, namespace: 'default', parameterNotFoundAction: 'Allow' },
      validationActions: ['Deny'],
    },
  };
  await api.must('POST', `${admission}/validatingadmissionpolicies`, policy, undefined, [409]);
  await api.must('POST', `${admission}/validatingadmissionpolicybindings`, binding, undefined, [409]);
}

/**
 * Force-deletes so that nothing lingers for a grace period: this is the lab's own teardown, not a drain.
 * Order matters: the workloads go first (so no controller recreates what is force-deleted next), then
 * every pod, then the rest of each scenario namespace, then the nodes and their leases.
 */
async function reset(api: LabApi, creates: ReadonlySet<string>): Promise<void> {
  const scenarioNamespaces = await api.list('/api/v1/namespaces', SCENARIO_LABEL);
  const namespaces = names(scenarioNamespaces);
  const background = 'propagationPolicy=Background';
  const scenarioDaemonSets = '/apis/apps/v1/namespaces/kube-system/daemonsets';
  await Promise.all([
    api.deleteAll(scenarioDaemonSets, `labelSelector=${encodeURIComponent(SCENARIO_LABEL)}&${background}`),
    ...namespaces.flatMap((ns) => WORKLOADS.map((url) => api.deleteAll(url.replace('NS', ns), background))),
  ]);
  // Applying a DaemonSet of the same name while the old one is still being deleted fails with
  // "object has been deleted"; its old pods must not be adopted by the new one either.
  await waitFor(GUARD_SECONDS, 'scenario DaemonSets to be deleted', async () => {
    return (await api.list(scenarioDaemonSets, SCENARIO_LABEL)).length === 0;
  });
  for (const ns of namespaces) {
    await waitFor(GUARD_SECONDS, `the workloads of ${ns} to be deleted`, async () => {
      const left = await Promise.all(WORKLOADS.map((url) => api.list(url.replace('NS', ns))));
      return left.every((items) => items.length === 0);
    });
  }
  await waitFor(GUARD_SECONDS, 'every pod to be deleted', () => forceDeletePods(api));
  // Each namespace is emptied at once. The ones this scenario creates again are kept; the others are
  // deleted and waited for: a test may create one of them again right after the seed (drain-escalation's).
  const terminating = names(scenarioNamespaces.filter((ns) => ns.metadata.deletionTimestamp));
  const live = namespaces.filter((ns) => !terminating.includes(ns));
  await Promise.all(
    live.map(async (ns) => {
      await purge(api, ns);
      if (!creates.has(ns)) await api.must('DELETE', `/api/v1/namespaces/${ns}`, undefined, undefined, [404, 409]);
    }),
  );
  // Collections, in one request each (a benchmark may leave hundreds of nodes).
  await api.deleteAll('/api/v1/nodes');
  await waitFor(GUARD_SECONDS, 'nodes to be deleted', async () => (await api.list('/api/v1/nodes')).length === 0);
  // A node's Lease outlives it until the garbage collector notices the owner is gone. A node created
  // again under the same name before that would have KWOK renew the old Lease, which the collector
  // then deletes: for a while KWOK thinks it does not hold the node and ignores its pods' updates.
  const leases = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases';
  await api.deleteAll(leases);
  await waitFor(GUARD_SECONDS, 'node leases to be deleted', async () => (await api.list(leases)).length === 0);
  const deleted = namespaces.filter((ns) => terminating.includes(ns) || !creates.has(ns));
  await waitFor(GUARD_SECONDS, 'scenario namespaces to be deleted', async () => {
    const left = new Set(names(await api.list('/api/v1/namespaces')));
    return deleted.every((ns) => !left.has(ns));
  });
  // A PersistentVolume goes once no claim holds it (its protection finalizer): the namespaces were emptied above.
  const scenario = `labelSelector=${encodeURIComponent(SCENARIO_LABEL)}`;
  await Promise.all(CLUSTER_STORAGE.map((url) => api.deleteAll(url, scenario)));
  await waitFor(GUARD_SECONDS, 'scenario storage objects to be deleted', async () => {
    const left = await Promise.all(CLUSTER_STORAGE.map((url) => api.list(url, SCENARIO_LABEL)));
    return left.every((items) => items.length === 0);
  });
}

/**
 * Empties a namespace as the namespace controller would before deleting it: every namespaced resource
 * the API serves, one DELETE of the collection each, all at once. Deleting the namespace and waiting for
 * the controller took seconds per seed (it goes through the resources one after the other); a kept
 * namespace gets its labels and annotations back from the scenario's apply.
 */
async function purge(api: LabApi, namespace: string): Promise<void> {
  const resources = await namespacedResources(api);
  await Promise.all(resources.map((url) => api.deleteAll(url.replace('NS', namespace), 'gracePeriodSeconds=0')));
}

/** The collection URLs (namespace NS) of every namespaced resource that can be deleted as a collection. */
const discovered = new Map<string, Promise<string[]>>();
function namespacedResources(api: LabApi): Promise<string[]> {
  let resources = discovered.get(api.server);
  if (!resources) {
    resources = discover(api);
    discovered.set(api.server, resources);
  }
  return resources;
}

async function discover(api: LabApi): Promise<string[]> {
  interface ResourceList {
    resources: Array<{ name: string; namespaced: boolean; verbs: string[] }>;
  }
  const groups = (await api.must('GET', '/apis')) as { groups?: Array<{ preferredVersion: { groupVersion: string } }> };
  const bases = ['/api/v1', ...(groups.groups ?? []).map((g) => `/apis/${g.preferredVersion.groupVersion}`)];
  const lists = await Promise.all(
    bases.map(async (base) => [base, (await api.must('GET', base)) as ResourceList] as const),
  );
  return lists.flatMap(([base, list]) =>
    list.resources
      .filter((r) => r.namespaced && !r.name.includes('/') && r.verbs.includes('deletecollection'))
      .map((r) => `${base}/namespaces/NS/${r.name}`),
  );
}

/**
 * True once no pod is left; force-deletes the ones it finds (controllers may still be creating some),
 * one DELETE of the collection per namespace with a zero grace period. A pod held by a finalizer (a
 * fault test's) would never go: its finalizers are dropped first.
 */
async function forceDeletePods(api: LabApi): Promise<boolean> {
  const pods = await api.list('/api/v1/pods');
  if (pods.length === 0) return true;
  const held = pods.filter((p) => p.metadata.finalizers?.length);
  await Promise.all(
    held.map((p) =>
      api.call(
        'PATCH',
        `/api/v1/namespaces/${p.metadata.namespace}/pods/${p.metadata.name}`,
        {
          metadata: { finalizers: null },
        },
        'application/merge-patch+json',
      ),
    ),
  );
  const namespaces = new Set(pods.map((p) => p.metadata.namespace ?? 'default'));
  await Promise.all(
    [...namespaces].map((ns) => api.deleteAll(`/api/v1/namespaces/${ns}/pods`, 'gracePeriodSeconds=0')),
  );
  return false;
}

/** kubectl rollout status's test for each kind (kubectl's polymorphichelpers/rollout_status.go). */
function rolledOut(workload: KubeObject): boolean {
  const spec = workload.spec ?? {};
  const status = workload.status ?? {};
  const observed = num(status.observedGeneration) >= num(workload.metadata.generation);
  switch (workload.kind) {
    case 'Deployment': {
      const progressing = status.conditions?.find((c) => c.type === 'Progressing');
      if (progressing?.reason === 'ProgressDeadlineExceeded') {
        throw new Error(`lab: deployment ${workload.metadata.name} exceeded its progress deadline`);
      }
      const updated = num(status.updatedReplicas);
      return (
        observed &&
        (spec.replicas === undefined || updated >= spec.replicas) &&
        num(status.replicas) <= updated &&
        num(status.availableReplicas) >= updated
      );
    }
    case 'DaemonSet': {
      const desired = num(status.desiredNumberScheduled);
      return observed && num(status.updatedNumberScheduled) >= desired && num(status.numberAvailable) >= desired;
    }
    case 'StatefulSet': {
      if (!status.observedGeneration || !observed) return false;
      if (spec.replicas !== undefined && num(status.readyReplicas) < spec.replicas) return false;
      const partition = (spec.updateStrategy as { rollingUpdate?: { partition?: number } } | undefined)?.rollingUpdate
        ?.partition;
      if (partition !== undefined && spec.replicas !== undefined) {
        return num(status.updatedReplicas) >= spec.replicas - partition;
      }
      return status.updateRevision === status.currentRevision;
    }
    default:
      return true;
  }
}

/** No pod is Pending, terminating or unready (Job pods that finished are fine). */
function podsSettled(pods: readonly KubeObject[]): boolean {
  return pods.every(
    (p) =>
      p.status?.phase === 'Succeeded' ||
      (p.status?.phase === 'Running' && !p.metadata.deletionTimestamp && isTrue(p, 'Ready')),
  );
}

/**
 * KWOK 0.8 can lose a pod's next stage. When a node becomes managed (a new node, a new Lease) it
 * re-lists that node's pods and replays the stage it matches on that copy; for a pod it already
 * moved to Running, the stale copy still matches pod-running, and queueing that replay cancels the
 * pod-ready stage queued from the watch. The replay changes nothing, so no event follows and the pod
 * stays unready for ever (seen in CI: DaemonSet pods on the control-plane node that joins in step 2).
 * Touching such a pod gives KWOK the event it lost. Only pods older than NUDGE_AFTER seconds, without
 * a ready-delay of their own, at most once in NUDGE_AFTER seconds each; every nudge is logged.
 */
const NUDGE_AFTER = 15;
class Nudger {
  readonly nudgedAt = new Map<string, number>();
  readonly api: LabApi;
  readonly log: (line: string) => void;

  constructor(api: LabApi, log: (line: string) => void) {
    this.api = api;
    this.log = log;
  }

  async nudgeStuck(pods: readonly KubeObject[]): Promise<void> {
    const now = Date.now() / 1000;
    for (const pod of pods) {
      const { namespace, name, deletionTimestamp, annotations, creationTimestamp } = pod.metadata;
      if (!pod.spec?.nodeName || deletionTimestamp || annotations?.[READY_DELAY]) continue;
      const phase = pod.status?.phase;
      const ready = isTrue(pod, 'Ready');
      if (!(phase === 'Pending' || (phase === 'Running' && !ready))) continue;
      const key = `${namespace}/${name}`;
      if (now - Date.parse(creationTimestamp ?? '') / 1000 < NUDGE_AFTER) continue;
      if (now - (this.nudgedAt.get(key) ?? 0) < NUDGE_AFTER) continue;
      this.nudgedAt.set(key, now);
      this.log(`nudging pod ${key} (${phase}, Ready=${ready}): KWOK has not moved it on for ${NUDGE_AFTER}s`);
      const patch = { metadata: { annotations: { [NUDGED]: String(Math.floor(now)) } } };
      await this.api.call(
        'PATCH',
        `/api/v1/namespaces/${namespace}/pods/${name}`,
        patch,
        'application/merge-patch+json',
      );
    }
  }

  /** The check, nudging stuck pods each time it does not hold yet. */
  orNudge(check: () => Promise<boolean>): () => Promise<boolean> {
    return async () => {
      if (await check()) return true;
      await this.nudgeStuck(await this.api.list('/api/v1/pods'));
      return false;
    };
  }
}

/** Where a pod's controller lives, by kind: the owners a scenario's pods have. */
const OWNER_BASES: Record<string, string> = {
  DaemonSet: '/apis/apps/v1',
  ReplicaSet: '/apis/apps/v1',
  StatefulSet: '/apis/apps/v1',
  Job: '/apis/batch/v1',
};

/**
 * The pods whose controller is gone: no live object of its kind has the uid their controller reference
 * names. `liveOwners` holds the uids of every live object of the OWNER_BASES kinds, listed after the pods
 * were (a pod's controller exists before the pod, so a pod listed first never looks orphaned by a race).
 */
export function orphanedPods(pods: readonly KubeObject[], liveOwners: ReadonlySet<string>): KubeObject[] {
  return pods.filter((pod) => {
    if (pod.metadata.deletionTimestamp) return false;
    const owner = pod.metadata.ownerReferences?.find((o) => o.controller);
    return owner !== undefined && owner.kind in OWNER_BASES && !liveOwners.has(owner.uid);
  });
}

/**
 * Deletes the pods whose controller is gone and says whether there were any. A DaemonSet controller whose
 * informer still holds the DaemonSet a reset deleted can create pods for the nodes a step adds, a moment
 * before the step creates it again (seen on a loaded CI machine: a second kindnet per node, one Pending on
 * a host port, or a second kube-proxy Running and Ready beside the new one). The garbage collector removes
 * such pods, but at its own pace: a test that reads the node before it does finds a pod no scenario made.
 * Every deletion is logged.
 */
async function deleteOrphans(api: LabApi, pods: readonly KubeObject[], log: (line: string) => void): Promise<boolean> {
  // While pods are still starting, only those stuck past NUDGE_AFTER are judged (an orphan Pending on a host
  // port never starts); once every pod has settled, all of them. Otherwise a poll costs one request.
  const now = Date.now() / 1000;
  const stuck = (p: KubeObject) =>
    !podsSettled([p]) && now - Date.parse(p.metadata.creationTimestamp ?? '') / 1000 >= NUDGE_AFTER;
  const judged = podsSettled(pods) ? pods : pods.filter(stuck);
  if (judged.length === 0) return false;
  const owners = await Promise.all(
    Object.entries(OWNER_BASES).map(([kind, base]) => api.list(`${base}/${kind.toLowerCase()}s`)),
  );
  const orphans = orphanedPods(judged, new Set(owners.flat().flatMap((o) => (o.metadata.uid ? [o.metadata.uid] : []))));
  for (const pod of orphans) {
    const { namespace, name } = pod.metadata;
    const owner = pod.metadata.ownerReferences?.find((o) => o.controller);
    log(`deleting pod ${namespace}/${name}: its ${owner?.kind} ${owner?.name} (uid ${owner?.uid}) is gone`);
    await api.call('DELETE', `/api/v1/namespaces/${namespace}/pods/${name}?gracePeriodSeconds=0`);
  }
  return orphans.length > 0;
}

async function settle(api: LabApi, nudger: Nudger, seconds = GUARD_SECONDS): Promise<void> {
  await waitFor(GUARD_SECONDS, 'nodes to be Ready', async () => {
    const nodes = await api.list('/api/v1/nodes');
    return nodes.length > 0 && nodes.every((n) => isTrue(n, 'Ready'));
  });
  const namespaces = [...names(await api.list('/api/v1/namespaces', SCENARIO_LABEL)), 'kube-system'];
  for (const ns of namespaces) {
    await waitFor(GUARD_SECONDS, `the default ServiceAccount in ${ns}`, async () => {
      return (await api.call('GET', `/api/v1/namespaces/${ns}/serviceaccounts/default`)).status === 200;
    });
    for (const kind of ['deployments', 'statefulsets', 'daemonsets']) {
      for (const name of names(await api.list(`/apis/apps/v1/namespaces/${ns}/${kind}`))) {
        const url = `/apis/apps/v1/namespaces/${ns}/${kind}/${name}`;
        await waitFor(
          seconds,
          `${ns}/${kind}/${name} to roll out`,
          nudger.orNudge(async () => rolledOut((await api.must('GET', url)) as KubeObject)),
        );
      }
    }
  }
  await waitFor(
    seconds,
    'every pod to be Running and Ready',
    nudger.orNudge(async () => {
      const pods = await api.list('/api/v1/pods');
      if (await deleteOrphans(api, pods, nudger.log)) return false;
      return podsSettled(pods);
    }),
  );
  // After an API server restart the controller-manager's informers re-list with a backoff: on a loaded
  // machine its disruption controller takes more than a minute to count again.
  await waitFor(seconds, "the disruption controller to count every budget's pods", async () => {
    const budgets = await api.list('/apis/policy/v1/poddisruptionbudgets');
    const counted = await Promise.all(budgets.map((b) => budgetCounted(api, b)));
    return counted.every(Boolean);
  });
}

/**
 * The budget's status is the disruption controller's count of the pods as they are now: observedGeneration
 * says only that the controller has seen the budget once, which it does as soon as the budget exists,
 * often before the pods are Ready (disruptionsAllowed 0). Every pod is Ready by now (podsSettled), so
 * the count is right once currentHealthy is the number of pods the budget selects.
 */
async function budgetCounted(api: LabApi, budget: KubeObject): Promise<boolean> {
  if (budget.status?.observedGeneration !== budget.metadata.generation) return false;
  const selector = labelSelector(budget.spec?.selector as LabelSelector | undefined);
  const pods = await api.list(`/api/v1/namespaces/${budget.metadata.namespace}/pods`, selector);
  return budget.status?.currentHealthy === pods.filter((p) => p.status?.phase !== 'Succeeded').length;
}

interface LabelSelector {
  readonly matchLabels?: Record<string, string>;
  readonly matchExpressions?: ReadonlyArray<{ key: string; operator: string; values?: string[] }>;
}

/** A LabelSelector as the API's labelSelector query (empty: every pod, as policy/v1 reads an empty selector). */
function labelSelector(selector: LabelSelector | undefined): string {
  const terms = Object.entries(selector?.matchLabels ?? {}).map(([key, value]) => `${key}=${value}`);
  for (const { key, operator, values = [] } of selector?.matchExpressions ?? []) {
    const set = `(${values.join(',')})`;
    const term = { In: `${key} in ${set}`, NotIn: `${key} notin ${set}`, Exists: key, DoesNotExist: `!${key}` }[
      operator
    ];
    if (term === undefined) throw new Error(`lab: budget selector operator ${operator} is not known to seed.ts`);
    terms.push(term);
  }
  return terms.join(',');
}

/**
 * Applies one step: its namespaces first (a scenario's objects may live in a namespace it creates), then
 * each directory in turn, as `kubectl apply -k` of each did (the objects of one directory together).
 */
async function applyStep(api: LabApi, groups: readonly KubeObject[][]): Promise<void> {
  const perDir = groups.map((objects) => objects.filter((o) => o.kind !== 'Namespace'));
  const namespaces = groups.flatMap((objects) => objects.filter((o) => o.kind === 'Namespace'));
  await Promise.all(namespaces.map((ns) => apply(api, ns)));
  // ServiceAccount admission rejects pods until the namespace's default ServiceAccount exists.
  for (const ns of names(namespaces)) {
    await waitFor(GUARD_SECONDS, `the default ServiceAccount in ${ns}`, async () => {
      return (await api.call('GET', `/api/v1/namespaces/${ns}/serviceaccounts/default`)).status === 200;
    });
  }
  for (const objects of perDir) {
    await Promise.all(objects.map((o) => apply(api, o)));
    const nodes = names(objects.filter((o) => o.kind === 'Node'));
    if (nodes.length > 0) {
      await waitForSchedulable(api, nodes);
      await schedulerSeesSchedulable(api, nodes);
    }
  }
}

/**
 * The API server's TaintNodesByCondition admission gives every new node `node.kubernetes.io/not-ready`
 * (NoSchedule), which the node lifecycle controller removes some time after KWOK reports Ready. A
 * workload applied in the same step (hello: `nodes/workers system hello`) must find every new node
 * schedulable, or its pods pile onto whichever node lost the taint first: hello's spread honours taints,
 * so all four landed on k8s-node-1 once the in-process seed got fast enough (CI, drain-hello).
 */
const CONTROLLER_TAINTS = new Set(['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']);

async function waitForSchedulable(api: LabApi, nodes: readonly string[]): Promise<void> {
  await waitFor(GUARD_SECONDS, `nodes ${nodes.join(', ')} to be Ready and free of not-ready taints`, async () => {
    const live = await Promise.all(nodes.map((n) => api.must('GET', `/api/v1/nodes/${n}`) as Promise<KubeObject>));
    return live.every((node) => {
      const taints = (node.spec?.taints ?? []) as Array<{ key: string }>;
      return isTrue(node, 'Ready') && !taints.some((t) => CONTROLLER_TAINTS.has(t.key));
    });
  });
}

/**
 * The API server's view of a node is not kube-scheduler's: its informer may still hold the not-ready taint
 * a moment after the API server dropped it, longest on a loaded machine, and hello's four replicas then
 * land unevenly though both nodes are schedulable by the API server's account. A probe pod
 * per node, bound to it by node affinity and tolerating the node's own taints (not the controller's), is
 * bound only once the scheduler itself sees the node schedulable; it is deleted before the step goes on.
 */
async function schedulerSeesSchedulable(api: LabApi, nodes: readonly string[]): Promise<void> {
  const probes = await Promise.all(nodes.map((node) => probePod(api, node)));
  await Promise.all(probes.map((p) => api.must('POST', resourceUrl(p, false), p)));
  await waitFor(GUARD_SECONDS, `kube-scheduler to place a probe pod on each of ${nodes.join(', ')}`, async () => {
    const live = await Promise.all(probes.map((p) => api.must('GET', resourceUrl(p, true)) as Promise<KubeObject>));
    return live.every((pod) => Boolean(pod.spec?.nodeName));
  });
  await Promise.all(
    probes.map((p) => api.must('DELETE', `${resourceUrl(p, true)}?gracePeriodSeconds=0`, undefined, undefined, [404])),
  );
  await waitFor(GUARD_SECONDS, 'the probe pods to be deleted', async () => {
    const answers = await Promise.all(probes.map((p) => api.call('GET', resourceUrl(p, true))));
    return answers.every((a) => a.status === 404);
  });
}

/** A pod only `node` can take, as long as the scheduler sees it free of the controller's taints. */
async function probePod(api: LabApi, node: string): Promise<KubeObject> {
  const live = (await api.must('GET', `/api/v1/nodes/${node}`)) as KubeObject;
  const taints = ((live.spec?.taints ?? []) as Array<{ key: string; effect: string }>).filter(
    (t) => !CONTROLLER_TAINTS.has(t.key),
  );
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `lab-probe-${node}`, namespace: 'default' },
    spec: {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }],
          },
        },
      },
      tolerations: taints.map((t) => ({ key: t.key, operator: 'Exists', effect: t.effect })),
      containers: [{ name: 'probe', image: 'registry.k8s.io/pause:3.10' }],
    },
  } as KubeObject;
}

/** What a failed wait needs to be understood: the lab's nodes, pods and workloads. */
function describeState(kubectl: string, kubeconfig: string): string {
  const get = (...args: string[]) => {
    try {
      return execFileSync(kubectl, [`--kubeconfig=${kubeconfig}`, 'get', ...args], { encoding: 'utf8' });
    } catch (error) {
      return `kubectl get ${args.join(' ')}: ${(error as Error).message}\n`;
    }
  };
  return [
    'lab: state when the scenario did not settle:',
    get('nodes', '-o', 'wide'),
    get('deployments,daemonsets,replicasets,pdb', '-A'),
    get('pods', '-A', '-o', 'wide'),
  ].join('\n');
}

/** Resets the lab and applies `scenario`, waiting after each step until it has settled. */
export async function seedScenario(scenario: string, options: SeedOptions): Promise<void> {
  const steps = scenarioSteps(scenario);
  const rendered = (dir: string) => render(options.kubectl, path.dirname(options.kubeconfig), dir);
  await seedObjects(
    scenario,
    steps.map((dirs) => dirs.map(rendered)),
    options,
  );
}

/**
 * Resets the lab and applies `steps` (each a list of groups of objects, a group applied as one kustomize
 * directory is), waiting after each step until it has settled: a scenario rendered, or a cluster
 * generated in memory (scripts/fidelity). Objects that must go at the next reset carry the scenario label.
 */
export async function seedObjects(
  name: string,
  steps: readonly (readonly KubeObject[][])[],
  options: SeedOptions,
): Promise<void> {
  // Without a log of its own, the caller gets the progress lines in the error of a failed seed.
  const lines: string[] = [];
  const log = (line: string) => (options.log ? options.log(`lab: ${line}`) : lines.push(`lab: ${line}`));
  const api = new LabApi(options.kubeconfig);
  const started = Date.now();
  try {
    const ready = await api
      .call('GET', '/readyz')
      .catch((error: Error) => ({ status: 0, body: { message: error.message } }));
    if (ready.status !== 200)
      throw new Error(`lab: the lab is not up (npm run lab -- up): ${ready.body.message ?? ready.status}`);
    log(`seeding ${name}`);
    await keepParamInformer(api);
    const creates = new Set<string>();
    for (const o of steps.flat(2)) if (o.kind === 'Namespace') creates.add(o.metadata.name);
    await reset(api, creates);
    const nudger = new Nudger(api, log);
    for (const groups of steps) {
      await applyStep(
        api,
        groups.map((objects) => objects.map((o) => structuredClone(o))),
      );
      try {
        await settle(api, nudger, options.settleSeconds);
      } catch (error) {
        if (!(error instanceof TimedOut)) throw error;
        throw new NotSettled(
          [
            `lab: scenario ${name} did not settle: ${error.message}`,
            ...lines,
            describeState(options.kubectl, options.kubeconfig),
          ].join('\n'),
          { cause: error },
        );
      }
    }
    log(`seeded ${name} in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  } catch (error) {
    // A wait that timed out, or a request the API server refused: either way, with the progress so far.
    if (error instanceof NotSettled) throw error;
    const message = (error as Error).message;
    throw new Error([`lab: seeding ${name}: ${message.replace(/^lab: /, '')}`, ...lines].join('\n'), { cause: error });
  } finally {
    await api.dispatcher.close();
  }
}

if (import.meta.main) {
  const scenario = process.argv[2];
  const kubeconfig = process.env.LAB_KUBECONFIG;
  const kubectl = process.env.LAB_KUBECTL;
  if (!kubeconfig || !kubectl) {
    console.error('lab: seed.ts runs through `npm run lab -- seed SCENARIO` (it sets LAB_KUBECONFIG and LAB_KUBECTL)');
    process.exit(2);
  }
  if (!scenario) {
    const known = readdirSync(SCENARIOS).filter((f) => f.endsWith('.steps'));
    console.error(`lab: usage: seed SCENARIO (one of: ${known.map((f) => f.replace(/\.steps$/, '')).join(' ')})`);
    process.exit(2);
  }
  try {
    await seedScenario(scenario, { kubeconfig, kubectl, log: (line) => console.error(line) });
  } catch (error) {
    console.error((error as Error).message.replace(/^lab: /, 'lab: error: '));
    process.exit(1);
  }
}
