import { stringify } from 'yaml';
import type { ReleasedNode } from '../run/abandon.js';
import type { RunListing } from '../run/runs.js';
import { NODE_PHASES } from '../run/state.js';
import { formatSeconds } from './format.js';
import { plural } from '../wording.js';
import { fitColumns, formatColumns } from './text-columns.js';
import { UNLIMITED_WIDTH } from './text-wrap.js';
import { safeText } from '../safe-text.js';

/**
 * `kubectl maint runs` as text: one row per run, kubectl-style columns, within `width` (a terminal's):
 * COMMAND, then HOLDER, then NODES cut to fit, with an ellipsis, as k9s cuts its columns; a pipe or a file
 * gets every row whole, as from kubectl get.
 *
 *   RUN                  STATE     HOLDER               STARTED   NODES                          COMMAND
 *   20261202-0801-ab12   expired   ops@bastion pid 42   12m ago   1 command-running, 5 pending   reboot.sh {node}
 */
export function runsTable(runs: readonly RunListing[], nowMs: number, width = UNLIMITED_WIDTH): string[] {
  const rows = runs.map((r) => [
    r.id,
    r.state,
    r.holder ? safeText(r.holder) : '-',
    r.started ? `${formatSeconds((nowMs - Date.parse(r.started)) / 1000)} ago` : '-',
    safeText(phaseCounts(r.nodes)),
    r.command ? safeText(r.command.join(' ')) || '(none)' : '-',
  ]);
  const header = ['RUN', 'STATE', 'HOLDER', 'STARTED', 'NODES', 'COMMAND'];
  return formatColumns(fitColumns([header, ...rows], width, [5, 2, 4]));
}

/** "1 command-running, 5 pending": the run's nodes counted by phase, in the run's order of phases. */
function phaseCounts(nodes: RunListing['nodes']): string {
  const order: readonly string[] = NODE_PHASES;
  const rank = (phase: string) => (order.includes(phase) ? order.indexOf(phase) : order.length);
  return Object.entries(nodes)
    .sort(([a], [b]) => rank(b) - rank(a) || a.localeCompare(b))
    .map(([phase, names]) => `${names.length} ${phase}`)
    .join(', ');
}

/** What `run --abandon` let go of: a line per node (its phase, cordoned or not), then the run's end. */
export function abandonedLines(runId: string, lease: string | null, nodes: readonly ReleasedNode[]): string[] {
  const cordoned = nodes.filter((n) => n.cordoned).map((n) => n.node);
  return [
    ...nodes.map(
      (n) =>
        `node/${n.node} released (was ${n.phase ?? 'without a phase'}): ${n.cordoned ? 'left cordoned' : 'schedulable'}`,
    ),
    `run ${runId} abandoned: ${lease ? `Lease ${lease} deleted` : 'it had no Lease'}, ${plural(nodes.length, 'node')} released${cordoned.length > 0 ? `; to put the cordoned ones back in service: kubectl maint uncordon ${cordoned.join(' ')}` : ''}`,
  ];
}

/** -o json|yaml: the runs as a list document (RunListing's fields may be added, never renamed or removed). */
export function runsDocument(runs: readonly RunListing[], format: 'json' | 'yaml'): string {
  const document = { kind: 'RunList', apiVersion: 'maint.kubectl.io/v1alpha1', items: runs };
  return format === 'json' ? `${JSON.stringify(document, null, 2)}\n` : stringify(document, { indent: 2 });
}
