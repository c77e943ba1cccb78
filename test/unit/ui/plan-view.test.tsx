import { render } from 'ink';
import { afterEach, describe, expect, it } from 'vitest';
import { stripVTControlCharacters } from 'node:util';
import { buildAudit } from '../../../src/plan/audit.js';
import type { DrainPlan } from '../../../src/plan/types.js';
import { ClusterIndex } from '../../../src/snapshot/cluster-index.js';
import { loadEmbeddedSnapshot } from '../../../src/snapshot/embedded.js';
import { options } from '../plan/rules-fixture.js';
import { PlanScreen, renderPlanScreen } from '../../../src/ui/plan-view.js';
import { FakeStdin, FakeStdout } from './fake-terminal.js';
import { blockedPlan, slowPlan } from './plan-fixture.js';

const NEXT = 'kubectl maint drain k8s-node-1 --ignore-daemonsets';

/** Polls until the condition holds (Ink renders on its own schedule); fails with the last frame. */
async function until(condition: () => boolean, describe: () => string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`condition not met; last frame:\n${describe()}`);
}

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/**
 * <PlanScreen> on a terminal of a given size, as ink-testing-library renders (debug: each frame written
 * whole), but with a stdout whose size the test sets and changes.
 */
function renderAt(plan: DrainPlan, columns: number, rows: number) {
  const stdout = new FakeStdout(true);
  stdout.columns = columns;
  stdout.rows = rows;
  const stdin = new FakeStdin(true);
  const instance = render(<PlanScreen plan={plan} nextCommand={NEXT} colors={false} />, {
    stdout: stdout.asStream(),
    stdin: stdin.asStream(),
    debug: true,
    patchConsole: false,
    exitOnCtrlC: false,
  });
  cleanups.push(() => instance.unmount());
  const frame = () => stripVTControlCharacters(stdout.writes.at(-1) ?? '');
  return { stdout, stdin, frame, lines: () => frame().split('\n') };
}

describe('<PlanScreen />', () => {
  it.each([
    { columns: 60, rows: 20 },
    { columns: 80, rows: 24 },
    { columns: 120, rows: 40 },
  ])('draws exactly $columns x $rows, verdict first, key hints last', async ({ columns, rows }) => {
    const view = renderAt(slowPlan(), columns, rows);
    await until(() => view.frame().includes('q quit'), view.frame);
    const lines = view.lines();
    expect(lines).toHaveLength(rows);
    expect(lines[0]).toBe('SLOW: draining k8s-node-1 waits for disruption budgets');
    expect(lines.at(-1)).toMatch(/^q quit · ↑↓ scroll/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(columns);
  });

  it('scrolls with j and G, keeping the verdict on the first line', async () => {
    const view = renderAt(blockedPlan(), 80, 24);
    await until(() => view.frame().includes('q quit'), view.frame);
    view.stdin.press('G');
    await until(() => / (\d+)-(\d+)\/\2$/.test(view.lines().at(-1) ?? ''), view.frame);
    expect(view.lines()[0]).toBe('BLOCKED: draining k8s-node-1 cannot finish');
    expect(view.frame()).toContain(blockedPlan().caveats.at(-1)!.slice(0, 30));
  });

  it('folds a section with its number and re-lays out when the terminal is resized', async () => {
    const view = renderAt(slowPlan(), 120, 40);
    await until(() => view.frame().includes('▾ 1 Pods'), view.frame);
    view.stdin.press('1');
    await until(() => view.frame().includes('▸ 1 Pods'), view.frame);
    view.stdout.columns = 60;
    view.stdout.rows = 20;
    view.stdout.emit('resize');
    await until(() => view.lines().length === 20, view.frame);
    for (const line of view.lines()) expect(line.length).toBeLessThanOrEqual(60);
    expect(view.frame()).toContain('▸ 1 Pods');
  });
});

describe('renderPlanScreen', () => {
  it('opens the alternate screen, and on q leaves it and prints the summary with the next command', async () => {
    const stdout = new FakeStdout(true);
    stdout.columns = 80;
    stdout.rows = 24;
    const stdin = new FakeStdin(true);
    const done = renderPlanScreen(slowPlan(), {
      stdout: stdout.asStream(),
      stdin: stdin.asStream(),
      nextCommand: NEXT,
      colors: false,
    });
    await until(
      () => stdout.text().includes('q quit'),
      () => stdout.text(),
    );
    const raw = stdout.writes.join('');
    expect(raw).toContain('\u001b[?1049h');
    stdin.press('q');
    await done;
    const after = stdout.writes.join('').split('\u001b[?1049l');
    expect(after).toHaveLength(2);
    const summary = stripVTControlCharacters(after[1]!);
    expect(summary).toMatch(/^SLOW: draining k8s-node-1 waits for disruption budgets\n/);
    expect(summary.endsWith(`Next: ${NEXT}\n`)).toBe(true);
  });
});

describe('renderPlanScreen of a cluster audit', () => {
  it('shows the audit full-screen, and on q leaves its verdict and reasons in the scrollback', async () => {
    const index = new ClusterIndex(loadEmbeddedSnapshot('hello-blocked'));
    const audit = buildAudit(index, options({ nodes: index.nodes.map((n) => n.metadata!.name!) }));
    const stdout = new FakeStdout(true);
    stdout.columns = 100;
    stdout.rows = 30;
    const stdin = new FakeStdin(true);
    const done = renderPlanScreen(audit, { stdout: stdout.asStream(), stdin: stdin.asStream(), colors: false });
    await until(
      () => stdout.text().includes('2 Nodes (3)'),
      () => stdout.text(),
    );
    const screen = stripVTControlCharacters(stdout.text());
    expect(screen).toContain('BLOCKED: 2 of 3 nodes cannot be drained');
    expect(screen).toContain('1 Workloads holding nodes back (1), most nodes first');
    stdin.press('q');
    await done;
    const summary = stripVTControlCharacters(stdout.writes.join('').split('\u001b[?1049l')[1]!);
    expect(summary).toContain('BLOCKED: 2 of 3 nodes cannot be drained');
    expect(summary).toContain('- Deployment demo/hello blocks 2 nodes');
  });
});
