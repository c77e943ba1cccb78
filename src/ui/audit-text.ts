import type { AuditCause, AuditNode, AuditWorkload, ClusterAudit } from '../plan/audit-types.js';
import type { Verdict } from '../plan/types.js';
import { listNames } from './format.js';
import type { Block, PlanDocument, PlanSection } from './plan-document.js';
import { layoutPlanText } from './plan-layout.js';
import { UNLIMITED_WIDTH } from './text-wrap.js';
import { VERDICT_TONES } from './theme.js';
import { plural } from '../wording.js';

/** How many nodes a workload's line names before "and N more" (the nodes table names them all). */
const NODES_SHOWN = 6;

/**
 * The cluster audit as text, verdict first: the count of each verdict and the workloads holding most
 * nodes, then every workload (most nodes first) with its causes and their way out, then one row per node.
 *
 *   BLOCKED: 2 of 6 nodes cannot be drained
 *     - 6 nodes planned one by one: 2 blocked, 4 clear
 *     - Deployment shop/web blocks 2 nodes: the owner relaxes budget shop/web so that it allows a disruption
 *
 *   Workloads holding nodes back (1), most nodes first
 *     Deployment shop/web (budget shop/web): blocks pool-1, pool-2
 *       - budget shop/web never allows an eviction: maxUnavailable is 0 (shop/web-1, shop/web-2)
 *         way out: the owner relaxes budget shop/web so that it allows a disruption
 */
export function renderAuditText(audit: ClusterAudit, options: { readonly width?: number | undefined } = {}): string {
  return layoutPlanText(auditDocument(audit), options.width ?? UNLIMITED_WIDTH);
}

/** The audit as a document: what the text and the full-screen view both lay out. */
export function auditDocument(audit: ClusterAudit): PlanDocument {
  const sections: PlanSection[] = [];
  if (audit.workloads.length > 0) {
    sections.push({
      id: 'audit-workloads',
      title: `Workloads holding nodes back (${audit.workloads.length}), most nodes first`,
      blocks: audit.workloads.flatMap(workloadBlocks),
    });
  }
  sections.push({
    id: 'audit-nodes',
    title: `Nodes (${audit.nodes.length})`,
    blocks: [
      {
        kind: 'table',
        header: ['NODE', 'VERDICT', 'EVICTED', 'HELD BY'],
        rows: audit.nodes.map(nodeRow),
        tones: audit.nodes.map((n) => (n.verdict === 'clear' ? null : VERDICT_TONES[n.verdict])),
        indent: 2,
        lastCellBelow: true,
      },
    ],
  });
  return {
    headline: auditHeadline(audit),
    tone: VERDICT_TONES[audit.verdict],
    verdict: audit.verdictReasons.map((r) => bullet(r, 2)),
    sections,
  };
}

/** "BLOCKED: 2 of 6 nodes cannot be drained", "CLEAR: each of the 6 nodes can be drained at once"… */
export function auditHeadline(audit: ClusterAudit): string {
  const n = audit.nodes.length;
  const count = (v: Verdict) => `${audit.verdicts[v]} of ${plural(n, 'node')}`;
  switch (audit.verdict) {
    case 'blocked':
      return `BLOCKED: ${count('blocked')} cannot be drained`;
    case 'disruptive':
      return `DISRUPTIVE: draining ${count('disruptive')} leaves workloads with replicas down`;
    case 'incomplete':
      return `INCOMPLETE: ${count('incomplete')} could not be judged (a kind the plan needs was not read)`;
    case 'slow':
      return `SLOW: every node can be drained; ${count('slow')} wait for disruption budgets`;
    case 'clear':
      return n === 1
        ? 'CLEAR: the node can be drained at once'
        : `CLEAR: each of the ${n} nodes can be drained at once`;
  }
}

function workloadBlocks(w: AuditWorkload): Block[] {
  const budgets =
    w.budgets.length > 0 ? ` (${w.budgets.length === 1 ? 'budget' : 'budgets'} ${w.budgets.join(', ')})` : '';
  const held = [
    ...(w.blocks.length > 0 ? [`blocks ${listNames(w.blocks, NODES_SHOWN)}`] : []),
    ...(w.disrupts.length > 0 ? [`disrupts ${listNames(w.disrupts, NODES_SHOWN)}`] : []),
  ].join('; ');
  return [
    { kind: 'text', text: `${w.kind} ${w.namespace}/${w.name}${budgets}: ${held}`, indent: 2, bold: true },
    ...w.causes.flatMap((c) => [
      bullet(`${causeText(c)} (${listNames(c.pods, 3)})`, 4),
      { kind: 'text' as const, text: `way out: ${c.wayOut}`, indent: 6, hang: 2 },
    ]),
  ];
}

/** The cause in words, from its kind and its detail (the plan's own words for the fact). */
function causeText(c: AuditCause): string {
  switch (c.kind) {
    case 'refused':
      return `kubectl refuses the drain: ${c.detail}`;
    case 'budget-never-allows':
      return `budget ${c.budget} never allows an eviction: ${c.detail}`;
    case 'single-replica':
      return `a single replica its budget ${c.budget} keeps up: ${c.detail}`;
    case 'two-budgets':
      return `more than one budget selects its pods: ${c.detail}`;
    case 'admission-denied':
      return `the API server denies its eviction: ${c.detail}`;
    case 'budget-unhealthy':
      return c.detail;
    case 'no-room':
      return c.effect === 'disrupts'
        ? `replicas down ${c.until === 'for-good' ? 'for good' : 'until the node returns'}: no node takes the replacement: ${c.detail}`
        : `its budget waits for a replacement no node takes: ${c.detail}`;
    case 'unknown':
      return `whether it can be evicted is unknown: ${c.detail}`;
    case 'other':
      return c.detail;
  }
}

function nodeRow(n: AuditNode): string[] {
  return [n.name, n.verdict, String(n.evicted), n.workloads.map(workloadName).join(', ')];
}

/** "shop/Deployment/web" as people read it: "Deployment shop/web". */
function workloadName(id: string): string {
  const [namespace, kind, ...name] = id.split('/');
  return `${kind} ${namespace}/${name.join('/')}`;
}

function bullet(text: string, indent: number): Block {
  return { kind: 'text', text: `- ${text}`, indent, hang: 2 };
}
