import { renderToString } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { ColumnsContext } from '../../../../src/ui/columns-context.js';
import { DrainLogLine } from '../../../../src/ui/components/DrainLogLine.js';
import type { DrainLogEntry } from '../../../../src/ui/drain-live-state.js';
import { HELLO_A, T0 } from '../drain-fixture.js';

describe('<DrainLogLine />', () => {
  it.each<{ entry: DrainLogEntry; line: string }>([
    {
      entry: { id: '0', kind: 'cordoned', atMs: T0, node: 'k8s-node-1', already: false, dryRun: false },
      line: ' 0:00 ✓ node/k8s-node-1 cordoned',
    },
    {
      entry: { id: '1', kind: 'pod', atMs: T0 + 20_000, pod: HELLO_A, state: { phase: 'gone', how: 'evicted' } },
      line: ' 0:20 ✓ demo/hello-a evicted',
    },
    {
      entry: { id: '2', kind: 'pod', atMs: T0 + 75_000, pod: HELLO_A, state: { phase: 'failed', error: 'forbidden' } },
      line: ' 1:15 ✗ demo/hello-a failed: forbidden',
    },
    {
      entry: { id: '3', kind: 'pod', atMs: T0, pod: HELLO_A, state: { phase: 'skipped', reason: 'DaemonSet-managed' } },
      line: ' 0:00 - demo/hello-a skipped: DaemonSet-managed',
    },
    {
      entry: { id: '4', kind: 'warning', atMs: T0 + 1000, message: 'deleting Pods that declare no controller: demo/x' },
      line: ' 0:01 ! deleting Pods that declare no controller: demo/x',
    },
    {
      entry: {
        id: '5',
        kind: 'pod',
        atMs: T0,
        pod: HELLO_A,
        state: {
          phase: 'dry-run',
          admitted: false,
          reason: 'PodDisruptionBudget hello needs 4 healthy pods, has 4',
          pdb: 'hello',
        },
      },
      line: ' 0:00 ✗ demo/hello-a eviction refused: PodDisruptionBudget hello needs 4 healthy pods, has 4',
    },
  ])('logs "$line"', ({ entry, line }) => {
    expect(render(<DrainLogLine entry={entry} startedAtMs={T0} />).lastFrame()).toBe(line);
  });
});

const message =
  'surge: Deployment shop/web goes from 1 to 2 replicas; once the extra one is Ready (on k8s-node-2), ' +
  'shop/web-1 is evicted and the Deployment returns to 1';
const warning: DrainLogEntry = { id: '0', kind: 'warning', atMs: T0 + 7_000, message };

describe('<DrainLogLine /> wrapped', () => {
  it.each([60, 80, 120])(
    'at %i columns: wrapped between words, each continuation line under the first word, no line wider',
    (columns) => {
      const lines = renderToString(
        <ColumnsContext.Provider value={columns}>
          <DrainLogLine entry={warning} startedAtMs={T0} />
        </ColumnsContext.Provider>,
        { columns },
      ).split('\n');
      expect(lines[0]).toMatch(/^ 0:07 ! surge: /);
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(columns);
      // Continuation lines start at the message's column with a word, never with a space of their own.
      for (const line of lines.slice(1)) expect(line).toMatch(/^ {8}\S/);
      expect(lines.map((l) => l.slice(8)).join(' ')).toBe(message);
      if (columns < 120) expect(lines.length).toBeGreaterThan(1);
    },
  );
});
