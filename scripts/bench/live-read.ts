/**
 * The live-read benchmark: `kubectl maint plan` reading a larger cluster from the lab's real apiserver,
 * against reads of the same apiserver in the same run.
 *
 * The lab gets LIVE_NODES KWOK nodes (3 zones) and LIVE_PODS_PER_NODE pods on each, bound by nodeName
 * (so the scheduler and the controllers are not what is measured) and left to KWOK until every one is
 * Running. Then, alternately, `runs` times each:
 *   - `kubectl get nodes,pods,poddisruptionbudgets,… -A -o json`: the read a plan from a snapshot needs
 *     (the README's snapshot command), the baseline;
 *   - `kubectl maint plan NODE -o json`: reads every kind it uses, in pages, in parallel, and plans;
 *   - `kubectl maint plan -l POOL --max-unavailable 10% -o json`: the pool plan of the first 100 nodes, in
 *     batches of 10;
 *   - `kubectl drain NODE --dry-run=client`: for scale only; it lists the node's own pods and answers far
 *     less (no budgets, no scheduling);
 *   - the user's floor, the one the targets are against: a bare HTTPS client (curl) receiving `GET
 *     /api/v1/pods` and `GET /api/v1/nodes` side by side, read to the end and not parsed;
 *   - a bare HTTP client (curl, one request per kind, all at once) receiving every list the plan reads as
 *     JSON from the watch cache (resourceVersion=0), into /dev/null;
 *   - the same as streaming lists (a watch with sendInitialEvents, up to its closing bookmark): how the
 *     plugin asks for a consistent read from a server before 1.34, or with --chunk-size (from 1.34 it is
 *     one LIST without a resourceVersion; a plan's may come from the watch cache as it is: a LIST, as the
 *     floor's).
 * Reported: median seconds and peak RSS (GNU time, when /usr/bin/time exists), their ratios against kubectl
 * get, and the plans' against the user's floor, the plan's peak RSS against kubectl get's and the run's
 * re-plan, each with its target (TARGETS), and the load average at each round's start.
 *
 * Growing the lab is most of the time at 1,500 nodes: LIVE_KEEP=1 leaves it grown at the end (to profile a
 * plan in it; `npm run lab -- seed hello` resets it), LIVE_REUSE=1 measures a lab left so without growing it,
 * LIVE_GROW=1 grows a lab left so to the size asked for (the nodes and pods it lacks), without resetting it.
 *
 * The GET floor is one LIST of every pod, a short request that the API server ends at its --request-timeout
 * (60 s by default), which tens of thousands of pods on a loaded machine outlast. To measure it there, start
 * the lab with a longer one before growing it: `npm run lab -- down`, then
 * `LAB_APISERVER_REQUEST_TIMEOUT=5m LAB_APISERVER_ETCD_COMPACTION_INTERVAL=2h npm run lab -- up` (a lab
 * already up keeps its own). The second keeps kubectl get's continue tokens alive while it pages: the API
 * server compacts etcd every 5 minutes, and a token older than the compaction is refused as too old.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import type * as Kinds from '../../src/kube/kinds.js';
import type * as Seed from '../lab/seed.js';
import type * as Stats from './stats.js';

// Imported by URL: node runs these scripts from source and resolves a .ts file only by its own name.
const { median, ratio } = (await import(new URL('./stats.ts', import.meta.url).href)) as typeof Stats;
const { KIND_PATHS } = (await import(new URL('../../src/kube/kinds.ts', import.meta.url).href)) as typeof Kinds;
const { LabApi } = (await import(new URL('../lab/seed.ts', import.meta.url).href)) as typeof Seed;
type LabApi = InstanceType<typeof LabApi>;

export interface LiveReadOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly kubectlBin: string;
  readonly maint: string;
  readonly labScript: string;
  readonly runs: number;
}

interface Measure {
  readonly seconds: number;
  readonly rssKiB: number | null;
}

const NAMESPACE = 'bench-read';
const POOL_LABEL = 'bench.kubectl-maint.io/pool';
/** The paths of the lists a plan reads (the autoscalers only with --surge). */
const PLAN_LISTS = Object.entries(KIND_PATHS)
  .filter(([kind]) => kind !== 'HorizontalPodAutoscaler')
  .map(([, list]) => list);

const FLOOR_RAW = 'floor: bare HTTPS GET of pods and nodes';
const FLOOR_GET = 'floor: bare HTTP GET of the lists';
const FLOOR_STREAM = 'floor: bare HTTP streaming lists';
const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

/**
 * The user's floor: a bare HTTPS client (curl) receiving `GET /api/v1/pods` and `GET /api/v1/nodes` side by
 * side, as JSON, read to the end into /dev/null and not parsed: a plain LIST, as any client would first ask
 * (no resourceVersion, no pages, no compression), how long the API server takes to hand the bytes over.
 */
function rawFloorScript(env: NodeJS.ProcessEnv): string {
  const kubeconfig = env.KUBECONFIG ?? '';
  const server = /server: (\S+)/.exec(readFileSync(kubeconfig, 'utf8'))?.[1] ?? '';
  const pki = path.join(path.dirname(kubeconfig), 'pki');
  const curl = `curl -sf -A kubectl-maint-bench-floor --cacert "${pki}/ca.crt" --cert "${pki}/admin.crt" --key "${pki}/admin.key" -H 'Accept: application/json' -o /dev/null`;
  return [
    `${curl} '${server}/api/v1/pods' &`,
    `${curl} '${server}/api/v1/nodes' &`,
    'for job in $(jobs -p); do wait "$job" || exit 1; done',
  ].join('\n');
}

/**
 * curl, once per list, all at once, as the lab's admin (its PKI beside the kubeconfig), into /dev/null.
 * `streaming`: a watch with sendInitialEvents, read up to the bookmark that closes the initial events
 * (grep stops there; the watch would go on, so curl is stopped then).
 */
function floorScript(env: NodeJS.ProcessEnv, streaming: boolean): string {
  const kubeconfig = env.KUBECONFIG ?? '';
  const server = /server: (\S+)/.exec(readFileSync(kubeconfig, 'utf8'))?.[1] ?? '';
  const pki = path.join(path.dirname(kubeconfig), 'pki');
  // A User-Agent of its own: the API server pretty-prints JSON for one that starts with "curl", twice the bytes.
  const curl = `curl -sfN -A kubectl-maint-bench-floor --cacert "${pki}/ca.crt" --cert "${pki}/admin.crt" --key "${pki}/admin.key" -H 'Accept: application/json'`;
  const query = streaming
    ? 'watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=0&allowWatchBookmarks=true'
    : 'resourceVersion=0';
  const gets = PLAN_LISTS.map((list) =>
    streaming
      ? `(exec 3< <(${curl} '${server}${list}?${query}'); reader=$!; grep -qF '${INITIAL_EVENTS_END}' <&3 || exit 1; kill $reader) &`
      : `${curl} -o /dev/null '${server}${list}?${query}' &`,
  );
  return [...gets, 'for job in $(jobs -p); do wait "$job" || exit 1; done'].join('\n');
}
const GNU_TIME = '/usr/bin/time';

export async function runLiveReadBench(options: LiveReadOptions): Promise<{ text: string; passed: boolean }> {
  const nodes = Number(process.env.LIVE_NODES ?? 500);
  const podsPerNode = Number(process.env.LIVE_PODS_PER_NODE ?? 30);
  const keep = process.env.LIVE_KEEP === '1';
  try {
    const grow = process.env.LIVE_GROW === '1';
    if (process.env.LIVE_REUSE !== '1') await populate(options, nodes, podsPerNode, { grow });
    const before = await podPhases(options.env);
    const node = 'bench-node-1';
    const commands = {
      'kubectl get -o json': [options.kubectlBin, ...snapshotRead()],
      [FLOOR_RAW]: ['bash', '-c', rawFloorScript(options.env)],
      [FLOOR_GET]: ['bash', '-c', floorScript(options.env, false)],
      [FLOOR_STREAM]: ['bash', '-c', floorScript(options.env, true)],
      'kubectl maint plan': [
        process.execPath,
        options.maint,
        'plan',
        node,
        '--ignore-daemonsets',
        '--force',
        '-o',
        'json',
      ],
      'kubectl maint plan (100-node pool)': [
        process.execPath,
        options.maint,
        'plan',
        '-l',
        `${POOL_LABEL}=first-100`,
        '--max-unavailable',
        '10%',
        '--ignore-daemonsets',
        '--force',
        '-o',
        'json',
      ],
      'kubectl drain --dry-run=client': [
        options.kubectlBin,
        ...['drain', node, '--dry-run=client', '--ignore-daemonsets', '--force'],
      ],
    };
    const results = new Map<string, Measure[]>(Object.keys(commands).map((name) => [name, []]));
    const loads: number[] = [];
    for (let i = 0; i < options.runs; i += 1) {
      loads.push(loadavg()[0] ?? 0);
      for (const [name, argv] of Object.entries(commands)) {
        let measure: Measure;
        try {
          measure = timed(argv, options.env);
        } catch (err) {
          // One LIST of every pod is a short request: the API server ends it at its request timeout (60 s
          // unless the lab was started with LAB_APISERVER_REQUEST_TIMEOUT), which a loaded API server with
          // tens of thousands of pods can reach. The streaming lists stand in.
          if (name !== FLOOR_GET && name !== FLOOR_RAW) throw err;
          console.error(`bench: live-read: ${name} failed (${/exit \d+/.exec(String(err))?.[0] ?? String(err)})`);
          continue;
        }
        results.get(name)!.push(measure);
        const rss = measure.rssKiB === null ? '' : `, peak RSS ${(measure.rssKiB / 1024).toFixed(0)} MiB`;
        console.error(`bench: live-read: ${name} ${measure.seconds.toFixed(2)}s${rss}`);
      }
    }
    const after = await podPhases(options.env);
    const plans = report(results, loads, nodes, podsPerNode, options.runs);
    // Said before the re-plan's measure, which a failure there would otherwise take with it.
    console.error(plans.text);
    const replan = measureReplan(options, node);
    const phases = `bench pods Running: ${before.running} of ${before.all} at the start, ${after.running} of ${after.all} after the runs`;
    return { text: `${plans.text}\n${replan.text}\n${phases}`, passed: plans.passed && replan.passed };
  } finally {
    // Leave the lab as the other benchmarks and the tests expect it: hello, not 15,000 extra pods.
    if (!keep) spawnSync('bash', [options.labScript, 'seed', 'hello'], { env: options.env, stdio: 'ignore' });
  }
}

/** `kubectl get` of every kind a plan reads: what a snapshot file holds. */
export function snapshotRead(): string[] {
  const kinds = 'nodes,pods,poddisruptionbudgets,replicasets,deployments,statefulsets,daemonsets,services';
  return ['get', kinds, '-A', '-o', 'json'];
}

/** Requests in flight while the lab is grown: the API server's, KWOK's and etcd's pace, not the client's. */
const CREATE_CONCURRENCY = 32;

/**
 * hello (to reset the lab), then the extra nodes and pods, and waits until KWOK has every pod Running.
 * The objects are created over the API itself, CREATE_CONCURRENCY at a time: `kubectl create -f` sends one
 * request after the other through client-go's rate limiter (5 requests/s, bursts of 10), so that four of
 * them side by side made 20 pods a second, half an hour for 45,000. `grow`: no reset; only the bench nodes
 * and pods the lab lacks are created (a lab grown to 1,000 nodes grows to 1,500 in the time of the 500).
 */
export async function populate(
  options: Pick<LiveReadOptions, 'env' | 'labScript'>,
  nodes: number,
  podsPerNode: number,
  { grow = false } = {},
): Promise<void> {
  if (!grow) {
    must(spawnSync('bash', [options.labScript, 'seed', 'hello'], { env: options.env, encoding: 'utf8' }), 'lab seed');
  }
  const api = new LabApi(options.env.KUBECONFIG ?? '');
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)}s`;
  const existing = grow ? await benchNames(api) : { nodes: new Set<string>(), pods: new Set<string>() };
  await createAll(
    api,
    '/api/v1/nodes',
    Array.from({ length: nodes }, (_, i) => benchNode(i + 1)).filter((n) => !existing.nodes.has(n.metadata.name)),
  );
  console.error(`bench: live-read: ${nodes} nodes created (${elapsed()})`);
  // The lab's seed deletes scenario namespaces (and every node) when it resets.
  await createAll(api, '/api/v1/namespaces', [
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: NAMESPACE, labels: { 'lab.kubectl-maint.io/scenario': 'true' } },
    },
  ]);
  // ServiceAccount admission refuses pods until the controller-manager has made the namespace's default one.
  await until(60, 'the default ServiceAccount of the bench namespace', async () => {
    return (await api.call('GET', `/api/v1/namespaces/${NAMESPACE}/serviceaccounts/default`)).status === 200;
  });
  const pods = [];
  for (let n = 1; n <= nodes; n += 1) {
    for (let j = 0; j < podsPerNode; j += 1) if (!existing.pods.has(`p-${n}-${j}`)) pods.push(benchPod(n, j));
  }
  await createAll(api, `/api/v1/namespaces/${NAMESPACE}/pods`, pods, (done) => {
    if (done % 5000 === 0) console.error(`bench: live-read: ${done} pods created (${elapsed()})`);
  });
  console.error(`bench: live-read: ${pods.length} pods created (${elapsed()}); waiting for KWOK to run them`);
  const notRunning = `/api/v1/namespaces/${NAMESPACE}/pods?fieldSelector=${encodeURIComponent('status.phase!=Running')}&limit=1`;
  try {
    await until(1200, 'KWOK to run every bench pod', async () => {
      const answer = await api.must('GET', notRunning);
      return (answer.items ?? []).length === 0;
    });
    console.error(`bench: live-read: every pod Running (${elapsed()})`);
  } catch (err) {
    // A loaded machine's KWOK can take longer: the lists are as big either way, and the block says how
    // many pods ran (podPhases), so the bench measures rather than throwing the grown lab's hour away.
    console.error(`bench: live-read: ${(err as Error).message}; measuring the lab as it is`);
  }
  api.dispatcher.destroy().catch(() => undefined);
}

/**
 * How many bench pods there are and how many of them Running: a lab reused (LIVE_REUSE) may be measured
 * before KWOK has run them all. Names only (a metadata list), not 45,000 whole pods.
 */
async function podPhases(env: NodeJS.ProcessEnv): Promise<{ all: number; running: number }> {
  const api = new LabApi(env.KUBECONFIG ?? '');
  // In pages: one list of them all can outlast the API server's request timeout on a loaded lab.
  const count = async (fieldSelector: string) => {
    let total = 0;
    let token = '';
    do {
      const query = new URLSearchParams({ limit: '5000', ...(fieldSelector ? { fieldSelector } : {}) });
      if (token) query.set('continue', token);
      const url = `/api/v1/namespaces/${NAMESPACE}/pods?${query}`;
      const answer = await api.call('GET', url, undefined, undefined, METADATA_LIST);
      if (answer.status !== 200)
        throw new Error(`counting the bench pods: ${answer.status} ${answer.body.message ?? ''}`);
      total += (answer.body.items ?? []).length;
      token = (answer.body.metadata as { continue?: string } | undefined)?.continue ?? '';
    } while (token);
    return total;
  };
  try {
    const [all, running] = await Promise.all([count(''), count('status.phase=Running')]);
    return { all, running };
  } finally {
    api.dispatcher.destroy().catch(() => undefined);
  }
}

const METADATA_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';

/** The names of the lab's nodes and bench pods (metadata lists, in pages): what a grown lab has already. */
async function benchNames(api: LabApi): Promise<{ nodes: Set<string>; pods: Set<string> }> {
  const names = async (url: string) => {
    const found = new Set<string>();
    let token = '';
    do {
      const query = new URLSearchParams({ limit: '5000', ...(token ? { continue: token } : {}) });
      const answer = await api.call('GET', `${url}?${query}`, undefined, undefined, METADATA_LIST);
      if (answer.status === 404) break;
      if (answer.status !== 200) throw new Error(`listing ${url}: ${answer.status} ${answer.body.message ?? ''}`);
      for (const item of answer.body.items ?? []) found.add(item.metadata?.name ?? '');
      token = (answer.body.metadata as { continue?: string } | undefined)?.continue ?? '';
    } while (token);
    return found;
  };
  return { nodes: await names('/api/v1/nodes'), pods: await names(`/api/v1/namespaces/${NAMESPACE}/pods`) };
}

/** POSTs each object to `url`, CREATE_CONCURRENCY at a time; one that exists already is left as it is. */
async function createAll(
  api: LabApi,
  url: string,
  objects: readonly object[],
  onCreated?: (done: number) => void,
): Promise<void> {
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < objects.length) {
      const object = objects[next++]!;
      for (let attempt = 1; ; attempt += 1) {
        const answer = await api.call('POST', url, object);
        if (answer.status < 300 || answer.status === 409) break;
        // An API server or etcd short of breath under the load answers 429 or 5xx: asked again shortly.
        if ((answer.status !== 429 && answer.status < 500) || attempt === 5) {
          throw new Error(`POST ${url}: ${answer.status} ${answer.body.message ?? ''}`);
        }
        await sleep(attempt * 500);
      }
      onCreated?.(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CREATE_CONCURRENCY, objects.length) }, worker));
}

/** Reads `check` every 2 s until it holds; throws after `seconds`. */
async function until(seconds: number, what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${seconds}s waiting for ${what}`);
    await sleep(2000);
  }
}

function benchNode(i: number) {
  const name = `bench-node-${i}`;
  const resources = { cpu: '32', memory: '128Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      annotations: { 'kwok.x-k8s.io/node': 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
      labels: {
        ...(i <= 100 ? { [POOL_LABEL]: 'first-100' } : {}),
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'topology.kubernetes.io/zone': `zone-${i % 3}`,
      },
    },
    status: { allocatable: resources, capacity: resources },
  };
}

function benchPod(node: number, index: number) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `p-${node}-${index}`, namespace: NAMESPACE, labels: { app: `app-${(node * 7 + index) % 100}` } },
    spec: {
      nodeName: `bench-node-${node}`,
      terminationGracePeriodSeconds: 1,
      containers: [
        { name: 'app', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '100m', memory: '128Mi' } } },
      ],
    },
  };
}

/** Runs argv with stdout discarded; seconds from start to exit and, with GNU time, the peak RSS. */
function timed(argv: string[], env: NodeJS.ProcessEnv): Measure {
  const gnuTime = existsSync(GNU_TIME);
  const command = gnuTime ? [GNU_TIME, '-f', '%M', ...argv] : argv;
  const started = process.hrtime.bigint();
  const result = spawnSync(command[0]!, command.slice(1), {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0) throw new Error(`${argv.join(' ')} failed (exit ${result.status}):\n${result.stderr}`);
  const rss = gnuTime ? Number(result.stderr.trim().split('\n').at(-1)) : NaN;
  return { seconds, rssKiB: Number.isFinite(rss) ? rss : null };
}

/** scripts/bench/replan.ts: the run's re-plan of one node after a change, from the cache the run keeps. */
function measureReplan(options: LiveReadOptions, node: string): { text: string; passed: boolean } {
  const script = path.join(import.meta.dirname, 'replan.ts');
  const result = spawnSync(
    process.execPath,
    [script, options.kubectlBin, node, NAMESPACE, 'p-1-0', String(Math.max(3, options.runs))],
    { env: options.env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
  must(result, 'the re-plan measure');
  const { firstReadSeconds, replanSeconds } = JSON.parse(result.stdout) as {
    firstReadSeconds: number;
    replanSeconds: number[];
  };
  const seconds = median(replanSeconds);
  const text = [
    `run's re-plan of ${node} after a change, from the cache (first read ${firstReadSeconds.toFixed(2)}s):`,
    `  ${seconds.toFixed(3)}s median of ${replanSeconds.length}  ${verdict(seconds, TARGETS.replanSeconds)}`,
  ].join('\n');
  return { text, passed: seconds <= TARGETS.replanSeconds };
}

function must(result: ReturnType<typeof spawnSync>, what: string): void {
  if (result.status !== 0) throw new Error(`${what} failed (exit ${result.status}):\n${String(result.stderr)}`);
}

/** The targets: each plan against the floor, the plan's peak RSS against kubectl get's, the run's re-plan. */
const TARGETS = { planPerFloor: 1.5, poolPlanPerFloor: 2, planRssPerKubectl: 0.2, replanSeconds: 1 } as const;

const verdict = (value: number, target: number) => `${value <= target ? 'PASS' : 'FAIL'} (target ≤ ${target})`;

function report(
  results: Map<string, Measure[]>,
  loads: readonly number[],
  nodes: number,
  podsPerNode: number,
  runs: number,
): { text: string; passed: boolean } {
  const baseline = results.get('kubectl get -o json')!;
  const baseSeconds = median(baseline.map((m) => m.seconds));
  const rssOf = (measures: readonly Measure[]) =>
    measures.every((m) => m.rssKiB !== null) ? median(measures.map((m) => m.rssKiB!)) : null;
  const baseRss = rssOf(baseline);
  // The user's floor where every run of it completed, then the lists from the watch cache, then streamed.
  const complete = (name: string) => results.get(name)!.length === runs;
  const floorName = [FLOOR_RAW, FLOOR_GET].find(complete) ?? FLOOR_STREAM;
  const floor = median(results.get(floorName)!.map((m) => m.seconds));
  const lines = [
    `live-read: ${nodes} nodes, ${nodes * podsPerNode} pods in the lab (median of ${runs}); ratios against kubectl get -o json`,
  ];
  for (const [name, measures] of results) {
    if (measures.length < runs) {
      lines.push(
        `  ${name.padEnd(40)} failed in ${runs - measures.length} of ${runs} runs (the API server's request timeout: LAB_APISERVER_REQUEST_TIMEOUT=5m at lab up)`,
      );
      continue;
    }
    const seconds = median(measures.map((m) => m.seconds));
    const rss = rssOf(measures);
    const rssText = rss === null ? '' : `  peak RSS ${(rss / 1024).toFixed(0)} MiB`;
    const rssRatio = rss === null || baseRss === null ? '' : ` (${ratio(rss / baseRss)}×)`;
    lines.push(
      `  ${name.padEnd(40)} ${seconds.toFixed(2).padStart(7)}s (${ratio(seconds / baseSeconds)}×)${rssText}${rssRatio}`,
    );
  }
  let passed = true;
  const against = (name: string, target: number) => {
    const value = median(results.get(name)!.map((m) => m.seconds)) / floor;
    passed &&= value <= target;
    return `  ${name}: ${ratio(value)}× the floor  ${verdict(value, target)}`;
  };
  lines.push(
    `against the floor (${floorName}, ${floor.toFixed(2)}s):`,
    against('kubectl maint plan', TARGETS.planPerFloor),
    against('kubectl maint plan (100-node pool)', TARGETS.poolPlanPerFloor),
  );
  const planRss = rssOf(results.get('kubectl maint plan')!);
  if (planRss !== null && baseRss !== null) {
    const value = planRss / baseRss;
    passed &&= value <= TARGETS.planRssPerKubectl;
    lines.push(
      `  kubectl maint plan peak RSS: ${ratio(value)}× kubectl get's  ${verdict(value, TARGETS.planRssPerKubectl)}`,
    );
  }
  lines.push(`load average (1 min) at each round's start: ${loads.map((load) => load.toFixed(1)).join(', ')}`);
  return { text: lines.join('\n'), passed };
}
