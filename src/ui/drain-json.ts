import type { DrainEvent } from '../drain/events.js';

/**
 * `kubectl maint drain -o json`: one JSON object per line per event (JSON Lines), the DrainEvent as the
 * engine emitted it, so `jq` can follow a drain as it happens.
 */
export function drainEventJsonLine(event: DrainEvent): string {
  return `${JSON.stringify(event)}\n`;
}
