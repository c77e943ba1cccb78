/**
 * A run's record of one cluster (`seed-N.json`, with the cluster as the plan read it in
 * `seed-N.snapshot.json`) and its replay: `npm run fidelity -- --replay DIR` judges the cluster's recorded
 * facts (the drain's events, the pods before and after) against the plan as it is now, planned again from
 * the snapshot, without a lab.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type * as Commands from './commands.js';
import type * as Compare from './compare.js';
import type { ClusterResult } from './harness.js';

// Imported by URL: node runs these scripts from source and resolves a .ts file only by its own name.
const load = async <T>(file: string) => (await import(new URL(file, import.meta.url).href)) as T;
const { compare } = await load<typeof Compare>('./compare.ts');
const { CLI, planDrain } = await load<typeof Commands>('./commands.ts');

/**
 * `seed-N.json`: the cluster's result as the run printed it (its facts as the run's plan judged them), and
 * what they were judged on (compare.ts's Observation: as much of it as was read, after an error). A file
 * written before the results were recorded holds the Observation alone.
 */
export type ClusterRecord = Omit<ClusterResult, 'evidence' | 'snapshot'> & Partial<Compare.Observation>;

export const recordFile = (dir: string, seed: number) => path.join(dir, `seed-${seed}.json`);
export const snapshotFile = (dir: string, seed: number) => path.join(dir, `seed-${seed}.snapshot.json`);

/** A result as its record file holds it (the snapshot goes to a file of its own). */
export function recordOf(result: ClusterResult): ClusterRecord {
  const { evidence, snapshot: _snapshot, ...rest } = result;
  return { ...rest, ...evidence };
}

/** The seeds of the records in `dir`, in order. */
export function recordedSeeds(dir: string): number[] {
  return readdirSync(dir)
    .map((name) => /^seed-(\d+)\.json$/.exec(name)?.[1])
    .filter((seed) => seed !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

/** The record of `seed` in `dir`; one holding an Observation alone is a settled cluster of unknown results. */
export function readRecord(dir: string, seed: number): ClusterRecord {
  const saved = JSON.parse(readFileSync(recordFile(dir, seed), 'utf8')) as Partial<ClusterRecord>;
  return { settled: true, facts: [], notJudged: [], seconds: 0, ...saved, seed };
}

/**
 * The recorded Observation, when the run got as far as the replacements settling, with the webhooks the
 * API server called where the run recorded them.
 */
function observationOf(record: ClusterRecord): Compare.Observation | undefined {
  const { node, plan, events, before, after, webhookCalls } = record;
  return node !== undefined && plan && events && before && after && record.error === undefined
    ? { node, plan, events, before, after, ...(webhookCalls ? { webhookCalls } : {}) }
    : undefined;
}

/**
 * The record judged again: planned from `snapshot` by `cli` (the build, unless told) and compared with
 * what the cluster did. A cluster that did not settle, or whose run ended in an error before the
 * comparison, comes back as recorded: there is nothing to judge.
 */
export async function replayCluster(
  record: ClusterRecord,
  snapshot: string,
  cli: readonly string[] = CLI,
): Promise<ClusterResult> {
  const observed = observationOf(record);
  if (!record.settled || !observed) return record;
  const base = {
    seed: record.seed,
    settled: true,
    node: observed.node,
    pods: record.pods ?? observed.before.filter((p) => !p.daemonSet).length,
    seconds: record.seconds,
  };
  let plan;
  try {
    plan = await planDrain(observed.node, { KUBECONFIG: '' }, ['--snapshot', snapshot], cli);
  } catch (error) {
    return { ...base, facts: [], notJudged: [], error: `planning again: ${(error as Error).message}` };
  }
  const evidence = { ...observed, plan };
  return { ...base, verdict: plan.verdict, ...compare(evidence), evidence };
}
