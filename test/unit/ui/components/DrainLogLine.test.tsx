import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { DrainLogLine } from '../../../../src/ui/components/DrainLogLine.js';
import type { DrainLogEntry } from '../../../../src/ui/drain-progress.js';
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
