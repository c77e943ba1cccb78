import { stringify } from 'yaml';

/**
 * `-o json` and `-o yaml` of a document (a plan, a pool plan, the version): the value exactly as the
 * command made it (the plan's contract is plan/types.ts), one document, ending in a newline. Nothing is
 * added or reordered here, so scripts read the same fields the planner wrote.
 */
export function renderJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function renderYaml(value: unknown): string {
  // lineWidth 0: never fold long reasons (scheduler messages) across lines.
  return stringify(value, { indent: 2, lineWidth: 0 });
}
