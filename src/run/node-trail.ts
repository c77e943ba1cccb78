import type { NodeEvent } from '../kube/node-event-recorder.js';
import { commandFor } from './command.js';
import type { RunEvent } from './events.js';

/**
 * The Kubernetes Events a run leaves on each node (kube/node-events.ts), from its own events: cordoned
 * (by its drain), drained or why not, the command started and how it ended, back (Ready again) or not,
 * and uncordoned once the node is done.
 */
export class RunTrail {
  private readonly by: string;

  constructor(
    runId: string,
    holder: string,
    private readonly command: readonly string[],
    private readonly uncordon: boolean,
  ) {
    this.by = `kubectl maint run ${runId} (${holder})`;
  }

  eventsOf(event: RunEvent): NodeEvent[] {
    const by = this.by;
    switch (event.type) {
      case 'drain': {
        const drain = event.event;
        if (drain.type !== 'cordoned' || drain.already || drain.dryRun) return [];
        return [step(drain.node, 'Normal', 'Cordoned', 'Cordon', `cordoned by ${by}`)];
      }
      case 'command-finished':
        return [
          event.failure === null
            ? step(event.node, 'Normal', 'CommandSucceeded', 'Command', `command of ${by} exited 0`)
            : step(event.node, 'Warning', 'CommandFailed', 'Command', `command of ${by} ${event.failure}`),
        ];
      case 'phase':
        return this.phaseEvents(event);
      default:
        return [];
    }
  }

  private phaseEvents(event: Extract<RunEvent, { type: 'phase' }>): NodeEvent[] {
    const { node, problem } = event;
    const by = this.by;
    switch (event.phase) {
      case 'drained':
        return [step(node, 'Normal', 'Drained', 'Drain', `drained by ${by}`)];
      case 'drain-failed':
        return [
          step(node, 'Warning', 'DrainFailed', 'Drain', `drain by ${by} failed: ${problem ?? 'no reason given'}`),
        ];
      case 'command-running':
        if (this.command.length === 0) return [];
        return [
          step(
            node,
            'Normal',
            'CommandStarted',
            'Command',
            `command of ${by} started: ${commandFor(this.command, node).join(' ')}`,
          ),
        ];
      case 'returned':
        return [step(node, 'Normal', 'Returned', 'Return', `back after the maintenance of ${by}: Ready`)];
      case 'not-returned':
        return [
          step(
            node,
            'Warning',
            'NotReturned',
            'Return',
            `not back after the maintenance of ${by}: ${problem ?? 'no reason given'}`,
          ),
        ];
      case 'done':
        if (!this.uncordon) return [];
        return [step(node, 'Normal', 'Uncordoned', 'Uncordon', `uncordoned by ${by}: its maintenance is done`)];
      default:
        return [];
    }
  }
}

function step(node: string, type: NodeEvent['type'], reason: string, action: string, note: string): NodeEvent {
  return { node, type, reason, action, note };
}
