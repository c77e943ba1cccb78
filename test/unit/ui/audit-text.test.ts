import { describe, expect, it } from 'vitest';
import { buildAudit } from '../../../src/plan/audit.js';
import type { ClusterAudit } from '../../../src/plan/audit-types.js';
import { ClusterIndex } from '../../../src/snapshot/cluster-index.js';
import { loadEmbeddedSnapshot } from '../../../src/snapshot/embedded.js';
import { auditDocument, auditHeadline, renderAuditText } from '../../../src/ui/audit-text.js';
import { options } from '../plan/rules-fixture.js';
import { layoutScreen, INITIAL_SCREEN_STATE } from '../../../src/ui/plan-screen.js';

function auditOfExample(name: 'hello' | 'hello-blocked'): ClusterAudit {
  const index = new ClusterIndex(loadEmbeddedSnapshot(name));
  return buildAudit(index, options({ nodes: index.nodes.map((n) => n.metadata!.name!) }));
}

describe('renderAuditText', () => {
  it('the bundled blocked example: verdict, the workload with its causes and way out, one row per node', () => {
    const lines = renderAuditText(auditOfExample('hello-blocked')).trimEnd().split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'BLOCKED: 2 of 3 nodes cannot be drained',
      '  - 3 nodes planned one by one: 2 blocked, 1 clear',
      '  - Deployment demo/hello blocks 2 nodes: make room for the replacement (free capacity, add or uncordon a node) or the owner relaxes the constraint the scheduler names',
    ]);
    expect(lines).toContain('Workloads holding nodes back (1), most nodes first');
    expect(lines).toContain('  Deployment demo/hello (budget demo/hello): blocks k8s-node-1, k8s-node-2');
    expect(lines.filter((l) => l.startsWith('      way out: '))).toHaveLength(2);
    expect(lines.slice(-5)).toEqual([
      'Nodes (3)',
      '  NODE           VERDICT   EVICTED   HELD BY',
      '  k8s-master-1   clear     0',
      '  k8s-node-1     blocked   1         Deployment demo/hello',
      '  k8s-node-2     blocked   1         Deployment demo/hello',
    ]);
  });

  it('the bundled slow example: no workload holds a node, so no workloads section', () => {
    const text = renderAuditText(auditOfExample('hello'));
    expect(text.split('\n')[0]).toBe('SLOW: every node can be drained; 2 of 3 nodes wait for disruption budgets');
    expect(text).not.toContain('Workloads holding nodes back');
  });

  it.each([
    { verdict: 'clear', headline: 'CLEAR: each of the 3 nodes can be drained at once' },
    { verdict: 'disruptive', headline: 'DISRUPTIVE: draining 1 of 3 nodes leaves workloads with replicas down' },
    {
      verdict: 'incomplete',
      headline: 'INCOMPLETE: 1 of 3 nodes could not be judged (a kind the plan needs was not read)',
    },
  ] as const)('headline when the worst verdict is $verdict', ({ verdict, headline }) => {
    const audit = auditOfExample('hello');
    const verdicts = {
      clear: 3,
      slow: 0,
      blocked: 0,
      disruptive: 0,
      incomplete: 0,
      [verdict]: verdict === 'clear' ? 3 : 1,
    };
    expect(auditHeadline({ ...audit, verdict, verdicts })).toBe(headline);
  });

  it('the full-screen view lays out the same document, its sections numbered', () => {
    const layout = layoutScreen(auditDocument(auditOfExample('hello-blocked')), 100, 40, INITIAL_SCREEN_STATE);
    expect(layout.sectionStarts.map((s) => s.id)).toEqual(['audit-workloads', 'audit-nodes']);
    expect(layout.lines[0]!.text).toBe('BLOCKED: 2 of 3 nodes cannot be drained');
  });
});
