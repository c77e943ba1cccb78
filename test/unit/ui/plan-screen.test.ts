import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { drainOptionsFrom } from '../../../src/cli/drain-flags.js';
import { planSnapshot } from '../../../src/cli/plan-input.js';
import type { DrainPlan } from '../../../src/plan/types.js';
import { snapshotFromText } from '../../../src/snapshot/load-file.js';
import { planDocument } from '../../../src/ui/plan-document.js';
import {
  applyAction,
  INITIAL_SCREEN_STATE,
  keyAction,
  layoutScreen,
  screenSummary,
  type ScreenAction,
  type ScreenLayout,
  type ScreenState,
} from '../../../src/ui/plan-screen.js';
import { blockedPlan } from './plan-fixture.js';

/** The lab's scenarios, planned as `kubectl maint plan k8s-node-1 --ignore-daemonsets` plans them. */
function labPlan(name: 'hello' | 'hello-ignore'): DrainPlan {
  const path = new URL(`../../fixtures/plan/${name}.json`, import.meta.url);
  const snapshot = snapshotFromText(readFileSync(path, 'utf8'), { type: 'file', path: path.pathname }, name);
  return planSnapshot(
    snapshot,
    { names: ['k8s-node-1'] },
    drainOptionsFrom({
      ignoreDaemonsets: true,
      taint: { key: 'kubectl-maint/maintenance' },
      nodeMonitorGracePeriod: 50,
    }),
  );
}

const SIZES = [
  { width: 60, height: 20 },
  { width: 80, height: 24 },
  { width: 120, height: 40 },
];
const NEXT = 'kubectl maint drain k8s-node-1 --ignore-daemonsets';

function texts(layout: ScreenLayout): string[] {
  return layout.lines.map((l) => l.text);
}

/** Applies actions one after another, as the Ink shell does (each on the layout of the state before). */
function press(plan: DrainPlan, width: number, height: number, actions: ScreenAction[], from = INITIAL_SCREEN_STATE) {
  let state: ScreenState = from;
  for (const action of actions) {
    const document = planDocument(plan, { details: state.details, nextCommand: NEXT });
    state = applyAction(layoutScreen(document, width, height, state), action);
  }
  return layoutScreen(planDocument(plan, { details: state.details, nextCommand: NEXT }), width, height, state);
}

describe('layoutScreen: the first screen', () => {
  it.each(SIZES)('fills $width x $height exactly, no line wider than the screen', ({ width, height }) => {
    for (const plan of [labPlan('hello'), labPlan('hello-ignore'), blockedPlan()]) {
      const layout = press(plan, width, height, []);
      expect(layout.lines).toHaveLength(height);
      for (const text of texts(layout)) expect(text.length).toBeLessThanOrEqual(width);
    }
  });

  it.each(SIZES)('opens at $width x $height on the verdict, its reasons and what to do', ({ width, height }) => {
    const plan = labPlan('hello');
    const screen = texts(press(plan, width, height, [])).join('\n');
    const [first, second] = texts(press(plan, width, height, []));
    expect(first).toBe('SLOW: draining k8s-node-1 waits for disruption budgets');
    expect(second).toMatch(/^ {2}- budget demo\/hello lets 1 pod/);
    expect(screen).toContain('What to do:');
    expect(screen.replace(/\s+/g, ' ')).toContain(`drain: ${NEXT}`);
  });

  it('keeps the verdict pinned on the first line while the body scrolls', () => {
    const layout = press(labPlan('hello'), 80, 24, [{ type: 'bottom' }]);
    expect(layout.lines[0]?.text).toBe('SLOW: draining k8s-node-1 waits for disruption budgets');
    expect(layout.lines[0]?.tone).toBe('warn');
    expect(layout.state.scroll).toBe(layout.maxScroll);
    expect(layout.maxScroll).toBeGreaterThan(0);
  });

  it.each(SIZES)('reaches the last caveat with G at $width x $height', ({ width, height }) => {
    const plan = labPlan('hello-ignore');
    const lastCaveat = plan.caveats.at(-1)!;
    const body = texts(press(plan, width, height, [{ type: 'bottom' }]))
      .join(' ')
      .replace(/\s+/g, ' ');
    expect(body).toContain(lastCaveat.replace(/\s+/g, ' '));
  });

  it('ends with the key hints and where the screen is in the plan', () => {
    const layout = press(labPlan('hello'), 80, 24, [{ type: 'scroll', by: 3 }]);
    const footer = layout.lines.at(-1)!;
    expect(footer.text).toMatch(/^q quit · ↑↓ scroll · space page · tab section · enter fold/);
    expect(footer.text).toMatch(new RegExp(`4-${3 + layout.bodyHeight}/\\d+$`));
    expect(footer.text.length).toBe(80);
  });
});

describe('layoutScreen: what the model warns about', () => {
  it('names what the drain destroys and what was not read, with what to do, on the first screen', () => {
    const plan: DrainPlan = {
      ...labPlan('hello'),
      verdict: 'incomplete',
      assumedVerdict: 'slow',
      warnings: [
        {
          reason: 'PodsNotRecreated',
          message: '2 pods are deleted for good: no controller recreates them (--force)',
          pods: ['demo/a', 'demo/b'],
        },
      ],
      unread: [
        {
          kind: 'PodDisruptionBudget',
          why: 'snapshot "x.json" holds no PodDisruptionBudget object',
          effect: 'budgets are unknown',
          pods: [],
        },
      ],
    };
    const layout = press(plan, 80, 24, []);
    const screen = texts(layout).join('\n');
    expect(layout.lines[0]?.tone).toBe('bad');
    expect(screen).toContain('Warning: 2 pods are deleted for good: no controller recreates them (--force)');
    expect(screen.replace(/\s+/g, ' ')).toContain(
      'read PodDisruptionBudgets too (add them to the snapshot), or pass --allow-incomplete',
    );
    expect(screen.replace(/\s+/g, ' ')).toContain(`then plan again: ${NEXT}`);
    expect(screenSummary(planDocument(plan, { nextCommand: NEXT }), 80)).toContain('Warning: 2 pods are deleted');
  });
});

describe('layoutScreen: never splits a pod name, and the budget table reads at 60 columns', () => {
  it('keeps every pod name whole on one line at 60 columns', () => {
    const plan = labPlan('hello-ignore');
    const names = plan.pods.map((p) => `${p.namespace}/${p.name}`);
    let state = INITIAL_SCREEN_STATE;
    const seen = new Set<string>();
    for (;;) {
      const layout = layoutScreen(planDocument(plan), 60, 20, state);
      for (const text of texts(layout)) for (const name of names) if (text.includes(name)) seen.add(name);
      if (layout.state.scroll >= layout.maxScroll) break;
      state = applyAction(layout, { type: 'page', by: 1 });
    }
    expect([...seen].sort()).toEqual([...names].sort());
  });

  it('stacks each budget at 60 columns, every value labelled', () => {
    const plan = labPlan('hello');
    const layout = press(plan, 60, 20, [{ type: 'fold-number', index: 0 }]);
    const screen = texts(layout).join('\n');
    expect(screen).toContain('  demo/hello\n');
    expect(screen).toMatch(
      /\n {4}allowed: 1 · healthy\/desired: \d\/\d\n {4}on drained nodes: 2 pods · waves: 2 waves of 1\n/,
    );
  });

  it('keeps the budget table as a table at 80 columns', () => {
    const screen = texts(press(labPlan('hello'), 80, 24, [{ type: 'fold-number', index: 0 }])).join('\n');
    expect(screen).toMatch(
      / {2}NAME {9}ALLOWED {3}HEALTHY\/DESIRED {3}ON DRAINED NODES {3}WAVES\n {2}demo\/hello {3}1 /,
    );
  });
});

describe('folding and moving between sections', () => {
  it('folds a section with its number key and unfolds it again', () => {
    const plan = labPlan('hello');
    const folded = press(plan, 120, 40, [{ type: 'fold-number', index: 0 }]);
    const screen = texts(folded).join('\n');
    expect(screen).toContain('▸ 1 Pods on k8s-node-1 (4)');
    expect(screen).not.toContain('Waits for a budget');
    const unfolded = texts(press(plan, 120, 40, [{ type: 'fold-number', index: 0 }], folded.state)).join('\n');
    expect(unfolded).toContain('▾ 1 Pods on k8s-node-1 (4)');
    expect(unfolded).toContain('Waits for a budget');
  });

  it('tab moves the next section header to the top and marks it; enter folds that section', () => {
    const plan = labPlan('hello');
    const onBudgets = press(plan, 80, 24, [
      { type: 'section', by: 1 },
      { type: 'section', by: 1 },
    ]);
    expect(onBudgets.focused).toBe('budgets');
    const budgetsRow = onBudgets.lines.find((l) => l.text.includes('2 Budgets'));
    expect(budgetsRow?.inverse).toBe(true);
    expect(onBudgets.lines[1]?.text).toBe('▾ 2 Budgets');
    const folded = press(plan, 80, 24, [{ type: 'fold' }], onBudgets.state);
    expect(folded.lines[1]?.text).toBe('▸ 2 Budgets');
    expect(folded.lines[2]?.text).toBe('');
    expect(folded.lines[3]?.text).toBe('▾ 3 Replacements');
  });

  it('shift-tab goes back a section; g and G go to the top and the end', () => {
    const plan = labPlan('hello');
    const back = press(plan, 80, 24, [
      { type: 'section', by: 1 },
      { type: 'section', by: 1 },
      { type: 'section', by: -1 },
    ]);
    expect(back.focused).toBe('pods');
    expect(press(plan, 80, 24, [{ type: 'bottom' }, { type: 'top' }]).state.scroll).toBe(0);
  });

  it('d shows why each node rejects a replacement', () => {
    const plan = blockedPlan();
    const before = texts(press(plan, 120, 40, [])).join('\n');
    expect(before).not.toContain('not on k8s-node-2');
    const after = texts(press(plan, 120, 40, [{ type: 'details' }, { type: 'fold-number', index: 0 }])).join('\n');
    expect(after).toContain("not on k8s-node-2: node(s) didn't match pod topology spread constraints");
  });
});

describe('resizing', () => {
  it('keeps the scroll within the plan when the screen grows, and the lines within the new width', () => {
    const plan = labPlan('hello');
    const small = press(plan, 60, 20, [{ type: 'bottom' }]);
    const large = layoutScreen(planDocument(plan, { nextCommand: NEXT }), 120, 40, small.state);
    expect(large.state.scroll).toBe(large.maxScroll);
    expect(large.lines).toHaveLength(40);
    expect(texts(large).join('\n')).toContain(plan.caveats.at(-1)!.slice(0, 40));
  });
});

describe('keyAction', () => {
  it.each([
    ['q', {}, 'quit'],
    ['', { escape: true }, 'quit'],
    ['c', { ctrl: true }, 'quit'],
    ['j', {}, 'scroll'],
    ['', { downArrow: true }, 'scroll'],
    ['k', {}, 'scroll'],
    [' ', {}, 'page'],
    ['', { pageDown: true }, 'page'],
    ['', { pageUp: true }, 'page'],
    ['g', {}, 'top'],
    ['G', {}, 'bottom'],
    ['', { tab: true }, 'section'],
    ['', { return: true }, 'fold'],
    ['3', {}, 'fold-number'],
    ['d', {}, 'details'],
  ] as const)('%j %j -> %s', (input, key, type) => {
    expect(keyAction(input, key)?.type).toBe(type);
  });

  it('ignores other keys', () => {
    expect(keyAction('x', {})).toBeNull();
  });
});

describe('screenSummary', () => {
  it('leaves the verdict, its reasons and the next command, wrapped, ending in a newline', () => {
    const summary = screenSummary(planDocument(labPlan('hello'), { nextCommand: NEXT }), 60);
    expect(summary).toMatch(/^SLOW: draining k8s-node-1 waits for disruption budgets\n {2}- budget demo\/hello/);
    expect(summary.endsWith(`Next: ${NEXT}\n`)).toBe(true);
    for (const line of summary.split('\n')) expect(line.length).toBeLessThanOrEqual(60);
    expect(summary).not.toContain('What to do');
  });
});

describe('the footer and the title line', () => {
  it('keeps d details at 60, 80 and 120 columns', () => {
    for (const width of [80, 120]) {
      const footer = layoutScreen(planDocument(labPlan('hello')), width, 24, INITIAL_SCREEN_STATE).lines.at(-1)!;
      expect(footer.text, String(width)).toContain('d details');
      expect(footer.text.length, String(width)).toBe(width);
    }
    const narrow = layoutScreen(planDocument(labPlan('hello')), 60, 24, INITIAL_SCREEN_STATE).lines.at(-1)!;
    expect(narrow.text.length).toBe(60);
  });

  it('the demo: says which example is shown, above the verdict, and what q does next', () => {
    const document = {
      ...planDocument(labPlan('hello')),
      title: 'Example 1 of 2 (snapshot "hello"): Deployment demo/hello, 4 replicas spread over two workers.',
      quitHint: 'q next: example 2 of 2',
    };
    for (const width of [60, 80, 120]) {
      const lines = layoutScreen(document, width, 24, INITIAL_SCREEN_STATE).lines;
      expect(lines[0]!.text, String(width)).toMatch(/^Example 1 of 2 \(snapshot "hello"\)/);
      const verdict = lines.findIndex((l) => l.text.startsWith('SLOW: '));
      const title = lines.slice(0, verdict).map((l) => l.text);
      // The title is wrapped whole above the verdict, never cut.
      expect(title.join(' ').replace(/\s+/g, ' '), String(width)).toBe(document.title);
      expect(Math.max(...title.map((t) => t.length)), String(width)).toBeLessThanOrEqual(width);
      expect(lines.at(-1)!.text, String(width)).toMatch(/^q next: example 2 of 2 · /);
    }
  });
});
