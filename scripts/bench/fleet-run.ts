/**
 * The fleet run benchmark: `kubectl maint run -l POOL --max-unavailable 10% --expect-reboot -- reboot-node.sh
 * {node}` over FLEET_NODES (150) nodes of the live-read lab (scripts/bench/live-read.ts: bench-node-1…, 30
 * bare pods each; a lab that lacks them is grown first, to LIVE_NODES when that is more), with
 * FLEET_DEPLOYMENTS (30) Deployments of FLEET_REPLICAS (10) on the pool, each behind a budget of
 * maxUnavailable 1, so that each drain makes real evictions that wait on their budgets; the command is the
 * lab's simulated reboot (REBOOT_SECONDS, FLEET_REBOOT_SECONDS here, 10 by default). The drains' flags:
 * --concurrency FLEET_CONCURRENCY (0, no limit, by default) and --grace-period FLEET_GRACE_PERIOD when set
 * (the pods' own otherwise).
 *
 * Measured from the run's own JSON events, its process and the API server's audit log:
 *   - the floor: Σ over batches of the batch's slowest node's drain + command + return (from its phase
 *     events: draining → drained, command-running → command-done, returning → returned); the run's wall
 *     time against it, and the overhead per batch ((wall − floor) / batches), with the start (process
 *     start to the first batch) and the end (the last node back to the process's exit) apart;
 *   - the run's own time on each node's path: from draining to done, less the node's drain, command and
 *     return (the phase writes, the bootID read, the uncordon), per batch its slowest node's;
 *   - the run's RSS, sampled every 500 ms from /proc: its peak and its end; and at each batch's end after
 *     a full garbage collection (scripts/bench/gc-probe.ts, asked by SIGUSR2 when the batch's
 *     batch-finished event arrives), the RSS and the heap used, and their growth per batch (the median
 *     of the slopes between every two batches' ends, which a batch's spike moves little; the
 *     least-squares slope beside it): what the run keeps, not what it has not collected yet; and the
 *     event loop's longest delay and its 99th percentile since the batch before's end;
 *   - the run's requests (its User-Agent, as a user of its own, kubectl-maint-bench, whose every request
 *     the lab's audit policy logs): per node, by verb and resource; the state it writes per node (node
 *     patches, Leases, Events) and its LISTs and WATCHes per kind.
 * Targets (TARGETS): run ≤ 1.1× its floor, ≤ 1 s of overhead per batch, RSS after a collection flat (growth
 * per batch ≤ 1 % of its median), one LIST per kind per run.
 *
 * Asked for by name only (`--scenario fleet-run`); it drains the pool's bare pods with --force, so the lab
 * has FLEET_NODES × 30 bench pods fewer after it: measure live-read first. `npm run lab -- seed hello`
 * resets the lab.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  openSync,
  readSync,
  closeSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type * as LiveRead from './live-read.js';
import type * as Seed from '../lab/seed.js';
import type * as Stats from './stats.js';

const { populate } = (await import(new URL('./live-read.ts', import.meta.url).href)) as typeof LiveRead;
const { LabApi } = (await import(new URL('../lab/seed.ts', import.meta.url).href)) as typeof Seed;
const { median, leastSquaresSlope, theilSenSlope } = (await import(
  new URL('./stats.ts', import.meta.url).href
)) as typeof Stats;
type LabApi = InstanceType<typeof LabApi>;

/** The live-read bench's options, but for its runs: the fleet run is measured once. */
export type FleetRunOptions = Omit<LiveRead.LiveReadOptions, 'runs'>;

const TARGETS = { perFloor: 1.1, overheadPerBatchSeconds: 1, rssGrowthPerBatch: 0.01, listsPerKind: 1 } as const;

const NAMESPACE = 'bench-fleet';
const POOL_LABEL = 'bench.kubectl-maint.io/fleet';
const POOL = `${POOL_LABEL}=pool`;
/** The user the run is, so that the audit policy logs its every request (scripts/lab/components.sh). */
export const BENCH_USER = 'kubectl-maint-bench';
const root = path.resolve(import.meta.dirname, '../..');
const reboot = path.join(root, 'scripts/lab/reboot-node.sh');
const gcProbe = path.join(root, 'scripts/bench/gc-probe.ts');

interface RunEvent {
  readonly type: string;
  readonly atMs: number;
  readonly batch?: number;
  readonly node?: string;
  readonly phase?: string;
  readonly result?: string;
  readonly batches?: readonly (readonly string[])[];
}

interface AuditEvent {
  readonly auditID: string;
  readonly stage: string;
  readonly requestURI: string;
  readonly verb: string;
  readonly user?: { readonly username?: string };
  readonly userAgent?: string;
  readonly objectRef?: { readonly resource?: string; readonly subresource?: string; readonly namespace?: string };
  readonly responseStatus?: { readonly code?: number };
}

export async function runFleetRunBench(options: FleetRunOptions): Promise<{ text: string; passed: boolean }> {
  const nodes = Number(process.env.FLEET_NODES ?? 150);
  const deployments = Number(process.env.FLEET_DEPLOYMENTS ?? 30);
  const replicas = Number(process.env.FLEET_REPLICAS ?? 10);
  const rebootSeconds = process.env.FLEET_REBOOT_SECONDS ?? '10';
  const maxUnavailable = process.env.FLEET_MAX_UNAVAILABLE ?? '10%';
  // --concurrency: 0 (no limit, as kubectl drain) unless FLEET_CONCURRENCY says otherwise. A bare pod is
  // gone only at the end of its grace period (30 s), so a bound sets the drains' pace (a batch's 450 bare
  // pods 16 at a time take ten minutes), which the floor takes from the drains themselves either way.
  const concurrency = process.env.FLEET_CONCURRENCY ?? '0';
  const gracePeriod = process.env.FLEET_GRACE_PERIOD;
  const labNodes = Math.max(nodes, Number(process.env.LIVE_NODES ?? nodes));
  const kubeconfig = options.env.KUBECONFIG ?? '';
  const labDir = path.dirname(kubeconfig);
  const auditLog = path.join(labDir, 'audit.log');
  if (!readFileSync(path.join(labDir, 'audit-policy.yaml'), 'utf8').includes(BENCH_USER)) {
    throw new Error(
      `the lab's audit policy does not log the user ${BENCH_USER}: start the lab again (npm run lab -- down, then up)`,
    );
  }
  const api = new LabApi(kubeconfig);
  const loadStart = loadavg()[0] ?? 0;
  try {
    if ((await api.call('GET', `/api/v1/nodes/bench-node-${labNodes}`)).status === 404) {
      await populate(options, labNodes, Number(process.env.LIVE_PODS_PER_NODE ?? 30), { grow: true });
    }
    const lines: string[] = [];
    const log = (line: string) => console.error(`bench: fleet-run: ${line}`);
    const pool = Array.from({ length: nodes }, (_, i) => `bench-node-${i + 1}`);
    await preparePool(api, pool, deployments, replicas, log);
    const benchPods = await countPods(api, 'bench-read', pool);
    const env = {
      ...options.env,
      KUBECONFIG: benchKubeconfig(labDir, kubeconfig),
      PATH: `${path.dirname(options.kubectlBin)}:${options.env.PATH ?? ''}`,
      REBOOT_SECONDS: rebootSeconds,
      NO_COLOR: '1',
    };
    const flags = [
      '-l',
      POOL,
      '--max-unavailable',
      maxUnavailable,
      '--concurrency',
      concurrency,
      ...(gracePeriod === undefined ? [] : ['--grace-period', gracePeriod]),
      '--ignore-daemonsets',
      '--force',
      '--expect-reboot',
      '-o',
      'json',
    ];
    const args = [options.maint, 'run', ...flags, '--', reboot, '{node}'];
    const auditFrom = { size: existsSync(auditLog) ? statSync(auditLog).size : 0, rotated: rotatedLogs(auditLog) };
    log(
      `run over ${nodes} nodes (${benchPods} bare pods, ${deployments * replicas} pods of ${deployments} Deployments)`,
    );
    const measured = await measureRun(process.execPath, args, env);
    const audit = readAudit(auditLog, auditFrom);
    const eventsFile = path.join(tmpdir(), 'bench-fleet-run-events.jsonl');
    writeFileSync(eventsFile, measured.events.map((e) => JSON.stringify(e)).join('\n'));
    const finished = measured.events.find((e) => e.type === 'run-finished');
    if (measured.exitCode !== 0 || finished?.result !== 'done') {
      throw new Error(
        `the run ended ${finished?.result ?? 'without its last event'} (exit ${measured.exitCode}):\n${measured.stderr.slice(-4000)}`,
      );
    }
    const report = analyse(measured, audit, nodes);
    lines.push(
      `fleet-run: ${nodes} nodes of the lab (${benchPods} bare pods, ${deployments} Deployments of ${replicas} behind budgets of maxUnavailable 1), ${rebootSeconds} s reboot`,
      `  kubectl maint run ${flags.join(' ')} -- reboot-node.sh {node}`,
      ...report.lines,
      `load average (1 min): ${loadStart.toFixed(1)} at the start, ${(loadavg()[0] ?? 0).toFixed(1)} at the end; events in ${eventsFile}`,
    );
    return { text: lines.join('\n'), passed: report.passed };
  } finally {
    api.dispatcher.destroy().catch(() => undefined);
  }
}

/** The pool labelled and schedulable, its Deployments and budgets made and every pod of them Ready. */
async function preparePool(
  api: LabApi,
  pool: readonly string[],
  deployments: number,
  replicas: number,
  log: (line: string) => void,
): Promise<void> {
  await inParallel(pool, 16, async (node) => {
    await api.must(
      'PATCH',
      `/api/v1/nodes/${node}`,
      { metadata: { labels: { [POOL_LABEL]: 'pool' } }, spec: { unschedulable: null } },
      'application/merge-patch+json',
    );
  });
  await api.must(
    'DELETE',
    '/apis/coordination.k8s.io/v1/namespaces/kubectl-maint/leases?labelSelector=maint.kubectl.io%2Frun',
    undefined,
    undefined,
    [404],
  );
  const namespace = {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: NAMESPACE, labels: { 'lab.kubectl-maint.io/scenario': 'true' } },
  };
  await api.must('POST', '/api/v1/namespaces', namespace, undefined, [409]);
  for (let i = 1; i <= deployments; i += 1) {
    const name = `fleet-${i}`;
    await api.must(
      'POST',
      `/apis/apps/v1/namespaces/${NAMESPACE}/deployments`,
      fleetDeployment(name, replicas),
      undefined,
      [409],
    );
    await api.must(
      'POST',
      `/apis/policy/v1/namespaces/${NAMESPACE}/poddisruptionbudgets`,
      fleetBudget(name),
      undefined,
      [409],
    );
  }
  // Half an hour: in a lab grown just now, KWOK plays its backlog of pod stages, in order, before these pods'.
  const deadline = Date.now() + 1_800_000;
  for (;;) {
    const ready = (await api.list(`/apis/apps/v1/namespaces/${NAMESPACE}/deployments`)).filter(
      (d) => (d.status as { readyReplicas?: number } | undefined)?.readyReplicas === replicas,
    ).length;
    const budgets = (await api.list(`/apis/policy/v1/namespaces/${NAMESPACE}/poddisruptionbudgets`)).filter(
      (b) => (b.status as { disruptionsAllowed?: number } | undefined)?.disruptionsAllowed === 1,
    ).length;
    if (ready === deployments && budgets === deployments) break;
    if (Date.now() > deadline)
      throw new Error(
        `the fleet's workloads did not settle: ${ready} Deployments Ready, ${budgets} budgets allowing one`,
      );
    await sleep(2000);
  }
  log(`${deployments} Deployments of ${replicas} Ready, each budget allowing one disruption`);
}

function fleetDeployment(name: string, replicas: number) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NAMESPACE },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          nodeSelector: { [POOL_LABEL]: 'pool' },
          terminationGracePeriodSeconds: 1,
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: 'kubernetes.io/hostname',
              whenUnsatisfiable: 'ScheduleAnyway',
              labelSelector: { matchLabels: { app: name } },
            },
          ],
          containers: [
            {
              name: 'app',
              image: 'registry.k8s.io/pause:3.10',
              resources: { requests: { cpu: '10m', memory: '16Mi' } },
            },
          ],
        },
      },
    },
  };
}

function fleetBudget(name: string) {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: NAMESPACE },
    spec: { maxUnavailable: 1, selector: { matchLabels: { app: name } } },
  };
}

/** The pods of `namespace` on the pool's nodes (one field-selected list per node would be 150 requests: the namespace's names instead). */
async function countPods(api: LabApi, namespace: string, pool: readonly string[]): Promise<number> {
  const onPool = new Set(pool);
  let total = 0;
  let token = '';
  do {
    const query = new URLSearchParams({ limit: '5000', ...(token ? { continue: token } : {}) });
    const answer = await api.must('GET', `/api/v1/namespaces/${namespace}/pods?${query}`);
    for (const pod of answer.items ?? []) if (onPool.has(pod.spec?.nodeName ?? '')) total += 1;
    token = (answer.metadata as { continue?: string } | undefined)?.continue ?? '';
  } while (token);
  return total;
}

/**
 * A kubeconfig whose user is BENCH_USER (a client certificate of the lab's CA, in system:masters): the
 * run's requests are then told from KWOK's and the controllers', which use the admin's.
 */
function benchKubeconfig(labDir: string, adminKubeconfig: string): string {
  const pki = path.join(labDir, 'pki');
  const key = path.join(pki, `${BENCH_USER}.key`);
  const cert = path.join(pki, `${BENCH_USER}.crt`);
  if (!existsSync(cert)) {
    const csr = path.join(pki, `${BENCH_USER}.csr`);
    execFileSync(
      'openssl',
      [
        'req',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-sha256',
        '-subj',
        `/O=system:masters/CN=${BENCH_USER}`,
        '-keyout',
        key,
        '-out',
        csr,
      ],
      { stdio: 'ignore' },
    );
    execFileSync(
      'openssl',
      [
        'x509',
        '-req',
        '-in',
        csr,
        '-CA',
        path.join(pki, 'ca.crt'),
        '-CAkey',
        path.join(pki, 'ca.key'),
        '-CAcreateserial',
        '-sha256',
        '-days',
        '30',
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
  }
  const b64 = (file: string) => readFileSync(file).toString('base64');
  const file = path.join(labDir, `${BENCH_USER}.kubeconfig`);
  const admin = readFileSync(adminKubeconfig, 'utf8');
  writeFileSync(
    file,
    admin
      .replace(/client-certificate-data: \S+/, `client-certificate-data: ${b64(cert)}`)
      .replace(/client-key-data: \S+/, `client-key-data: ${b64(key)}`),
    { mode: 0o600 },
  );
  return file;
}

/**
 * A line of gc-probe.ts: epoch ms, RSS KiB and heap used KiB after a collection, the event loop's delay (max,
 * p99 ms) since the line before, the heap V8 holds and the memory outside it (KiB).
 */
type ProbeLine = [number, number, number, number, number, number, number];

interface Measured {
  readonly startedMs: number;
  readonly endedMs: number;
  readonly exitCode: number | null;
  readonly events: RunEvent[];
  readonly stderr: string;
  /** [epoch ms, RSS in KiB]. */
  readonly rss: Array<[number, number]>;
  readonly peakKiB: number;
  /** At each batch's end, as gc-probe.ts writes it. */
  readonly collected: ProbeLine[];
}

/**
 * Runs the node script `args` (with gc-probe.ts loaded), its stdout read as JSON Lines, its RSS sampled
 * every 500 ms (and its peak, VmHWM), and its memory after a full collection at each batch's end.
 */
async function measureRun(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<Measured> {
  const startedMs = Date.now();
  const probeFile = path.join(tmpdir(), `bench-fleet-run-gc-${process.pid}.txt`);
  rmSync(probeFile, { force: true });
  const child = spawn(command, ['--expose-gc', '--import', gcProbe, ...args], {
    env: { ...env, BENCH_GC_PROBE: probeFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const events: RunEvent[] = [];
  let pending = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    for (const line of parts) {
      if (!line.trim()) continue;
      const event = JSON.parse(line) as RunEvent;
      events.push(event);
      if (event.type === 'batch-finished') child.kill('SIGUSR2');
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const rss: Array<[number, number]> = [];
  let peakKiB = 0;
  const status = `/proc/${child.pid}/status`;
  const sample = () => {
    try {
      const text = readFileSync(status, 'utf8');
      const now = Number(/VmRSS:\s+(\d+)/.exec(text)?.[1] ?? NaN);
      const hwm = Number(/VmHWM:\s+(\d+)/.exec(text)?.[1] ?? NaN);
      if (Number.isFinite(now)) rss.push([Date.now(), now]);
      if (Number.isFinite(hwm)) peakKiB = Math.max(peakKiB, hwm);
    } catch {
      // The process has exited between two samples.
    }
  };
  const timer = setInterval(sample, 500);
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  clearInterval(timer);
  if (pending.trim()) events.push(JSON.parse(pending) as RunEvent);
  const collected = existsSync(probeFile)
    ? readFileSync(probeFile, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(' ').map(Number) as ProbeLine)
    : [];
  rmSync(probeFile, { force: true });
  return { startedMs, endedMs: Date.now(), exitCode, events, stderr, rss, peakKiB, collected };
}

/**
 * The audit logs the API server rotated `file` into (`audit-<time>.log` beside it, at 100 MB each), oldest
 * first: their names sort by the time of the rotation.
 */
function rotatedLogs(file: string): string[] {
  const dir = path.dirname(file);
  const stem = path.basename(file, '.log');
  return readdirSync(dir)
    .filter((name) => name.startsWith(`${stem}-`) && name.endsWith('.log'))
    .sort()
    .map((name) => path.join(dir, name));
}

/** The bytes of `file` from `from` on. */
function bytesFrom(file: string, from: number): Buffer {
  const buffer = Buffer.alloc(Math.max(0, statSync(file).size - from));
  const fd = openSync(file, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, from);
  } finally {
    closeSync(fd);
  }
  return buffer;
}

/**
 * The run's own requests in the audit log since `from` (its size then, and the rotated logs there were):
 * the first log rotated since holds the start, from that size on; later ones and the current log are read
 * whole. A watch is logged when its answer starts and again when it ends, so each request is counted
 * once, by its audit ID.
 */
function readAudit(file: string, from: { size: number; rotated: readonly string[] }): AuditEvent[] {
  if (!existsSync(file)) return [];
  const rotated = rotatedLogs(file).filter((f) => !from.rotated.includes(f));
  const logs = [...rotated, file];
  const buffer = Buffer.concat(logs.map((log, i) => bytesFrom(log, i === 0 ? from.size : 0)));
  const seen = new Set<string>();
  return buffer
    .toString('utf8')
    .split('\n')
    .filter((line) => line.includes(BENCH_USER))
    .map((line) => JSON.parse(line) as AuditEvent)
    .filter((e) => e.user?.username === BENCH_USER && (e.userAgent ?? '').startsWith('kubectl-maint'))
    .filter((e) => !seen.has(e.auditID) && seen.add(e.auditID));
}

function analyse(
  measured: Measured,
  audit: readonly AuditEvent[],
  nodes: number,
): { lines: string[]; passed: boolean } {
  const { events } = measured;
  const at = (type: string, node: string, phase: string) =>
    events.find((e) => e.type === type && e.node === node && e.phase === phase)?.atMs;
  const started = events.find((e) => e.type === 'run-started');
  const batches = started?.batches ?? [];
  const nodeOf = new Map<string, number>();
  batches.forEach((batch, i) => batch.forEach((node) => nodeOf.set(node, i + 1)));
  const span = (node: string, from: string, to: string) => {
    const a = at('phase', node, from);
    const b = at('phase', node, to);
    return a === undefined || b === undefined ? NaN : (b - a) / 1000;
  };
  const perBatch = batches.map((batch, i) => {
    const steps = batch.map((node) => {
      const drain = span(node, 'draining', 'drained');
      const command = span(node, 'command-running', 'command-done');
      const back = span(node, 'returning', 'returned');
      return { node, drain, command, back, total: drain + command + back };
    });
    const slowest = steps.reduce((a, b) => (b.total > a.total ? b : a));
    const first = events.find((e) => e.type === 'batch-started' && e.batch === i + 1)?.atMs ?? NaN;
    const finished = events.find((e) => e.type === 'batch-finished' && e.batch === i + 1)?.atMs ?? NaN;
    return { batch: i + 1, size: batch.length, slowest, wall: (finished - first) / 1000, finishedMs: finished };
  });
  const wall = (measured.endedMs - measured.startedMs) / 1000;
  const floor = perBatch.reduce((sum, b) => sum + b.slowest.total, 0);
  const firstBatchMs = events.find((e) => e.type === 'batch-started')?.atMs ?? measured.startedMs;
  const lastBackMs = Math.max(...events.filter((e) => e.type === 'phase' && e.phase === 'done').map((e) => e.atMs));
  const overheadPerBatch = (wall - floor) / batches.length;
  const perFloor = wall / floor;
  let passed = perFloor <= TARGETS.perFloor && overheadPerBatch <= TARGETS.overheadPerBatchSeconds;
  const verdict = (ok: boolean, target: string) => `${ok ? 'PASS' : 'FAIL'} (target ${target})`;
  const s = (x: number) => `${x.toFixed(1)} s`;
  const lines = [
    `  ${batches.length} batches, done in ${s(wall)}: start to the first batch ${s((firstBatchMs - measured.startedMs) / 1000)}, the last node done to the exit ${s((measured.endedMs - lastBackMs) / 1000)}`,
    `  floor: Σ over batches of the slowest node's drain + command + return ${s(floor)}`,
    `  run / floor: ${perFloor.toFixed(2)}  ${verdict(perFloor <= TARGETS.perFloor, `≤ ${TARGETS.perFloor}`)}`,
    `  overhead per batch ((run − floor) / batches): ${s(overheadPerBatch)}  ${verdict(overheadPerBatch <= TARGETS.overheadPerBatchSeconds, `≤ ${TARGETS.overheadPerBatchSeconds} s`)}`,
    '  batch  nodes  slowest: drain + command + return = total   batch start to finished',
    ...perBatch.map(
      (b) =>
        `  ${String(b.batch).padStart(5)}  ${String(b.size).padStart(5)}  ${b.slowest.drain.toFixed(1).padStart(6)} + ${b.slowest.command.toFixed(1).padStart(5)} + ${b.slowest.back.toFixed(1).padStart(5)} = ${b.slowest.total.toFixed(1).padStart(5)} s   ${s(b.wall).padStart(8)}`,
    ),
  ];
  // The run's own time on each node's path: draining to done, less its drain, command and return.
  const ownOf = (node: string) => span(node, 'draining', 'done') - steps(node);
  const steps = (node: string) =>
    span(node, 'draining', 'drained') +
    span(node, 'command-running', 'command-done') +
    span(node, 'returning', 'returned');
  const own = batches.flat().map(ownOf).filter(Number.isFinite);
  const ownSlowest = perBatch.map((b) => ownOf(b.slowest.node));
  const worst = Math.max(...ownSlowest);
  passed &&= worst <= TARGETS.overheadPerBatchSeconds;
  lines.push(
    `  the run's own time on a node's path (draining to done, less its drain, command and return): median ${s(median(own))}, at most ${s(Math.max(...own))}`,
    `  on each batch's slowest node: ${ownSlowest.map((x) => x.toFixed(2)).join(', ')} s  ${verdict(worst <= TARGETS.overheadPerBatchSeconds, `≤ ${TARGETS.overheadPerBatchSeconds} s a batch`)}`,
  );
  // A slot's turn: the sliding window starts a node as one is done, so the i-th node done frees the slot of
  // the (i + width)-th node to start draining. Between them: that node's fresh plan and cordon, and when the
  // plan is blocked (its budgets still spent by the nodes before it), the wait for them, which no node's
  // drain, command or return counts.
  const firstOf = (phase: string) =>
    batches
      .flat()
      .map((node) => at('phase', node, phase))
      .filter((ms): ms is number => ms !== undefined)
      .sort((a, b) => a - b);
  const [draining, done] = [firstOf('draining'), firstOf('done')];
  const width = batches[0]?.length ?? 0;
  const turns = done.slice(0, Math.max(0, draining.length - width)).map((ms, i) => (draining[i + width]! - ms) / 1000);
  if (turns.length > 0) {
    const sorted = [...turns].sort((a, b) => a - b);
    lines.push(
      `  a node done to the next node draining in its slot (the fresh plan, the cordon; a blocked plan's wait for its budgets): median ${s(median(turns))}, 90th percentile ${s(sorted[Math.floor(0.9 * (sorted.length - 1))]!)}, at most ${s(sorted.at(-1)!)}, over ${turns.length} turns`,
    );
  }
  // RSS: sampled (peak, end); and after a full collection at each batch's end, its growth per batch: judged by
  // the Theil–Sen slope, which one batch's spike (memory the allocator has not handed back yet) moves little;
  // the least-squares slope, which such a spike moves a lot, is printed beside it.
  const collectedAt = (ms: number) => measured.collected.find(([t]) => t >= ms);
  const ends = perBatch.map((b) => collectedAt(b.finishedMs));
  const column = (i: number, unit = 1) => ends.map((line) => (line?.[i] ?? NaN) / unit);
  const atEnds = column(1, 1024);
  const heapAtEnds = column(2, 1024);
  const loopMax = column(3);
  const loopP99 = column(4);
  const heapTotalAtEnds = column(5, 1024);
  const externalAtEnds = column(6, 1024);
  const slope = theilSenSlope(atEnds);
  const typical = median(atEnds);
  const flat = slope <= TARGETS.rssGrowthPerBatch * typical;
  passed &&= flat;
  const endRss = (measured.rss.at(-1)?.[1] ?? NaN) / 1024;
  lines.push(
    `  RSS: peak ${(measured.peakKiB / 1024).toFixed(0)} MiB, end ${endRss.toFixed(0)} MiB (sampled every 500 ms)`,
    `  after a full collection at each batch's end: RSS ${atEnds.map((x) => x.toFixed(0)).join(', ')} MiB; heap used ${heapAtEnds.map((x) => x.toFixed(0)).join(', ')} MiB; heap held ${heapTotalAtEnds.map((x) => x.toFixed(0)).join(', ')} MiB; outside the heap ${externalAtEnds.map((x) => x.toFixed(0)).join(', ')} MiB`,
    `  RSS growth per batch (after a collection, Theil–Sen): ${slope.toFixed(1)} MiB  ${verdict(flat, `≤ ${(TARGETS.rssGrowthPerBatch * 100).toFixed(0)} % of its median, ${(TARGETS.rssGrowthPerBatch * typical).toFixed(1)} MiB`)} (least squares ${leastSquaresSlope(atEnds).toFixed(1)} MiB); heap used ${theilSenSlope(heapAtEnds).toFixed(1)} MiB`,
    `  the event loop's delay from the batch before's end to each batch's end (the run's own work holding back its other steps): max ${loopMax.map((x) => (x / 1000).toFixed(2)).join(', ')} s; p99 ${loopP99.map((x) => (x / 1000).toFixed(2)).join(', ')} s`,
  );
  // Requests: the run's own (its User-Agent), by verb and resource.
  const key = (e: AuditEvent) =>
    `${e.verb} ${e.objectRef?.resource ?? '?'}${e.objectRef?.subresource ? `/${e.objectRef.subresource}` : ''}`;
  const counts = new Map<string, number>();
  for (const e of audit) counts.set(key(e), (counts.get(key(e)) ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  const perNode = (n: number) => (n / nodes).toFixed(2);
  lines.push(
    `  requests (audit log, the run's User-Agent): ${audit.length}, ${perNode(audit.length)} per node`,
    ...sorted.map(([what, n]) => `    ${what.padEnd(40)} ${String(n).padStart(6)}  ${perNode(n).padStart(7)} per node`),
  );
  const writes = (resource: string) =>
    audit.filter((e) => e.objectRef?.resource === resource && ['create', 'update', 'patch'].includes(e.verb)).length;
  lines.push(
    `  state written per node: node patches ${perNode(writes('nodes'))} (phases, conditions, cordon, uncordon), Events ${perNode(writes('events'))}; the run's Lease ${writes('leases')} writes in all`,
  );
  // A read of a whole kind: a LIST, or a streaming list (a watch with sendInitialEvents), as the run asks;
  // not a list narrowed by a selector (the run's check that its state namespace exists lists that one).
  const lists = new Map<string, number>();
  for (const e of audit) {
    if (/[?&](fieldSelector|labelSelector)=/.test(e.requestURI)) continue;
    if (e.verb !== 'list' && !(e.verb === 'watch' && e.requestURI.includes('sendInitialEvents=true'))) continue;
    lists.set(e.objectRef?.resource ?? '?', (lists.get(e.objectRef?.resource ?? '?') ?? 0) + 1);
  }
  const most = Math.max(0, ...lists.values());
  const once = most <= TARGETS.listsPerKind;
  passed &&= once && lists.size > 0;
  lines.push(
    `  reads of a whole kind (a LIST or a streaming list, no selector): ${[...lists].map(([kind, n]) => `${kind} ${n}`).join(', ') || 'none logged'}  ${verdict(once && lists.size > 0, `${TARGETS.listsPerKind} each`)}`,
  );
  return { lines, passed };
}

async function inParallel<T>(items: readonly T[], width: number, each: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await each(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}
