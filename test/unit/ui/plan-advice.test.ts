import { describe, expect, it } from 'vitest';
import { nextCommand } from '../../../src/cli/plan-action.js';
import { buildProgram } from '../../../src/cli/main.js';
import { suggestedCommands } from '../../../src/cli/suggested-commands.js';
import { buildPlan } from '../../../src/plan/build-plan.js';
import type { DrainPlan } from '../../../src/plan/types.js';
import { planAdvice } from '../../../src/ui/plan-advice.js';
import { renderPlanText } from '../../../src/ui/plan-text.js';
import { planDocument } from '../../../src/ui/plan-document.js';
import { INITIAL_SCREEN_STATE, layoutScreen } from '../../../src/ui/plan-screen.js';
import { makeDaemonSet, makeIndex, makePdb, makePod, makeStatefulSet, type SnapshotInput } from '../builders.js';
import { nodes, options, owners, web } from '../plan/rules-fixture.js';

// "What to do" names the fix for what actually holds the drain, and the command to run next carries the
// flag it recommends.

const program = await buildProgram();
const typed = (argv: string[]) => suggestedCommands(program, argv);

const budget = (app: string, ns: string, healthy: number, extra: { minAvailable?: number } = {}) =>
  makePdb()
    .name(app)
    .ns(ns)
    .selector({ app })
    .minAvailable(extra.minAvailable ?? healthy)
    .status({ disruptionsAllowed: 0, currentHealthy: healthy, desiredHealthy: healthy, expectedPods: healthy })
    .obj();

const kubeProxy = makePod()
  .name('kube-proxy-1')
  .ns('kube-system')
  .node('n1')
  .owner('DaemonSet', 'kube-proxy')
  .tolerateEverything()
  .obj();
const daemonSets = [makeDaemonSet().name('kube-proxy').ns('kube-system').obj()];

/** One web replica under minAvailable 1 (plus whatever else), planned on n1. */
function plan(input: SnapshotInput, overrides: Parameters<typeof options>[0] = {}): DrainPlan {
  return buildPlan(makeIndex({ nodes, ...owners, ...input }), options(overrides));
}

/** What the screen shows at this width, lines joined: every word whole (no split mid-word). */
function screenAt(p: DrainPlan, next: string | undefined, width: number): string {
  const layout = layoutScreen(planDocument(p, { nextCommand: next }), width, 60, INITIAL_SCREEN_STATE);
  for (const line of layout.lines) expect(line.text.length).toBeLessThanOrEqual(width);
  return layout.lines.map((l) => l.text.trim()).join(' ');
}

describe('What to do when DaemonSets are the only problem', () => {
  // kube-proxy is refused (no --ignore-daemonsets), so kubectl drains nothing on n1: web waits on the
  // refusal, not on its budget, though the budget allows nothing right now.
  const p = plan(
    { pods: [kubeProxy, web('a').obj(), web('b', 'n2').obj()], pdbs: [budget('web', 'shop', 2)], daemonSets },
    { ignoreDaemonSets: false },
  );
  const next = nextCommand(p, typed(['plan', 'n1', '--context', 'lab']));

  it('says --ignore-daemonsets, not "relax the budget"', () => {
    const advice = planAdvice(p, next);
    expect(advice[0]).toMatch(/^kube-system\/kube-proxy-1: add --ignore-daemonsets to leave DaemonSet pods/);
    expect(advice.join('\n')).not.toMatch(/relax/);
  });

  it('plans again with the flag it recommends', () => {
    expect(next).toBe('kubectl maint plan n1 --context lab --ignore-daemonsets');
    expect(planAdvice(p, next).at(-1)).toBe(`then plan again: ${next}`);
  });

  it.each([60, 80, 120])('shows both at %i columns, words whole', (width) => {
    const screen = screenAt(p, next, width);
    expect(screen).toContain('add --ignore-daemonsets');
    expect(screen).toContain(`then plan again: ${next}`);
    expect(screen).not.toContain('relax');
  });
});

describe('What to do when a one-replica workload sits under minAvailable 1', () => {
  const single = plan({ pods: [web('a').obj()], pdbs: [budget('web', 'shop', 1)] });
  const next = nextCommand(single, typed(['plan', 'n1']));

  it('a Deployment: --surge is the way out, and the next plan carries it', () => {
    expect(single.verdict).toBe('blocked');
    expect(single.waysOut).toEqual({ surge: ['shop/web'], escalate: ['shop'] });
    expect(planAdvice(single, next)[0]).toBe(
      'shop/a: add --surge=shop/web (an extra Ready replica first, then the eviction its budget allows: nothing is broken)',
    );
    expect(next).toBe('kubectl maint plan n1 --surge=shop/web');
    // And it is enough: the same plan with the flag can finish.
    expect(
      plan(
        { pods: [web('a').obj()], pdbs: [budget('web', 'shop', 1)] },
        { surge: { all: false, deployments: ['shop/web'] } },
      ).verdict,
    ).toBe('slow');
  });

  it('a StatefulSet (no surge): relax, scale up, or --escalate-after for its namespace', () => {
    const db = makePod().name('db-0').ns('demo').node('n1').label('app', 'db').owner('StatefulSet', 'db').obj();
    const p = plan({
      pods: [db],
      pdbs: [budget('db', 'demo', 1)],
      statefulSets: [makeStatefulSet().name('db').ns('demo').replicas(1).obj()],
    });
    expect(p.waysOut).toEqual({ surge: [], escalate: ['demo'] });
    expect(planAdvice(p)[0]).toBe(
      'demo/db-0: relax budget demo/db or scale the workload up so a disruption is allowed, or add --escalate-after ' +
        'DURATION --escalate-namespace demo to delete them past the budget after that long (--disable-eviction would ' +
        'bypass every budget: unsafe)',
    );
    // No flag would change the answer: the plan does not suggest itself again.
    expect(nextCommand(p, typed(['plan', 'n1']))).toBeUndefined();
  });

  it('a strategy already chosen is not advised again', () => {
    const surged = plan(
      { pods: [web('a').obj()], pdbs: [budget('web', 'shop', 1)] },
      { surge: { all: true, deployments: [] } },
    );
    expect(surged.waysOut).toEqual({ surge: [], escalate: ['shop'] });
    // Nor is its pod told to relax its budget: the chosen surge takes it out.
    expect(planAdvice(surged)).toEqual([
      'nothing to fix: the drain finishes by itself, each waiting for replacements to become Ready (--timeout bounds the whole drain)',
    ]);
    const escalated = plan(
      { pods: [web('a').obj()], pdbs: [budget('web', 'shop', 1)] },
      { escalation: { afterSeconds: 60, namespaces: ['shop'] } },
    );
    expect(planAdvice(escalated).join('\n')).not.toMatch(/shop\/a: relax/);
  });

  it.each([60, 80, 120])('shows the surge advice and the next plan at %i columns, words whole', (width) => {
    const screen = screenAt(single, next, width);
    expect(screen).toContain('shop/a: add --surge=shop/web (an extra Ready replica first');
    expect(screen).toContain('then plan again: kubectl maint plan n1 --surge=shop/web');
  });
});

describe('the text plan (--no-tui, a pipe) says what the full-screen view says', () => {
  const single = plan({ pods: [web('a').obj()], pdbs: [budget('web', 'shop', 1)] });
  const next = nextCommand(single, typed(['plan', 'n1', '--ignore-daemonsets']));

  it('a blocked plan: "What to do" names --surge=NS/NAME, and the plan to run next carries it', () => {
    const text = renderPlanText(single, { nextCommand: next });
    const screen = screenAt(single, next, 200);
    expect(text).toContain('What to do:\n  - shop/a: add --surge=shop/web (an extra Ready replica first');
    expect(text).toContain('  - then plan again: kubectl maint plan n1 --ignore-daemonsets --surge=shop/web\n');
    for (const advice of planAdvice(single, next)) {
      expect(text).toContain(`- ${advice}`);
      expect(screen).toContain(advice);
    }
  });

  it('a refused pod is advised its flag from the plan, not from the words of its reason', () => {
    const p = plan({ pods: [kubeProxy, web('a').obj()], daemonSets }, { ignoreDaemonSets: false });
    const refused = p.pods.find((pod) => pod.action === 'refuse')!;
    expect(refused.override).toBe('--ignore-daemonsets');
    const reworded = { ...p, pods: p.pods.map((pod) => (pod === refused ? { ...pod, reason: 'DaemonSet pod' } : pod)) };
    expect(planAdvice(reworded)[0]).toMatch(/^kube-system\/kube-proxy-1: add --ignore-daemonsets/);
    expect(nextCommand(reworded, typed(['plan', 'n1']))).toBe('kubectl maint plan n1 --ignore-daemonsets');
  });

  it('a blocked plan no flag helps does not suggest itself as the next command', () => {
    const db = makePod().name('db-0').ns('demo').node('n1').label('app', 'db').owner('StatefulSet', 'db').obj();
    const p = plan({
      pods: [db],
      pdbs: [budget('db', 'demo', 1)],
      statefulSets: [makeStatefulSet().name('db').ns('demo').replicas(1).obj()],
    });
    const text = renderPlanText(p, { nextCommand: nextCommand(p, typed(['plan', 'n1'])) });
    expect(text).toContain('What to do:\n  - demo/db-0: relax budget demo/db');
    expect(text).not.toContain('plan again');
  });
});
