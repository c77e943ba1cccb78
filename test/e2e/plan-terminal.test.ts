import { execa } from 'execa';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bin } from './drain-run.js';
import { labEnv, seedScenario } from './lab.js';
import { parsePlan, type Plan } from './plan-json.js';
import { flat, Terminal } from './terminal.js';

// `kubectl maint plan` in a real terminal (tmux, on its own socket), on the lab's scenarios, at three
// sizes: the verdict is on the first screen, G reaches the last caveat, a resize re-lays the screen out,
// and q leaves the summary and a clean prompt, with nothing of the view left in the scrollback.

const terminal = new Terminal('plan');
const PROMPT = 'e2e-prompt$';
const screenRows = () => terminal.rows();
const history = () => terminal.history();

/** Waits until the view fills a columns × rows screen: the verdict on top, the key hints at the bottom. */
async function viewAt(columns: number, rows: number): Promise<string[]> {
  return terminal.eventually(
    async () => {
      const screen = await screenRows();
      const full = screen.length === rows && /^q quit/.test(screen.at(-1) ?? '');
      return full &&
        /^(CLEAR|SLOW|BLOCKED|INCOMPLETE):/.test(screen[0] ?? '') &&
        screen.every((r) => r.length <= columns)
        ? screen
        : undefined;
    },
    30_000,
    `the plan view at ${columns}x${rows}`,
  );
}

interface Scenario {
  readonly name: string;
  readonly args: readonly string[];
}

const SCENARIOS: readonly Scenario[] = [
  { name: 'hello', args: ['k8s-node-1', '--ignore-daemonsets'] },
  { name: 'hello-ignore', args: ['k8s-node-1', '--ignore-daemonsets'] },
  { name: 'patient', args: ['k8s-node-2', '--ignore-daemonsets', '--force'] },
];

/** Each size, and the size the test resizes it to. */
const SIZES = [
  { columns: 80, rows: 24, resizedTo: { columns: 120, rows: 40 } },
  { columns: 120, rows: 40, resizedTo: { columns: 60, rows: 20 } },
  { columns: 60, rows: 20, resizedTo: { columns: 80, rows: 24 } },
];

afterEach(() => terminal.close());

describe.each(SCENARIOS)('kubectl maint plan in a terminal, scenario $name', ({ name, args }) => {
  let plan: Plan;

  beforeAll(async () => {
    await seedScenario(name);
    const env = await labEnv();
    // The same plan as JSON (no terminal), to know what the screen must show.
    const json = await execa(process.execPath, [bin, 'plan', ...args, '-o', 'json'], {
      env: { KUBECONFIG: env.KUBECONFIG },
      reject: false,
    });
    plan = parsePlan(json);
  });

  it.each(SIZES)(
    '$columns x $rows: verdict first, G to the last caveat, resize, q to a clean prompt',
    async ({ columns, rows, resizedTo }) => {
      await terminal.openShell(PROMPT, columns, rows);
      await terminal.keys(`${process.execPath} ${bin} plan ${args.join(' ')}`, 'Enter');

      const first = await viewAt(columns, rows);
      expect(first[0]).toMatch(new RegExp(`^${plan.verdict.toUpperCase()}:`));
      // The first reason starts on the second row, whatever the size.
      expect(first[1]).toBe(`  - ${plan.verdictReasons[0]}`.slice(0, first[1]?.length ?? 0));

      const lastCaveat = plan.caveats.at(-1);
      await terminal.keys('G');
      const end = await terminal.eventually(
        async () => {
          const screen = await screenRows();
          // "21-40/40" once at the end; "all" when the whole plan fits on the screen.
          return / ((\d+)-(\d+)\/\3|all)$/.test(screen.at(-1) ?? '') ? screen : undefined;
        },
        10_000,
        'the end of the plan',
      );
      expect(end[0]).toMatch(new RegExp(`^${plan.verdict.toUpperCase()}:`));
      if (lastCaveat) expect(flat(end.join('\n'))).toContain(flat(lastCaveat));

      await terminal.resize(resizedTo.columns, resizedTo.rows);
      const resized = await viewAt(resizedTo.columns, resizedTo.rows);
      expect(resized[0]).toMatch(new RegExp(`^${plan.verdict.toUpperCase()}:`));

      await terminal.keys('q');
      // The prompt the command was typed at may have scrolled off a small screen: read the history.
      const text = await terminal.eventually(
        async () => {
          const all = (await history()).trimEnd();
          const verdict = new RegExp(`\\n${plan.verdict.toUpperCase()}:`);
          return all.split('\n').at(-1) === PROMPT && verdict.test(all.slice(all.lastIndexOf(`${bin} plan`)))
            ? all
            : undefined;
        },
        10_000,
        'the summary and a new prompt after q',
      );
      // The summary: verdict, reasons, the command to run next with the user's flags; then the prompt alone.
      const summary = text.slice(text.lastIndexOf(`${bin} plan`));
      expect(summary).toMatch(new RegExp(`\\n${plan.verdict.toUpperCase()}:`));
      const same = `Next: kubectl maint plan ${args.join(' ')}`;
      if (plan.verdict === 'clear' || plan.verdict === 'slow') {
        expect(flat(summary)).toContain(`Next: kubectl maint drain ${args.join(' ')}`);
      } else {
        // A plan that cannot finish suggests itself again only with the flags its advice adds.
        expect(flat(summary).includes(`${same} --`) || !flat(summary).includes(same)).toBe(true);
      }
      // Nothing of the view itself reached the scrollback.
      const all = await history();
      expect(all).not.toContain('q quit');
      expect(all).not.toMatch(/[▾▸] 1 Pods on/);
    },
  );
});

describe('kubectl maint plan over a pool in a terminal', () => {
  it('opens the full-screen view at 80x24, every row within the screen, and q leaves the verdict', async () => {
    // The batches depend on where the seed's pods were scheduled (three or four): the view is what is tested.
    await seedScenario('pool');
    await terminal.openShell(PROMPT, 80, 24);
    await terminal.keys(
      `${process.execPath} ${bin} plan -l pool=blue --ignore-daemonsets --max-unavailable 2`,
      'Enter',
    );
    const first = await viewAt(80, 24);
    expect(first[0]).toMatch(/^(CLEAR|SLOW): 6 nodes in \d batches of at most 2$/);

    await terminal.keys('q');
    const text = await terminal.eventually(
      async () => {
        const all = (await history()).trimEnd();
        return all.split('\n').at(-1) === PROMPT && /\n(CLEAR|SLOW): 6 nodes/.test(all) ? all : undefined;
      },
      10_000,
      'the summary and a new prompt after q',
    );
    expect(text).not.toContain('q quit');
    // What stays in the scrollback (after the command line typed) is wrapped to the terminal too.
    const summary = text.split('\n').slice(text.split('\n').findIndex((l) => l.includes('--max-unavailable 2')) + 1);
    expect(summary[0]).toMatch(/^(CLEAR|SLOW): 6 nodes in \d batches of at most 2$/);
    expect(summary.filter((l) => l.length > 80)).toEqual([]);
  });
});
