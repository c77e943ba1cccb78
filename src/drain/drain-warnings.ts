import type { ApiOutcome } from '../kube/api-outcome.js';
import type { Clock } from './clock.js';
import type { DrainEvent, PodRef } from './events.js';

/**
 * The drain's warnings, as `warning` events: said as they come, once per cause (a watch that keeps failing,
 * a budget whose pods cannot be counted), or once per pod and text for the API server's own.
 */
export class DrainWarnings {
  private readonly said = new Set<string>();
  /** The API server's warnings said, by pod uid and text. */
  private readonly saidByServer = new Set<string>();

  constructor(
    private readonly emit: (event: DrainEvent) => void,
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  warn(message: string): void {
    this.emit({ type: 'warning', atMs: this.clock.now(), message });
  }

  /** Says `message` the first time `what` goes wrong, and nothing the next times. */
  once(what: string, message: string): void {
    if (this.said.has(what)) return;
    this.said.add(what);
    this.warn(message);
  }

  /**
   * The API server's `Warning:` headers (a ValidatingAdmissionPolicy's Warn action, a webhook's warnings),
   * said as kubectl says them, each once per pod however often the pod is asked again.
   */
  fromServer(pod: PodRef, outcome: ApiOutcome): void {
    for (const message of serverWarnings(outcome)) {
      const what = `${pod.uid} ${message}`;
      if (this.saidByServer.has(what)) continue;
      this.saidByServer.add(what);
      this.emit({ type: 'warning', atMs: this.clock.now(), message, pod });
    }
  }
}

/** The `Warning:` headers of an answer; none when there was no answer. */
export function serverWarnings(outcome: ApiOutcome): readonly string[] {
  return outcome.kind === 'network' ? [] : (outcome.warnings ?? []);
}
