import { runApi } from '../kube/run-api.js';
import { abandonRun } from '../run/abandon.js';
import { RunRefused } from '../run/claim.js';
import { readRunTimeline } from '../run/run-timeline.js';
import { listRuns } from '../run/runs.js';
import { earlierRunsNote } from '../run/state-namespace-check.js';
import { leaseName } from '../run/state.js';
import { runTimelineDocument, runTimelineText } from '../ui/run-timeline-text.js';
import { abandonedLines, runsDocument, runsNotes, runsTable } from '../ui/runs-text.js';
import type { RunsCommandValues } from './commands/runs.js';
import { DEFAULT_STATE_NAMESPACE } from '../kube/defaults.js';
import { writeDocument, writeErr, writeOut } from './output.js';
import { CliError, ExitCode } from './exit-codes.js';
import { connect } from './kube-connect.js';
import { asCliError, type KubeFlagValues } from './kube-flag-values.js';
import { terminalWidth } from './terminal.js';

/** `kubectl maint runs`: the runs in the cluster as a table, or -o json|yaml (a list of RunListing). */
export async function runsAction(values: RunsCommandValues): Promise<number> {
  const api = runApi(await connect(values));
  const now = Date.now();
  const flags = values.stateNamespace === DEFAULT_STATE_NAMESPACE ? '' : ` --state-namespace ${values.stateNamespace}`;
  const runs = await listRuns(api, values.stateNamespace, now, flags).catch((err: unknown) => {
    throw asCliError(err);
  });
  if (values.output) writeDocument(runsDocument(runs, values.output));
  else if (runs.length === 0) writeErr(`No runs found in ${values.stateNamespace} namespace.\n`);
  else {
    writeOut(`${runsTable(runs, now, terminalWidth(process.stdout)).join('\n')}\n`);
    for (const note of runsNotes(runs)) writeErr(`${note}\n`);
  }
  const earlier = await earlierRunsNote(api, values.stateNamespace);
  if (earlier) writeErr(`note: ${earlier}\n`);
  return ExitCode.Ok;
}

/** Text without a terminal (a log, a pipe) is laid out for this many columns. */
const DEFAULT_WIDTH = 80;

/** `kubectl maint runs show ID`: the run's timeline, text to the terminal's width (80 otherwise), or -o json|yaml. */
export async function showRunAction(runId: string, values: RunsCommandValues): Promise<number> {
  const api = runApi(await connect(values));
  try {
    const timeline = await readRunTimeline(api, values.stateNamespace, runId, Date.now());
    if (values.output) writeDocument(runTimelineDocument(timeline, values.output));
    else {
      const width = terminalWidth(process.stdout) ?? DEFAULT_WIDTH;
      writeOut(`${runTimelineText(timeline, width).join('\n')}\n`);
    }
    return ExitCode.Ok;
  } catch (err) {
    if (err instanceof RunRefused) throw new CliError(err.message);
    throw asCliError(err);
  }
}

/** `kubectl maint run --abandon ID`: the run's Lease and claims released, each node's state said. */
export async function abandonAction(
  runId: string,
  values: KubeFlagValues & { readonly stateNamespace: string },
): Promise<number> {
  const api = runApi(await connect(values));
  try {
    const { lease, nodes } = await abandonRun({ api, namespace: values.stateNamespace, nowMs: Date.now() }, runId);
    const name = lease ? `${values.stateNamespace}/${leaseName(runId)}` : null;
    writeOut(`${abandonedLines(runId, name, nodes).join('\n')}\n`);
    return ExitCode.Ok;
  } catch (err) {
    if (err instanceof RunRefused) throw new CliError(err.message);
    throw asCliError(err);
  }
}
