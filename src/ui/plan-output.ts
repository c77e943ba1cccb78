import { stringify } from 'yaml';
import type { PoolPlan } from '../plan/pool-types.js';
import type { DrainPlan } from '../plan/types.js';

/**
 * `-o json` and `-o yaml`: the DrainPlan (or PoolPlan) exactly as the planner returns it (the contract in
 * plan/types.ts), one document, ending in a newline. Nothing is added or reordered here, so scripts
 * read the same fields the planner wrote.
 */
export function renderPlanJson(plan: DrainPlan | PoolPlan): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}

export function renderPlanYaml(plan: DrainPlan | PoolPlan): string {
  // lineWidth 0: never fold long reasons (scheduler messages) across lines.
  return stringify(plan, { indent: 2, lineWidth: 0 });
}
