/**
 * `npm run fidelity -- [--count N] [--seed S] [--verbose]`: generates N small clusters (seeds S, S+1, …),
 * and for each seeds the lab, plans the drain of its busiest node, drains it for real and compares the
 * plan with what the cluster did, fact by fact (harness.ts, compare.ts). Prints each cluster's line, the
 * agreement (`47/50 clusters agree; facts 1234/1240`) and every disagreement (seed, pod, fact, plan
 * against cluster); exits 1 on any disagreement.
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
import type * as Harness from './harness.js';

const root = path.resolve(import.meta.dirname, '../..');
const labScript = path.join(root, 'scripts/lab/lab.sh');

function usage(message: string): never {
  console.error(`fidelity: ${message}`);
  console.error('usage: npm run fidelity -- [--count N] [--seed S] [--verbose]');
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      count: { type: 'string', default: '10' },
      seed: { type: 'string', default: '1' },
      verbose: { type: 'boolean', default: false },
    },
  }));
} catch (error) {
  usage((error as Error).message);
}
const count = Number(values.count);
const first = Number(values.seed);
if (!Number.isInteger(count) || count < 1) usage(`--count must be a whole number of clusters, not "${values.count}"`);
if (!Number.isSafeInteger(first) || first < 0) usage(`--seed must be a whole number, not "${values.seed}"`);

const labDir = process.env.LAB_DIR ?? path.join(process.env.TMPDIR ?? os.tmpdir(), 'kubectl-maint-lab-fidelity');
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

// Imported by URL: node runs these scripts from source and resolves a .ts file only by its own name.
const { checkCluster } = (await import(new URL('./harness.ts', import.meta.url).href)) as typeof Harness;
const lab = { kubeconfig, kubectl: path.join(labBin, 'kubectl') };

// Each disagreeing cluster's plan, drain events, pods and snapshot, to look into (every cluster's with --verbose).
const evidenceDir = path.join(process.env.TMPDIR ?? os.tmpdir(), 'kubectl-maint-fidelity');
const results: Harness.ClusterResult[] = [];
for (let seed = first; seed < first + count; seed++) {
  const r = await checkCluster(seed, lab, values.verbose ? (line) => console.log(`  ${line}`) : undefined);
  results.push(r);
  const agreed = r.facts.filter((f) => f.agree).length;
  const status = !r.settled
    ? `did not settle (${r.error})`
    : r.error
      ? `error: ${r.error}`
      : `${r.verdict}, ${agreed}/${r.facts.length} facts agree`;
  console.log(`seed ${seed}: ${r.node ? `${r.pods} pods, drained ${r.node}, ` : ''}${status} (${r.seconds}s)`);
  if (values.verbose)
    for (const f of r.facts)
      console.log(`  ${f.agree ? 'ok  ' : 'DIFF'} ${f.subject}: ${f.fact}: plan ${f.plan}; cluster ${f.cluster}`);
  if (values.verbose) for (const n of r.notJudged) console.log(`  not judged: ${n}`);
  if (r.evidence && (values.verbose || r.facts.some((f) => !f.agree))) {
    mkdirSync(evidenceDir, { recursive: true });
    const file = path.join(evidenceDir, `seed-${seed}.json`);
    writeFileSync(file, JSON.stringify(r.evidence, null, 2));
    console.log(`  evidence: ${file}`);
    if (r.snapshot !== undefined) {
      const snapshot = path.join(evidenceDir, `seed-${seed}.snapshot.json`);
      writeFileSync(snapshot, r.snapshot);
      console.log(`  the cluster before the drain: ${snapshot} (kubectl maint plan ${r.node} --snapshot ${snapshot})`);
    }
  }
}

const compared = results.filter((r) => r.settled);
const agreeing = compared.filter((r) => !r.error && r.facts.every((f) => f.agree));
const facts = compared.flatMap((r) => r.facts);
const unsettled = results.length - compared.length;
console.log(
  `\n${agreeing.length}/${compared.length} clusters agree; facts ${facts.filter((f) => f.agree).length}/${facts.length}` +
    (unsettled ? ` (${unsettled} generated cluster${unsettled === 1 ? '' : 's'} did not settle, not compared)` : '') +
    `; ${compared.reduce((n, r) => n + r.notJudged.length, 0)} replacement facts not judged`,
);
const disagreements = compared.flatMap((r) => [
  ...(r.error ? [`seed ${r.seed}: error: ${r.error}`] : []),
  ...r.facts
    .filter((f) => !f.agree)
    .map((f) => `seed ${r.seed} (${r.node}): ${f.subject}: ${f.fact}: plan ${f.plan}; cluster ${f.cluster}`),
]);
if (disagreements.length > 0) console.log(['disagreements:', ...disagreements.map((d) => `  ${d}`)].join('\n'));
console.log(`the lab stays up: LAB_DIR=${labDir} npm run lab -- down`);
process.exit(disagreements.length > 0 ? 1 : 0);
