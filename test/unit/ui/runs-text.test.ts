import { describe, expect, it } from 'vitest';
import type { RunListing } from '../../../src/run/runs.js';
import { abandonedLines, COMMAND_KEEPS, runsDocument, runsNotes, runsTable } from '../../../src/ui/runs-text.js';
import { displayWidth } from '../../../src/ui/text-wrap.js';

const now = Date.parse('2026-12-02T09:00:00Z');
const runs: RunListing[] = [
  {
    id: '20261202-084800-ab12',
    state: 'expired',
    holder: 'ops@bastion pid 42',
    started: '2026-12-02T08:48:00.000Z',
    command: ['reboot.sh', '{node}'],
    nodes: { pending: ['w3', 'w4'], done: ['w1'], 'command-running': ['w2'] },
    next: 'kubectl maint run --resume 20261202-084800-ab12',
  },
  {
    id: 'stale-b',
    state: 'no-lease',
    holder: null,
    started: null,
    command: null,
    nodes: { gone: ['w9'] },
    next: 'kubectl maint run --abandon stale-b',
  },
];

describe('kubectl maint runs as text', () => {
  it('one row per run: id, state, holder, age, nodes by phase in the run order, command', () => {
    expect(runsTable(runs, now)).toEqual([
      'RUN                    STATE      HOLDER               AGE   NODES                                  COMMAND',
      '20261202-084800-ab12   expired    ops@bastion pid 42   12m   1 done, 1 command-running, 2 pending   reboot.sh {node}',
      'stale-b                no-lease   -                    -     1 gone                                 -',
    ]);
  });

  // A command longer than COMMAND_KEEPS, beside the short one.
  const longer: RunListing = {
    id: '20261202-070000-cd34',
    state: 'alive',
    holder: 'ci@runner-7 pid 9001',
    started: '2026-12-02T07:00:00.000Z',
    command: ['scripts/lab/reboot-node.sh', '{node}', '--wait'],
    nodes: { drained: ['w5'], pending: ['w6', 'w7'] },
    next: null,
  };
  const three = [...runs, longer];

  const narrow: ReadonlyArray<{ readonly width: number; readonly story: string; readonly table: readonly string[] }> = [
    {
      width: 120,
      story: 'HOLDER left out (the rest does not fit whole beside it), COMMAND cut to its fair width only',
      table: [
        'RUN                    STATE      AGE   NODES                                  COMMAND',
        '20261202-084800-ab12   expired    12m   1 done, 1 command-running, 2 pending   reboot.sh {node}',
        'stale-b                no-lease   -     1 gone                                 -',
        '20261202-070000-cd34   alive      2h    1 drained, 2 pending                   scripts/lab/reboot-node.sh {node} --wait',
      ],
    },
    {
      width: 80,
      story: `COMMAND keeps ${COMMAND_KEEPS} columns (a shorter one whole), NODES is cut first`,
      table: [
        'RUN                    STATE      AGE   NODES           COMMAND',
        '20261202-084800-ab12   expired    12m   1 done, 1 co…   reboot.sh {node}',
        'stale-b                no-lease   -     1 gone          -',
        '20261202-070000-cd34   alive      2h    1 drained, 2…   scripts/lab/reboot-node…',
      ],
    },
    {
      width: 60,
      story: 'NODES down to its header, then COMMAND below its fair width; RUN, STATE and AGE whole',
      table: [
        'RUN                    STATE      AGE   NODES   COMMAND',
        '20261202-084800-ab12   expired    12m   1 do…   reboot.sh {…',
        'stale-b                no-lease   -     1 go…   -',
        '20261202-070000-cd34   alive      2h    1 dr…   scripts/lab…',
      ],
    },
  ];
  it.each(narrow)('at $width columns: $story', ({ width, table }) => {
    expect(runsTable(three, now, width)).toEqual(table);
  });

  it('at 80 and 60 columns every row fits; from 126, every column but COMMAND whole beside its fair width, HOLDER shows', () => {
    for (const width of [60, 80])
      expect(runsTable(three, now, width).every((row) => displayWidth(row) <= width)).toBe(true);
    expect(runsTable(three, now, 126)[0]).toMatch(/^RUN {20}STATE {6}HOLDER /);
    expect(runsTable(three, now, 125)[0]).not.toContain('HOLDER');
  });

  it('a terminal as wide as the whole table cuts nothing and shows HOLDER', () => {
    expect(runsTable(runs, now, 116)).toEqual(runsTable(runs, now));
    expect(runsTable(runs, now, 115)[0]).not.toContain('HOLDER');
  });

  it("the cluster's text loses its control sequences before it is measured", () => {
    const hostile: RunListing = { ...runs[0]!, command: ['printf', '\u001b]0;owned\u0007\u001b[2Jx'] };
    expect(runsTable([hostile], now, 120)[1]).toMatch(/ {3}printf x$/);
  });

  it('notes the one next command for a run whose Lease is lost or whose holder is gone from this host', () => {
    const resumable: RunListing = { ...runs[1]!, id: 'lost-a', next: 'kubectl maint run --resume lost-a' };
    const dead: RunListing = { ...runs[0]!, id: 'dead-a', state: 'dead', next: 'kubectl maint run --resume dead-a' };
    expect(runsNotes([...runs, resumable, dead])).toEqual([
      'note: run stale-b lost its Lease and its nodes do not record it: end it with kubectl maint run --abandon stale-b',
      'note: run lost-a lost its Lease: continue it with kubectl maint run --resume lost-a',
      "note: run dead-a's holder is gone from this host: continue it with kubectl maint run --resume dead-a",
    ]);
  });

  it('-o json and -o yaml: a RunList of the listings', () => {
    expect(JSON.parse(runsDocument(runs, 'json'))).toEqual({
      kind: 'RunList',
      apiVersion: 'maint.kubectl.io/v1alpha1',
      items: runs,
    });
    expect(runsDocument(runs, 'yaml')).toContain('kind: RunList\napiVersion: maint.kubectl.io/v1alpha1\nitems:\n');
  });

  it('--abandon names each node released, its phase, whether it stays cordoned, and how to uncordon', () => {
    expect(
      abandonedLines('r1', 'kube-system/maint-run-r1', [
        { node: 'w1', phase: 'command-running', cordoned: true },
        { node: 'w2', phase: 'pending', cordoned: false },
      ]),
    ).toEqual([
      'node/w1 released (was command-running): left cordoned',
      'node/w2 released (was pending): schedulable',
      'run r1 abandoned: Lease kube-system/maint-run-r1 deleted, 2 nodes released; to put the cordoned ones back in service: kubectl maint uncordon w1',
    ]);
  });
});
