import type { NodeEvent } from '../kube/node-event-recorder.js';
import { plural } from '../wording.js';
import type { DrainEvent, PodRef } from './events.js';

/**
 * The Kubernetes Events a drain leaves on its nodes (kube/node-events.ts), from its own events: each node
 * cordoned, then drained, or why not (the drain failed, timed out or was interrupted, with what is left).
 * A node the drain could not cordon was left as it was, and gets none.
 * `by` names who drains, as the notes say it: `kubectl maint drain (ops@bastion pid 4242)`.
 */
export class DrainTrail {
  /** The nodes the drain holds cordoned (by itself or before it): one whose cordon failed was not touched. */
  private readonly nodes: string[] = [];

  constructor(private readonly by: string) {}

  eventsOf(event: DrainEvent): NodeEvent[] {
    switch (event.type) {
      case 'cordoned':
        if (event.dryRun) return [];
        this.nodes.push(event.node);
        if (event.already) return [];
        return [
          { node: event.node, type: 'Normal', reason: 'Cordoned', action: 'Cordon', note: `cordoned by ${this.by}` },
        ];
      case 'finished':
        if (event.result === 'dry-run') return [];
        return this.nodes.map((node) => finishedOn(node, event, this.by));
      default:
        return [];
    }
  }
}

function finishedOn(node: string, event: Extract<DrainEvent, { type: 'finished' }>, by: string): NodeEvent {
  const on = (pods: readonly PodRef[]) => pods.filter((p) => p.node === node).length;
  const gone = on(event.gone);
  const left = on(event.remaining);
  if (left === 0) {
    return {
      node,
      type: 'Normal',
      reason: 'Drained',
      action: 'Drain',
      note: `drained by ${by}: ${plural(gone, 'pod')} removed`,
    };
  }
  const why = event.error ? `: ${event.error}` : '';
  if (event.result === 'interrupted') {
    return {
      node,
      type: 'Normal',
      reason: 'DrainInterrupted',
      action: 'Drain',
      note: `drain by ${by} interrupted with ${plural(left, 'pod')} still on the node; the node stays cordoned`,
    };
  }
  return {
    node,
    type: 'Warning',
    reason: 'DrainFailed',
    action: 'Drain',
    note: `drain by ${by} ${event.result === 'timeout' ? 'timed out' : 'failed'} with ${plural(left, 'pod')} still on the node${why}`,
  };
}
