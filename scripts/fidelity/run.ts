/**
 * `npm run fidelity -- [--count N] [--seed S] [--verbose]`: generates N small clusters (seeds S, S+1, …),
 * and for each seeds the lab, plans the drain of its busiest node, drains it for real and compares the
 * plan with what the cluster did, fact by fact (harness.ts, compare.ts). Prints each cluster's line, the
 * agreement (`47/50 clusters agree; facts 1234/1240`) and every disagreement (seed, pod, fact, plan
 * against cluster); exits 1 on any disagreement.
 *
 * `--no-webhooks` leaves the admission webhooks out of every cluster (the clusters the generator made before
 * it drew them: a seed's other objects are the same).
 *
 * `--replay DIR` judges again the clusters a run recorded in DIR (`--verbose` records every one; replay.ts)
 * against the plan as it is now, planned from each cluster's snapshot: the same lines, no lab.
 *
 * The lab: LAB_DIR when set, else a lab of its own in $TMPDIR/kubectl-maint-lab-fidelity, started here
 * (`npm run lab -- up`, idempotent) and left up for the next run (`LAB_DIR=… npm run lab -- down`). Each
 * cluster resets that lab (every node and scenario namespace): never point it at a lab you are using.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type * as Compare from './compare.js';
import type * as Harness from './harness.js';
import type * as Replay from './replay.js';

const root = path.resolve(import.meta.dirname, '../..');
const labScript = path.join(root, 'scripts/lab/lab.sh');
/** A generated cluster whose pods cannot all be placed is given up after this long, not the seeding's bound. */
const GIVE_UP_SETTLING_SECONDS = 45;

function usage(message: string): never {
  console.error(`fidelity: ${message}`);
  console.error(
    'usage: npm run fidelity -- [--count N] [--seed S] [--verbose] [--no-webhooks] | --replay DIR [--verbose]',
  );
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      count: { type: 'string', default: '10' },
      seed: { type: 'string', default: '1' },
      verbose: { type: 'boolean', default: false },
      replay: { type: 'string' },
      'no-webhooks': { type: 'boolean', default: false },
    },
  }));
} catch (error) {
  usage((error as Error).message);
}
const count = Number(values.count);
const first = Number(values.seed);
if (!Number.isInteger(count) || count < 1) usage(`--count must be a whole number of clusters, not "${values.count}"`);
if (!Number.isSafeInteger(first) || first < 0) usage(`--seed must be a whole number, not "${values.seed}"`);

// Imported by URL: node runs these scripts from source and resolves a .ts file only by its own name.
const { readRecord, recordedSeeds, recordFile, recordOf, replayCluster, snapshotFile } = (await import(
  new URL('./replay.ts', import.meta.url).href
)) as typeof Replay;
const { isAdmissionNotJudged } = (await import(new URL('./compare.ts', import.meta.url).href)) as typeof Compare;

/** Each cluster's result, and with --replay what the run that recorded it made of it. */
type Judge = (seed: number) => Promise<{ result: Harness.ClusterResult; recorded?: Replay.ClusterRecord }>;
let judge: Judge;
let seeds: number[];
let labDir: string | undefined;
if (values.replay !== undefined) {
  const dir = values.replay;
  try {
    seeds = recordedSeeds(dir);
  } catch (error) {
    usage(`--replay: ${(error as Error).message}`);
  }
  if (seeds.length === 0) usage(`--replay: no seed-N.json in ${dir} (written by npm run fidelity -- --verbose)`);
  judge = async (seed) => {
    const recorded = readRecord(dir, seed);
    return { result: await replayCluster(recorded, snapshotFile(dir, seed)), recorded };
  };
} else {
  labDir = process.env.LAB_DIR ?? path.join(process.env.TMPDIR ?? os.tmpdir(), 'kubectl-maint-lab-fidelity');
  const env = { ...process.env, LAB_DIR: labDir };
  try {
    execFileSync('bash', [labScript, 'up'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  } catch {
    console.error(`fidelity: the lab in ${labDir} did not start (npm run lab -- up)`);
    process.exit(1);
  }
  const printed = execFileSync('bash', [labScript, 'env'], { env, encoding: 'utf8' });
  const kubeconfig = /export KUBECONFIG=(\S+)/.exec(printed)?.[1];
  const labBin = /export PATH=(\S+):/.exec(printed)?.[1];
  if (!kubeconfig || !labBin) {
    console.error(`fidelity: unexpected output of lab env: ${printed}`);
    process.exit(1);
  }
  const lab = { kubeconfig, kubectl: path.join(labBin, 'kubectl') };
  const { checkCluster } = (await import(new URL('./harness.ts', import.meta.url).href)) as typeof Harness;
  seeds = Array.from({ length: count }, (_, i) => first + i);
  judge = async (seed) => ({
    result: await checkCluster(seed, lab, {
      settleSeconds: GIVE_UP_SETTLING_SECONDS,
      webhooks: !values['no-webhooks'],
      ...(values.verbose ? { log: (line: string) => console.log(`  ${line}`) } : {}),
    }),
  });
}

const agreedText = (r: { verdict?: string | undefined; facts: readonly Compare.Fact[] }) =>
  `${r.verdict}, ${r.facts.filter((f) => f.agree).length}/${r.facts.length} facts agree`;

// Each disagreeing cluster's plan, drain events, pods and snapshot, to look into (every cluster's with --verbose).
const evidenceDir = path.join(process.env.TMPDIR ?? os.tmpdir(), 'kubectl-maint-fidelity');
const results: Harness.ClusterResult[] = [];
for (const seed of seeds) {
  const { result: r, recorded } = await judge(seed);
  results.push(r);
  const status = !r.settled ? `did not settle (${r.error})` : r.error ? `error: ${r.error}` : agreedText(r);
  // A record of an Observation alone does not say how long its run took.
  const took = r.seconds > 0 ? ` (${r.seconds}s)` : '';
  console.log(`seed ${seed}: ${r.node ? `${r.pods} pods, drained ${r.node}, ` : ''}${status}${took}`);
  // A replay says where the run's own plan judged otherwise (a record of an Observation alone holds no facts).
  if (recorded && r.settled && !r.error && recorded.facts.length > 0 && !sameFacts(recorded.facts, r.facts))
    console.log(`  the run's plan: ${agreedText(recorded)}`);
  if (values.verbose)
    for (const f of r.facts)
      console.log(`  ${f.agree ? 'ok  ' : 'DIFF'} ${f.subject}: ${f.fact}: plan ${f.plan}; cluster ${f.cluster}`);
  if (values.verbose) for (const n of r.notJudged) console.log(`  not judged: ${n}`);
  if (!recorded && (values.verbose || r.error || r.facts.some((f) => !f.agree))) {
    mkdirSync(evidenceDir, { recursive: true });
    const file = recordFile(evidenceDir, seed);
    writeFileSync(file, JSON.stringify(recordOf(r), null, 2));
    console.log(`  evidence: ${file}`);
    if (r.snapshot !== undefined) {
      const snapshot = snapshotFile(evidenceDir, seed);
      writeFileSync(snapshot, r.snapshot);
      console.log(`  the cluster before the drain: ${snapshot} (kubectl maint plan ${r.node} --snapshot ${snapshot})`);
    }
  }
}

const compared = results.filter((r) => r.settled);
const agreeing = compared.filter((r) => !r.error && r.facts.every((f) => f.agree));
const facts = compared.flatMap((r) => r.facts);
const unsettled = results.length - compared.length;
const notJudged = compared.flatMap((r) => r.notJudged);
console.log(
  `\n${agreeing.length}/${compared.length} clusters agree; facts ${facts.filter((f) => f.agree).length}/${facts.length}` +
    (unsettled ? ` (${unsettled} generated cluster${unsettled === 1 ? '' : 's'} did not settle, not compared)` : '') +
    `; ${notJudged.length} facts not judged (${notJudged.filter(isAdmissionNotJudged).length} of them pods' admission, which a webhook or policy decides whose answer the plan cannot tell)`,
);
const disagreements = compared.flatMap((r) => [
  ...(r.error ? [`seed ${r.seed}: error: ${r.error}`] : []),
  ...r.facts
    .filter((f) => !f.agree)
    .map((f) => `seed ${r.seed} (${r.node}): ${f.subject}: ${f.fact}: plan ${f.plan}; cluster ${f.cluster}`),
]);
if (disagreements.length > 0) console.log(['disagreements:', ...disagreements.map((d) => `  ${d}`)].join('\n'));
if (labDir !== undefined) console.log(`the lab stays up: LAB_DIR=${labDir} npm run lab -- down`);
process.exit(disagreements.length > 0 ? 1 : 0);

function sameFacts(a: readonly Compare.Fact[], b: readonly Compare.Fact[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
