import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { renderJson as renderPlanJson, renderYaml as renderPlanYaml } from '../../../src/ui/document.js';
import { blockedPlan, slowPlan } from './plan-fixture.js';

/** The fields scripts rely on (the -o json contract). */
function contractFields(plan: ReturnType<typeof slowPlan>) {
  return {
    kind: plan.kind,
    nodes: plan.nodes,
    verdict: plan.verdict,
    pods: plan.pods.map((p) => ({
      namespace: p.namespace,
      name: p.name,
      node: p.node,
      action: p.action,
      outcome: p.outcome,
      pdbs: p.pdbs.map((b) => ({ namespace: b.namespace, name: b.name, disruptionsAllowed: b.disruptionsAllowed })),
      replacement:
        p.replacement === null ? null : { schedulable: p.replacement.schedulable, nodes: p.replacement.nodes },
      noExecute: { afterSeconds: p.noExecute.afterSeconds },
      nodeFailure: { afterSeconds: p.nodeFailure.afterSeconds },
    })),
  };
}

describe('renderPlanJson', () => {
  it('prints exactly one object, 2-space indented, ending in a newline', () => {
    const text = renderPlanJson(slowPlan());
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.split('\n')[1]).toBe('  "kind": "DrainPlan",');
    expect(() => JSON.parse(text)).not.toThrow();
  });
  it.each([
    { name: 'slow', plan: slowPlan() },
    { name: 'blocked', plan: blockedPlan() },
  ])('round-trips the contract fields of a $name plan unchanged', ({ plan }) => {
    const parsed = JSON.parse(renderPlanJson(plan));
    expect(contractFields(parsed)).toEqual(contractFields(plan));
    expect(parsed).toEqual(plan);
  });
  it('keeps a pod without replacement as null, not as a missing field', () => {
    const parsed = JSON.parse(renderPlanJson(slowPlan()));
    const daemon = parsed.pods.find((p: { name: string }) => p.name === 'kube-proxy-x1');
    expect(daemon).toHaveProperty('replacement', null);
    expect(daemon.noExecute).toEqual({ afterSeconds: null, reason: 'tolerates every taint' });
  });
});

describe('renderPlanYaml', () => {
  it('prints one YAML document equal to the plan', () => {
    const text = renderPlanYaml(blockedPlan());
    expect(parseAllDocuments(text)).toHaveLength(1);
    expect(parse(text)).toEqual(blockedPlan());
    expect(text.startsWith('kind: DrainPlan\n')).toBe(true);
  });
  it('never folds a long scheduler message across lines', () => {
    const text = renderPlanYaml(blockedPlan());
    expect(text).toContain(
      "0/3 nodes are available: 1 node(s) didn't match pod topology spread constraints, 1 node(s)",
    );
  });
});
