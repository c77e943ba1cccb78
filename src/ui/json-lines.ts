/**
 * `-o json` of an event stream (`drain`, `run`): one JSON object per line per event (JSON Lines), the
 * event as the engine emitted it, so `jq` can follow a drain or a run as it happens.
 */
export function jsonLine(event: unknown): string {
  return `${JSON.stringify(event)}\n`;
}
