import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialDrainProgress, reduceDrainEvents } from '../../../src/ui/drain-live-state.js';
import { DrainApp, startDrainInk } from '../../../src/ui/drain-view.js';
import { cordoned, helloDrain, started, T0 } from './drain-fixture.js';
import { FakeStdin, FakeStdout } from './fake-terminal.js';

/**
 * Ink reads keys only once its input hook has started listening (an effect after the first render): keys
 * written before are lost. Waiting for that listener is waiting on the state the keys need, and it never
 * comes when the view does not listen, so a test that types into a view that ignores input fails here.
 */
const listening = (stdin: NodeJS.EventEmitter) =>
  vi.waitFor(() => expect(stdin.listenerCount('readable')).toBeGreaterThan(0));

describe('<DrainApp />', () => {
  it('hands Ctrl-C to onInterrupt and keeps rendering (the CLI stops the engine, not the view)', async () => {
    const onInterrupt = vi.fn();
    const progress = reduceDrainEvents(initialDrainProgress(), started());
    const { stdin, lastFrame } = render(
      <DrainApp progress={progress} nowMs={T0} colors={false} onInterrupt={onInterrupt} />,
    );
    await listening(stdin as unknown as NodeJS.EventEmitter);
    stdin.write('\u0003');
    expect(onInterrupt).toHaveBeenCalledTimes(1);
    expect(lastFrame()).toContain('Draining k8s-node-1');
  });

  it('ignores other keys', async () => {
    const onInterrupt = vi.fn();
    const { stdin } = render(
      <DrainApp progress={initialDrainProgress()} nowMs={T0} colors={false} onInterrupt={onInterrupt} />,
    );
    await listening(stdin as unknown as NodeJS.EventEmitter);
    // Each key is handled as it is written (the listener runs in the write): q and c were read and ignored,
    // then the Ctrl-C after them shows the keys reached the view.
    stdin.write('q');
    stdin.write('c');
    expect(onInterrupt).not.toHaveBeenCalled();
    stdin.write('\u0003');
    expect(onInterrupt).toHaveBeenCalledTimes(1);
  });
});

describe('startDrainInk', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('prints each log line once and the summary at the end when not on a terminal', async () => {
    const stdout = new FakeStdout(false);
    const view = startDrainInk({
      stdout: stdout.asStream(),
      stdin: new FakeStdin(false).asStream(),
      colors: false,
      now: () => T0 + 50_000,
    });
    helloDrain().forEach((e) => view.onEvent(e));
    await view.done();
    // Each log line exactly once (no repeated last <Static> item), then the summary as the final frame.
    expect(stdout.text()).toBe(
      [
        ' 0:00 ✓ node/k8s-node-1 cordoned',
        ' 0:00 - kube-system/kube-proxy-x1 skipped: DaemonSet-managed',
        ' 0:20 ✓ demo/hello-a evicted',
        ' 0:45 ✓ demo/hello-b evicted',
        '',
        'Drained k8s-node-1 in 45s',
        '  done: 2 evicted, 1 skipped',
        '  left: node k8s-node-1 cordoned; only DaemonSet pods left on it',
        // The summary is printed once like the log (<Static>); the live area under it is then empty.
        '',
        '',
      ].join('\n'),
    );
    expect(view.progress().finished?.result).toBe('drained');
  });

  it('puts stdin in raw mode only when someone handles Ctrl-C', async () => {
    const quiet = new FakeStdin(true);
    const view = startDrainInk({ stdout: new FakeStdout().asStream(), stdin: quiet.asStream(), colors: false });
    view.onEvent(started());
    await view.done();
    // Over the view's whole life, not at one moment: raw mode was never asked for, no key was read.
    expect(quiet.rawModeCalls).toEqual([]);
    expect(quiet.listenerCount('readable')).toBe(0);

    const keys = new FakeStdin(true);
    const onInterrupt = vi.fn();
    const live = startDrainInk({
      stdout: new FakeStdout().asStream(),
      stdin: keys.asStream(),
      colors: false,
      onInterrupt,
    });
    live.onEvent(started());
    await vi.waitFor(() => expect(keys.rawMode).toBe(true));
    await listening(keys);
    keys.press('\u0003');
    expect(onInterrupt).toHaveBeenCalledTimes(1);
    await live.done();
    expect(keys.rawMode).toBe(false);
  });

  it('moves the elapsed clock every tick between events', async () => {
    vi.useFakeTimers({ now: T0 });
    const stdout = new FakeStdout(true);
    const view = startDrainInk({
      stdout: stdout.asStream(),
      stdin: new FakeStdin(false).asStream(),
      colors: false,
      interactive: true,
    });
    view.onEvent(started());
    view.onEvent(cordoned(0));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(stdout.text()).toContain('Draining k8s-node-1 · 0:05');
    const done = view.done();
    await vi.runAllTimersAsync();
    await done;
  });
});
