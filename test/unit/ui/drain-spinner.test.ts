import { describe, expect, it } from 'vitest';
import { startDrainSpinner } from '../../../src/ui/drain-spinner.js';
import { helloDrain, T0 } from './drain-fixture.js';
import { FakeStdout } from './fake-terminal.js';

describe('startDrainSpinner', () => {
  it('writes nothing at all when stderr is not a terminal, so logs get no spinner frames', () => {
    const stream = new FakeStdout(false);
    const spinner = startDrainSpinner({ stream: stream.asStream(), now: () => T0 });
    helloDrain().forEach((e) => spinner.onEvent(e));
    spinner.stop();
    expect(stream.writes).toEqual([]);
  });
});

describe('startDrainSpinner on a terminal', () => {
  it('spins while the drain runs and ends with its summary, marked as a success', () => {
    const stream = new FakeStdout(true);
    const spinner = startDrainSpinner({ stream: stream.asStream(), now: () => T0, colors: false });
    helloDrain().forEach((e) => spinner.onEvent(e));
    spinner.stop();
    // Spinner frames are redrawn in place (cursor moves are no-ops here); the summary is written last.
    expect(
      stream
        .text()
        .endsWith(
          [
            ' Drained k8s-node-1 in 45s',
            '  done: 2 evicted, 1 skipped',
            '  left: node k8s-node-1 cordoned; only DaemonSet pods left on it',
            '',
          ].join('\n'),
        ),
    ).toBe(true);
    expect(stream.text()).toContain('starting the drain');
  });
});
