import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { DrainEvent } from '../../../../src/drain/events.js';
import { DrainView } from '../../../../src/ui/components/DrainView.js';
import { initialDrainProgress, reduceDrainEvents } from '../../../../src/ui/drain-live-state.js';
import { helloDrain, podEvent, podRef, started, T0 } from '../drain-fixture.js';

function progressOf(events: readonly DrainEvent[]) {
  return events.reduce((s, e) => reduceDrainEvents(s, e), initialDrainProgress());
}

describe('<DrainView />', () => {
  it('says it is starting before the first event', () => {
    expect(render(<DrainView progress={initialDrainProgress()} nowMs={T0} />).lastFrame()).toBe('Starting the drain…');
  });

  it('while a pod waits for its budget: the log above, the header, then one row per pod in flight', () => {
    const { lastFrame } = render(<DrainView progress={progressOf(helloDrain().slice(0, 8))} nowMs={T0 + 14_000} />);
    expect(lastFrame()).toMatchInlineSnapshot(`
      " 0:00 ✓ node/k8s-node-1 cordoned
       0:00 - kube-system/kube-proxy-x1 skipped: DaemonSet-managed

      Draining k8s-node-1 · 0:14 · about 1 wave left
      [░░░░░░░░░░░░░░░░░░░░░░░░] 0/2 · 1 waiting for a budget · 1 terminating
      demo/hello-b   budget demo/hello: needs 3 healthy, has 3, allowed 0 · waiting 13s, asked again once
                     the budget allows one (4 refusals)
      demo/hello-a   terminating, 17s grace left"
    `);
    // Not a blind back-off: what it waits for, how long, and the refusals so far (wrapped in its column).
    expect(lastFrame()?.replace(/\s+/g, ' ')).toContain(
      'budget demo/hello: needs 3 healthy, has 3, allowed 0 · waiting 13s, asked again once the budget allows one (4 refusals)',
    );
  });

  it('counts down the grace period with the clock, between events', () => {
    const progress = progressOf(helloDrain().slice(0, 6));
    const { lastFrame, rerender } = render(<DrainView progress={progress} nowMs={T0 + 2000} />);
    expect(lastFrame()).toContain('demo/hello-a   terminating, 29s grace left');
    rerender(<DrainView progress={progress} nowMs={T0 + 22_000} />);
    expect(lastFrame()).toContain('demo/hello-a   terminating, 9s grace left');
    expect(lastFrame()).toContain('Draining k8s-node-1 · 0:22');
  });

  it('caps the live rows and counts the rest, busy pods first', () => {
    const pods = Array.from({ length: 6 }, (_, i) => podRef(`web-${i}`));
    const progress = progressOf([started(pods), podEvent(pods[5]!, 1, { phase: 'evicting', attempt: 1 })]);
    const frame = render(<DrainView progress={progress} nowMs={T0 + 1000} maxRows={3} />).lastFrame() ?? '';
    const rows = frame.split('\n').slice(2);
    expect(rows).toEqual(['demo/web-5   evicting', 'demo/web-0   queued', 'demo/web-1   queued', '… and 3 more']);
  });

  it('replaces the live rows with the summary once the drain finished', () => {
    const { lastFrame } = render(<DrainView progress={progressOf(helloDrain())} nowMs={T0 + 60_000} />);
    const frame = lastFrame() ?? '';
    expect(frame).toContain(' 0:45 ✓ demo/hello-b evicted');
    expect(frame).toContain('Drained k8s-node-1 in 45s\n  done: 2 evicted, 1 skipped');
    expect(frame).not.toContain('Draining k8s-node-1 ·');
  });
});
