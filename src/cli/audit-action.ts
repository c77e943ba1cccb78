import { auditNode, auditOf, buildAudit, type NodeFindings } from '../plan/audit.js';
import type { AuditFlagValues } from './commands/audit.js';
import { drainOptionsFrom } from './drain-flags.js';
import { planExitCode } from './exit-codes.js';
import { nodeSelection } from './node-selection.js';
import { showPlan } from './output.js';
import { indexAndNodes, planOptionsNow, readProgress, snapshotFromFlags } from './plan-input.js';

/** How often the spinner gets a turn while the nodes are planned. */
const SPINNER_TURN_MS = 100;

/**
 * What `kubectl maint audit` does once its flags are parsed: one read of the cluster (or the snapshot
 * file), every selected node planned on its own against it, the audit shown. Returns the exit code: the
 * worst node verdict's, as plan's (0 clear or slow, 3 blocked, 4 incomplete, 5 disruptive).
 */
export async function auditAction(nodeArgs: readonly string[], values: AuditFlagValues): Promise<number> {
  // Neither NODE… nor -l: every node (the selector that matches all).
  const selection =
    nodeArgs.length === 0 && !values.selector ? { selector: '' } : nodeSelection(nodeArgs, values.selector);
  const progress = await readProgress();
  let audit;
  try {
    const snapshot = await snapshotFromFlags(values, progress);
    if (snapshot.warnings.length > 0) progress?.stop();
    const { index, nodes } = indexAndNodes(snapshot, selection);
    const options = planOptionsNow(drainOptionsFrom(values), nodes);
    if (!progress) audit = buildAudit(index, options);
    else {
      // On a terminal the spinner counts the nodes: the event loop gets a turn every few plans to draw it.
      const findings: NodeFindings[] = [];
      let drawn = 0;
      for (const node of new Set(nodes)) {
        if (performance.now() - drawn > SPINNER_TURN_MS) {
          progress.step(`Planning node ${findings.length + 1} of ${nodes.length}`);
          await new Promise((resolve) => setImmediate(resolve));
          drawn = performance.now();
        }
        findings.push(auditNode(index, options, node));
      }
      audit = auditOf(findings);
    }
  } finally {
    progress?.stop();
  }
  await showPlan(audit, values.output, { noTui: values.tui === false });
  return planExitCode(audit, values.allowIncomplete === true);
}
