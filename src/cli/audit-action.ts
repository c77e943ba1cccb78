import { buildAudit } from '../plan/audit.js';
import type { AuditFlagValues } from './commands/audit.js';
import { drainOptionsFrom } from './drain-flags.js';
import { planExitCode } from './exit-codes.js';
import { nodeSelection } from './node-selection.js';
import { showPlan } from './output.js';
import { indexAndNodes, planOptionsNow, readProgress, snapshotFromFlags } from './plan-input.js';

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
    progress?.step(`Planning ${nodes.length} ${nodes.length === 1 ? 'node' : 'nodes'}`);
    audit = buildAudit(index, planOptionsNow(drainOptionsFrom(values), nodes));
  } finally {
    progress?.stop();
  }
  await showPlan(audit, values.output, { noTui: values.tui === false });
  return planExitCode(audit, values.allowIncomplete === true);
}
