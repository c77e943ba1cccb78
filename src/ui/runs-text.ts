import { renderJson, renderYaml } from './document.js';
import type { ReleasedNode } from '../run/abandon.js';
import type { RunListing } from '../run/runs.js';
import { NODE_PHASES } from '../run/state.js';
import { formatSeconds } from './format.js';
import { plural } from '../wording.js';
import { fitColumns, formatColumns, tableWidth } from './text-columns.js';
import { displayWidth, UNLIMITED_WIDTH } from './text-wrap.js';
import { safeText } from '../safe-text.js';

/** What COMMAND keeps, whole when shorter, before NODES is cut: enough to tell one script from another. */
export const COMMAND_KEEPS = 24;

const HOLDER = 2;

/**
 * `kubectl maint runs` as text: one row per run, kubectl-style columns, AGE how long ago the run started.
 * A pipe or a file gets every row whole, as from kubectl get. Within `width` (a terminal's), COMMAND keeps
 * COMMAND_KEEPS columns (or its whole text): HOLDER shows only when every column fits whole with that
 * (`runs show RUN` names the holder, as kubectl get leaves its lesser columns to -o wide), then NODES is
 * cut to fit, then COMMAND below that, each with an ellipsis, as k9s cuts its columns. RUN, STATE and AGE
 * are never cut (the run's id is what the user types next).
 *
 *   RUN                  STATE     HOLDER               AGE   NODES                          COMMAND
 *   20261202-0801-ab12   expired   ops@bastion pid 42   12m   1 command-running, 5 pending   reboot.sh {node}
 */
export function runsTable(runs: readonly RunListing[], nowMs: number, width = UNLIMITED_WIDTH): string[] {
  const rows = runs.map((r) => [
    r.id,
    r.state,
    r.holder ? safeText(r.holder) : '-',
    r.started ? formatSeconds((nowMs - Date.parse(r.started)) / 1000) : '-',
    safeText(phaseCounts(r.nodes)),
    r.command ? safeText(r.command.join(' ')) || '(none)' : '-',
  ]);
  const table = [['RUN', 'STATE', 'HOLDER', 'AGE', 'NODES', 'COMMAND'], ...rows];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => displayWidth(row[i]!))));
  const fits = tableWidth([...widths.slice(0, 5), Math.min(widths[5]!, COMMAND_KEEPS)]) <= width;
  const shown = fits ? table : table.map((row) => row.filter((_, i) => i !== HOLDER));
  const [nodes, commandColumn] = fits ? [4, 5] : [3, 4];
  return formatColumns(fitColumns(shown, width, [[commandColumn, COMMAND_KEEPS], nodes, commandColumn]));
}

/**
 * What to do next with the runs the table cannot show it for, one note each (stderr, as kubectl's hints):
 * a run whose Lease is lost, and one whose holder on this host is gone.
 *
 *   note: run 20261202-0801-ab12 lost its Lease: continue it with kubectl maint run --resume 20261202-0801-ab12
 */
export function runsNotes(runs: readonly RunListing[]): string[] {
  return runs.flatMap((r) => {
    if (!r.next) return [];
    if (r.state === 'no-lease') {
      return r.next.includes('--abandon')
        ? [`note: run ${r.id} lost its Lease and its nodes do not record it: end it with ${r.next}`]
        : [`note: run ${r.id} lost its Lease: continue it with ${r.next}`];
    }
    if (r.state === 'dead') return [`note: run ${r.id}'s holder is gone from this host: continue it with ${r.next}`];
    return [];
  });
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
  return format === 'json' ? renderJson(document) : renderYaml(document);
}
