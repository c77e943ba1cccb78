import { planOptionsOf } from '../drain/drain-settings.js';
import { buildPlan } from '../plan/build-plan.js';
import type { DrainOptions, DrainPlan, PlanOptions } from '../plan/types.js';
import { ClusterIndex } from '../snapshot/cluster-index.js';
import { isScopedKindWarning, type Snapshot } from '../snapshot/types.js';
import type { ReadProgressReporter } from '../ui/read-progress.js';
import { connect } from './kube-connect.js';
import { writeErr } from './output.js';
import { asCliError } from './kube-flag-values.js';
import { resolveNodes, type NodeSelection } from './node-selection.js';
import type { ReadFlagValues } from './plan-flags.js';

/** What `plan`, `drain`, `run` and `demo` share to plan: the spinner while reading, a loaded snapshot's nodes, its plan. */

/** The spinner on stderr while reading, loaded only when stderr is a terminal (it is ora, and only draws there). */
export async function readProgress(): Promise<ReadProgressReporter | null> {
  if (!process.stderr.isTTY) return null;
  const { startReadProgress } = await import('../ui/read-progress.js');
  return startReadProgress();
}

/** The snapshot's nodes for the selection, and the index the plans use; warnings from loading go to stderr first. */
export function indexAndNodes(snapshot: Snapshot, selection: NodeSelection): { index: ClusterIndex; nodes: string[] } {
  // A kind that judges only some replacements is said on the pods it concerns, as a caveat (plan/caveats.ts).
  for (const warning of snapshot.warnings.filter((w) => !isScopedKindWarning(w))) {
    writeErr(`warning: ${warning}\n`);
  }
  const index = ClusterIndex.of(snapshot);
  return { index, nodes: resolveNodes(index, selection) };
}

/** A plan's input: the drain's options for these nodes, now. */
export function planOptionsNow(options: DrainOptions, nodes: readonly string[]): PlanOptions {
  return planOptionsOf(options, nodes, Math.floor(Date.now() / 1000));
}

/** Plans a loaded snapshot (the nodes drained together); warnings from loading go to stderr first. */
export function planSnapshot(snapshot: Snapshot, selection: NodeSelection, options: DrainOptions): DrainPlan {
  const { index, nodes } = indexAndNodes(snapshot, selection);
  return buildPlan(index, planOptionsNow(options, nodes));
}

/** Loads the snapshot the flags name: the file of --snapshot, else the live cluster. */
export async function snapshotFromFlags(
  values: ReadFlagValues,
  progress?: ReadProgressReporter | null,
): Promise<Snapshot> {
  try {
    if (values.snapshot) {
      const { loadSnapshotFile } = await import('../snapshot/load-file.js');
      return await loadSnapshotFile(values.snapshot, { onProgress: progress?.onFile });
    }
    const { loadLiveSnapshot } = await import('../snapshot/load-live.js');
    return await loadLiveSnapshot(await connect(values), { ...values, onProgress: progress?.onList });
  } catch (err) {
    throw asCliError(err);
  }
}
