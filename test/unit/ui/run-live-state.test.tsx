import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { RunView } from '../../../src/ui/components/RunView.js';
import type { DrainEvent } from '../../../src/drain/events.js';
import type { NodeState, RunEvent } from '../../../src/run/events.js';
import { etaLine, failedOutputLines, RunLines, runSummary } from '../../../src/ui/run-log-text.js';
import {
  drainOf,
  drainsUnderWay,
  initialRunProgress,
  podsLeft,
  reduceRunEvents,
} from '../../../src/ui/run-live-state.js';

const pod = { namespace: 'shop', name: 'web-1', uid: 'u1', node: 'w1' };
const events: RunEvent[] = [
  {
    type: 'run-started',
    atMs: 0,
    runId: 'r1',
    holder: 'ops@h pid 1',
    batches: [['w1', 'w2'], ['w3']],
    command: ['x'],
    resumed: false,
    commandLog: null,
    phases: { w1: 'pending', w2: 'pending', w3: 'pending' },
  },
  { type: 'batch-started', atMs: 1, batch: 1, nodes: ['w1', 'w2'] },
  { type: 'phase', atMs: 2, node: 'w1', batch: 1, phase: 'draining' },
  {
    type: 'drain',
    atMs: 3,
    batch: 1,
    nodes: ['w1', 'w2'],
    event: { type: 'started', atMs: 3, nodes: ['w1', 'w2'], pods: [pod], dryRun: 'none' },
  },
  {
    type: 'drain',
    atMs: 4,
    batch: 1,
    nodes: ['w1', 'w2'],
    event: { type: 'pod', atMs: 4, pod, state: { phase: 'evicting', attempt: 1 } },
  },
  { type: 'command-output', atMs: 5, node: 'w1', stream: 'stdout', line: 'one' },
  { type: 'command-output', atMs: 6, node: 'w1', stream: 'stdout', line: 'two' },
  { type: 'command-output', atMs: 7, node: 'w1', stream: 'stderr', line: 'three' },
  { type: 'command-output', atMs: 8, node: 'w1', stream: 'stdout', line: 'four' },
  { type: 'phase', atMs: 9, node: 'w2', batch: 1, phase: 'command-failed', problem: 'command exited 1' },
];

describe('the run progress', () => {
  const progress = events.reduce(reduceRunEvents, initialRunProgress());

  it('has one row per node with its batch and phase, since when, and the last three output lines', () => {
    expect(progress.nodes.map((n) => [n.node, n.batch, n.phase, n.sinceMs])).toEqual([
      ['w1', 1, 'draining', 2],
      ['w2', 1, 'command-failed', 9],
      ['w3', 2, 'pending', null],
    ]);
    expect(progress.nodes[0]!.output).toEqual(['two', 'three', 'four']);
  });

  it('counts the pods the current drain has left on each node', () => {
    expect(podsLeft(progress, 'w1')).toBe(1);
    expect(podsLeft(progress, 'w2')).toBe(0);
  });

  it('logs the phases, a failure in the bad tone', () => {
    expect(progress.log.map((l) => [l.tone, l.text])).toEqual([
      ['muted', 'node/w1 draining'],
      ['bad', 'node/w2 command-failed: command exited 1'],
    ]);
  });
});

describe('overlapping drains (the window starts a group while another drains)', () => {
  const web1 = { namespace: 'shop', name: 'web-1', uid: 'u1', node: 'w1' };
  const web3 = { namespace: 'shop', name: 'web-3', uid: 'u3', node: 'w3' };
  const drain = (atMs: number, batch: number, nodes: string[], event: DrainEvent): RunEvent => ({
    type: 'drain',
    atMs,
    batch,
    nodes,
    event,
  });
  // The same run as above: batch 1 (w1, w2) and batch 2 (w3).
  const overlapping: RunEvent[] = [
    events[0]!,
    events[1]!,
    { type: 'phase', atMs: 2, node: 'w1', batch: 1, phase: 'draining' },
    drain(3, 1, ['w1'], { type: 'started', atMs: 3, nodes: ['w1'], pods: [web1], dryRun: 'none' }),
    drain(4, 1, ['w1'], {
      type: 'pod',
      atMs: 4,
      pod: web1,
      state: {
        phase: 'waiting-for-budget',
        pdb: 'web',
        why: 'budget-exhausted',
        disruptionsAllowed: 0,
        currentHealthy: 2,
        desiredHealthy: 2,
        attempts: 1,
        sinceMs: 4,
      },
    }),
    { type: 'batch-started', atMs: 5, batch: 2, nodes: ['w3'] },
    { type: 'phase', atMs: 6, node: 'w3', batch: 2, phase: 'draining' },
    drain(7, 2, ['w3'], { type: 'started', atMs: 7, nodes: ['w3'], pods: [web3], dryRun: 'none' }),
    drain(8, 2, ['w3'], { type: 'pod', atMs: 8, pod: web3, state: { phase: 'evicting', attempt: 1 } }),
    drain(9, 1, ['w1'], { type: 'pod', atMs: 9, pod: web1, state: { phase: 'evicting', attempt: 2 } }),
    { type: 'budgets-waiting', atMs: 10, batch: 1, budgets: [{ name: 'shop/web', before: 1, now: 0 }] },
    { type: 'budgets-waiting', atMs: 11, batch: 2, budgets: [{ name: 'shop/db', before: 1, now: 0 }] },
  ];
  const progress = overlapping.reduce(reduceRunEvents, initialRunProgress());

  it('keeps each drain: a later batch starting does not wipe the earlier drain still under way', () => {
    expect(podsLeft(progress, 'w1')).toBe(1);
    expect(podsLeft(progress, 'w3')).toBe(1);
    expect(podsLeft(progress, 'w2')).toBeNull();
    expect(drainsUnderWay(progress).map((d) => d.nodes)).toEqual([['w1'], ['w3']]);
    const w1 = drainOf(progress, 'w1')!.progress.pods.map((p) => [p.pod.name, p.state.phase]);
    expect(w1).toEqual([['web-1', 'evicting']]);
  });

  it('shows both drains and the budgets of each batch in the pool view', () => {
    const frame = render(<RunView progress={progress} nowMs={12_000} />).lastFrame() ?? '';
    expect(frame).toContain('Draining w1');
    expect(frame).toContain('Draining w3');
    expect(frame).toMatch(/w1\s+1\s+draining\s+0:11\s+1/);
    expect(frame).toMatch(/w3\s+2\s+draining\s+0:11\s+1/);
    expect(frame).toContain('batch 1 waiting for budgets: shop/web 0/1 allowed');
    expect(frame).toContain('batch 2 waiting for budgets: shop/db 0/1 allowed');
    const after = reduceRunEvents(progress, { type: 'batch-finished', atMs: 12, batch: 1, ok: true });
    expect(after.budgetsWaiting).toEqual([{ batch: 2, budgets: [{ name: 'shop/db', before: 1, now: 0 }] }]);
  });

  it('words each drain from its own progress in the plain lines', () => {
    const lines = new RunLines();
    const text = overlapping.flatMap((e) => lines.lines(e)).map((l) => l.text);
    expect(text).toContain('evicting pod shop/web-3');
    // web-1's retry after its budget wait, worded against w1's drain (where it has been waiting), is no
    // new eviction line; worded against w3's, web-1 would be unknown and its eviction announced again.
    expect(text).toContain(
      'pod shop/web-1 waiting for PodDisruptionBudget shop/web: needs 2 healthy, has 2, allowed 0 (attempt 1, 0s)',
    );
    expect(text).not.toContain('evicting pod shop/web-1');
  });
});

/** Run r1's final event, failed, with these nodes. */
const failedRun = (nodes: NodeState[], resumeCommand: string): Extract<RunEvent, { type: 'run-finished' }> => ({
  type: 'run-finished',
  atMs: 10,
  runId: 'r1',
  result: 'failed',
  nodes,
  resumeCommand,
  commandLog: null,
  commandSeconds: [],
});

describe('the run lines', () => {
  it('prefix command output with the node and word the drain as kubectl does', () => {
    const lines = new RunLines();
    const text = events.flatMap((e) => lines.lines(e)).map((l) => `${l.stream}: ${l.text}`);
    expect(text).toContain('stdout: [w1] one');
    expect(text).toContain('stderr: [w1] three');
    expect(text).toContain('stdout: batch 1: w1, w2');
    expect(text).toContain('stdout: evicting pod shop/web-1');
  });

  it('end with every node, its phase, and the command that continues the run', () => {
    const summary = runSummary(
      failedRun(
        [
          { node: 'w1', batch: 1, phase: 'done' },
          { node: 'w2', batch: 1, phase: 'command-failed', problem: 'command exited 1' },
        ],
        'kubectl maint run --resume r1 --rerun-command',
      ),
    );
    expect(summary).toEqual([
      'run r1 stopped: a node failed; failed nodes stay cordoned (see PROBLEM)',
      '  NODE   BATCH   PHASE            PROBLEM',
      '  w1     1       done',
      '  w2     1       command-failed   command exited 1',
      'continue with: kubectl maint run --resume r1 --rerun-command',
    ]);
  });

  it('say a stopped run had no failed node when none did (budgets not back, the API failed)', () => {
    const [headline] = runSummary(
      failedRun(
        [
          { node: 'w1', batch: 1, phase: 'done' },
          { node: 'w2', batch: 2, phase: 'pending' },
        ],
        'kubectl maint run --resume r1',
      ),
    );
    expect(headline).toBe(
      'run r1 stopped with no node failed (see the warning or the error): each node stays in the phase below',
    );
  });
});

describe('a resumed run', () => {
  const resumed: RunEvent[] = [
    {
      type: 'run-started',
      atMs: 0,
      runId: 'r1',
      holder: 'ops@h pid 2',
      batches: [['w1'], ['w2'], ['w3']],
      command: ['x'],
      resumed: true,
      commandLog: null,
      phases: { w1: 'done', w2: 'drained', w3: 'pending' },
    },
    { type: 'batch-started', atMs: 1, batch: 2, nodes: ['w2'] },
  ];

  it('shows the nodes already done as done, and the others in their recorded phase, from the start', () => {
    const progress = resumed.reduce(reduceRunEvents, initialRunProgress());
    expect(progress.nodes.map((n) => [n.node, n.phase])).toEqual([
      ['w1', 'done'],
      ['w2', 'drained'],
      ['w3', 'pending'],
    ]);
    const frame = render(<RunView progress={progress} nowMs={5_000} />).lastFrame() ?? '';
    expect(frame).toMatch(/w1\s+1\s+done/);
    expect(frame).toContain('Run r1 · batch 2 of 3 ·');
    // Through a pipe too: the phases the resume found, once, under the run's first line.
    expect(new RunLines().lines(resumed[0]!).map((l) => l.text)).toEqual([
      'run r1 resumed by ops@h pid 2: 3 batches: w1 | w2 | w3',
      'recorded: node/w1 done, node/w2 drained',
    ]);
  });

  it('names the batch whose nodes are out, not the one started last, and both while the window overlaps them', () => {
    const started3: RunEvent = { type: 'batch-started', atMs: 2, batch: 3, nodes: ['w3'] };
    const progress = [...resumed, started3].reduce(reduceRunEvents, initialRunProgress());
    expect(render(<RunView progress={progress} nowMs={5_000} />).lastFrame()).toContain('Run r1 · batch 2 of 3 ·');
    const draining3: RunEvent = { type: 'phase', atMs: 3, node: 'w3', batch: 3, phase: 'draining' };
    const both = [...resumed, started3, draining3].reduce(reduceRunEvents, initialRunProgress());
    expect(render(<RunView progress={both} nowMs={5_000} />).lastFrame()).toContain('Run r1 · batches 2, 3 of 3 ·');
  });
});

describe('<RunView />', () => {
  it('shows every node with its batch, phase, time in phase and pods left, the drain and the command output', () => {
    const progress = events.slice(0, 8).reduce(reduceRunEvents, initialRunProgress());
    const frame = render(<RunView progress={progress} nowMs={12_000} />).lastFrame() ?? '';
    expect(frame).toContain('Run r1 · batch 1 of 2 · 0:12');
    expect(frame).toMatch(/NODE\s+BATCH\s+PHASE\s+FOR\s+PODS LEFT/);
    expect(frame).toMatch(/w1\s+1\s+draining\s+0:11\s+1/);
    expect(frame).toMatch(/w3\s+2\s+pending/);
    expect(frame).toContain('Draining w1, w2');
  });

  const frameWithEta = (commandSeconds: number, commandBasis: 'assumed' | 'none', nowMs: number) => {
    const eta: RunEvent = {
      type: 'eta',
      atMs: 2_000,
      batch: 1,
      batchSeconds: 70,
      runSeconds: 130,
      commandSeconds,
      commandBasis,
    };
    const progress = [...events.slice(0, 8), eta].reduce(reduceRunEvents, initialRunProgress());
    return render(<RunView progress={progress} nowMs={nowMs} />).lastFrame() ?? '';
  };

  it('counts the latest estimate down in its header: batch and run time left', () => {
    expect(frameWithEta(60, 'assumed', 12_000)).toContain(
      'Run r1 · batch 1 of 2 · 0:12 · batch about 1m left · run about 2m left',
    );
  });

  it('points at --command-time while the estimate cannot count the command yet', () => {
    const frame = frameWithEta(0, 'none', 2_000);
    expect(frame.replace(/\s+/g, ' ')).toContain('(command not counted: see --command-time)');
  });
});

describe('the eta line', () => {
  it('names where the command time comes from', () => {
    const base = { type: 'eta', atMs: 0, batch: 2, batchSeconds: 25, runSeconds: 70 } as const;
    expect(etaLine({ ...base, commandSeconds: 11, commandBasis: 'measured' })).toBe(
      'eta: batch 2 about 25s left, run about 1m10s left (command and return 11s per batch, measured in this run)',
    );
    expect(etaLine({ ...base, runSeconds: null, commandSeconds: 0, commandBasis: 'none' })).toBe(
      'eta: batch 2 about 25s left, run unknown (command and return not counted until a batch has measured them: --command-time <duration> counts them from the start)',
    );
  });

  it('is printed once per change: the same estimate again is not repeated', () => {
    const lines = new RunLines();
    const eta = (atMs: number, batchSeconds: number): RunEvent => ({
      type: 'eta',
      atMs,
      batch: 1,
      batchSeconds,
      runSeconds: 70,
      commandSeconds: 11,
      commandBasis: 'assumed',
    });
    const printed = [eta(0, 25), eta(400, 25), eta(9_000, 12), eta(12_000, 25)].flatMap((e) =>
      lines.lines(e).map((l) => l.text),
    );
    expect(printed).toEqual([
      'eta: batch 1 about 25s left, run about 1m10s left (command and return 11s per batch, assumed: --command-time)',
      'eta: batch 1 about 12s left, run about 1m10s left (command and return 11s per batch, assumed: --command-time)',
      'eta: batch 1 about 25s left, run about 1m10s left (command and return 11s per batch, assumed: --command-time)',
    ]);
  });
});

describe('an interrupted run', () => {
  const interrupt = (step: 'stop' | 'kill', commands: string[]): Extract<RunEvent, { type: 'interrupt' }> => ({
    type: 'interrupt',
    atMs: 9,
    step,
    commands,
  });

  it('says the first Ctrl-C waits for the running commands and that a second kills them', () => {
    expect(new RunLines().lines(interrupt('stop', ['w1']))).toEqual([
      {
        stream: 'stderr',
        text: 'interrupted: nothing new starts; waiting for the command on w1 to finish (Ctrl-C again kills it)',
      },
    ]);
    expect(new RunLines().lines(interrupt('stop', ['w1', 'w2']))[0]?.text).toBe(
      'interrupted: nothing new starts; waiting for the commands on w1, w2 to finish (Ctrl-C again kills them)',
    );
    expect(new RunLines().lines(interrupt('stop', []))[0]?.text).toBe('interrupted: stopping; nothing new starts');
  });

  it('names the commands the second Ctrl-C kills, and says nothing when none runs', () => {
    expect(new RunLines().lines(interrupt('kill', ['w2']))[0]?.text).toBe(
      'interrupted again: killing the command on w2 (each with every process it started)',
    );
    expect(new RunLines().lines(interrupt('kill', []))).toEqual([]);
  });

  it('keeps the interruption in the live view log, in the warning tone', () => {
    const progress = [...events.slice(0, 3), interrupt('stop', ['w1'])].reduce(reduceRunEvents, initialRunProgress());
    expect(progress.log.at(-1)).toMatchObject({ tone: 'warn', text: expect.stringContaining('Ctrl-C again kills it') });
  });
});

describe("a failed command's output", () => {
  const output = (node: string, line: string): RunEvent => ({
    type: 'command-output',
    atMs: 5,
    node,
    stream: 'stderr',
    line,
  });

  it('keeps the last 20 lines of each node, a command run again starting afresh', () => {
    const lines = Array.from({ length: 25 }, (_, i) => output('w1', `line ${i + 1}`));
    const progress = [events[0]!, ...lines].reduce(reduceRunEvents, initialRunProgress());
    const w1 = progress.nodes.find((n) => n.node === 'w1')!;
    expect(w1.tail).toHaveLength(20);
    expect(w1.tail[0]).toBe('line 6');
    expect(w1.tail.at(-1)).toBe('line 25');
    const again = reduceRunEvents(progress, { type: 'phase', atMs: 6, node: 'w1', batch: 1, phase: 'command-running' });
    expect(again.nodes.find((n) => n.node === 'w1')!.tail).toEqual([]);
  });

  it('names where every log is and, on a terminal, prints the tail of each failed node with its log file', () => {
    const finished = {
      ...failedRun(
        [
          { node: 'w1', batch: 1, phase: 'command-failed', problem: 'command exited 7' },
          { node: 'w2', batch: 1, phase: 'done' },
        ],
        'kubectl maint run --resume r1 --rerun-command',
      ),
      commandLog: '/home/ops/.local/state/kubectl-maint/runs/r1',
    };
    expect(runSummary(finished)).toContain(
      'command output in /home/ops/.local/state/kubectl-maint/runs/r1: w1.log, w2.log',
    );
    const oneRan = {
      ...finished,
      nodes: [finished.nodes[0]!, { ...finished.nodes[1]!, phase: 'drained' as const }],
    };
    expect(runSummary(oneRan)).toContain('command output: /home/ops/.local/state/kubectl-maint/runs/r1/w1.log');
    const noneRan = { ...finished, nodes: [{ ...finished.nodes[1]!, phase: 'pending' as const }] };
    expect(runSummary(noneRan).some((line) => line.startsWith('command output'))).toBe(false);
    const tails = new Map([
      ['w1', ['Reading package lists...', 'E: dpkg was interrupted']],
      ['w2', ['fine']],
    ]);
    expect(failedOutputLines(finished, tails)).toEqual([
      'w1: command exited 7; its last 2 lines of output (all of it in /home/ops/.local/state/kubectl-maint/runs/r1/w1.log):',
      '  Reading package lists...',
      '  E: dpkg was interrupted',
    ]);
    const progress = [events[0]!, output('w1', 'E: dpkg was interrupted'), finished].reduce(
      reduceRunEvents,
      initialRunProgress(),
    );
    const frame = render(<RunView progress={progress} nowMs={20} />).lastFrame() ?? '';
    expect(frame).toMatch(
      /w1: command exited 7; its last 1 line of output[\s\S]*?w1\.log\):\n {2}E: dpkg was interrupted\n/,
    );
    expect(frame.indexOf('E: dpkg')).toBeLessThan(frame.indexOf('continue with:'));
  });

  it("reaches the screen, the pipe and the tail without the command's control sequences", () => {
    const line = 'title\u001b]0;pwned\u0007 clear\u001b[2J done';
    expect(new RunLines().lines(output('w1', line))).toEqual([{ stream: 'stderr', text: '[w1] title clear done' }]);
    const progress = [events[0]!, output('w1', line)].reduce(reduceRunEvents, initialRunProgress());
    const w1 = progress.nodes.find((n) => n.node === 'w1')!;
    expect([w1.output, w1.tail]).toEqual([['title clear done'], ['title clear done']]);
  });
});

describe("a successful command's output", () => {
  const dir = '/home/ops/.local/state/kubectl-maint/runs/r1';
  const ran: RunEvent[] = [
    { ...events[0]!, commandLog: dir } as RunEvent,
    { type: 'phase', atMs: 2, node: 'w1', batch: 1, phase: 'command-running' },
    ...['one', 'two', 'three', 'four'].map((line, i): RunEvent => ({
      type: 'command-output',
      atMs: 3 + i,
      node: 'w1',
      stream: 'stdout',
      line,
    })),
    { type: 'command-finished', atMs: 8, node: 'w1', exitCode: 0, failure: null },
  ];

  it('leaves the live area with the command, and the scrollback keeps its last lines and its log file', () => {
    const progress = ran.reduce(reduceRunEvents, initialRunProgress());
    const frame = render(<RunView progress={progress} nowMs={9_000} />).lastFrame() ?? '';
    expect(progress.log.slice(-5).map((e) => e.text)).toEqual([
      'node/w1 command exited 0',
      `w1: its last 3 lines of output (all of it in ${dir}/w1.log):`,
      '  two',
      '  three',
      '  four',
    ]);
    expect(frame).toContain(`${dir}/w1.log`);
    expect(frame).toMatch(/ {2}two\n.* {2}three\n.* {2}four/);
  });
});
