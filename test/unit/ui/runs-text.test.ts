import { describe, expect, it } from 'vitest';
import type { RunListing } from '../../../src/run/runs.js';
import { abandonedLines, runsDocument, runsTable } from '../../../src/ui/runs-text.js';

const now = Date.parse('2026-12-02T09:00:00Z');
const runs: RunListing[] = [
  {
    id: '20261202-084800-ab12',
    state: 'expired',
    holder: 'ops@bastion pid 42',
    started: '2026-12-02T08:48:00.000Z',
    command: ['reboot.sh', '{node}'],
    nodes: { pending: ['w3', 'w4'], done: ['w1'], 'command-running': ['w2'] },
  },
  { id: 'stale-b', state: 'no-lease', holder: null, started: null, command: null, nodes: { gone: ['w9'] } },
];

describe('kubectl maint runs as text', () => {
  it('one row per run: id, state, holder, age, nodes by phase in the run order, command', () => {
    expect(runsTable(runs, now)).toEqual([
      'RUN                    STATE      HOLDER               STARTED   NODES                                  COMMAND',
      '20261202-084800-ab12   expired    ops@bastion pid 42   12m ago   1 done, 1 command-running, 2 pending   reboot.sh {node}',
      'stale-b                no-lease   -                    -         1 gone                                 -',
    ]);
  });

  it('at an 80-column terminal: COMMAND, then HOLDER, then NODES cut with an ellipsis, the run id never', () => {
    const table = runsTable(runs, now, 80);
    expect(table).toEqual([
      'RUN                    STATE      HOLDER   STARTED   NODES               COMMAND',
      '20261202-084800-ab12   expired    ops@b…   12m ago   1 done, 1 comman…   reboot…',
      'stale-b                no-lease   -        -         1 gone              -',
    ]);
    expect(table.every((row) => row.length <= 80)).toBe(true);
  });

  it('a terminal just wide enough cuts only the command; one as wide as the table cuts nothing', () => {
    expect(runsTable(runs, now, 111)[1]).toBe(
      '20261202-084800-ab12   expired    ops@bastion pid 42   12m ago   1 done, 1 command-running, 2 pending   reboot…',
    );
    expect(runsTable(runs, now, 120)).toEqual(runsTable(runs, now));
  });

  it('a terminal narrower than the columns never cut keeps them whole, the others at their header width', () => {
    expect(runsTable(runs, now, 40)[1]).toBe('20261202-084800-ab12   expired    ops@b…   12m ago   1 do…   reboot…');
  });

  it("the cluster's text loses its control sequences before it is measured", () => {
    const hostile: RunListing = { ...runs[0]!, command: ['printf', '\u001b]0;owned\u0007\u001b[2Jx'] };
    expect(runsTable([hostile], now, 120)[1]).toMatch(/ {3}printf x$/);
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
