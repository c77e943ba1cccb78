/** The parts of `plan -o json` the plan e2e tests read (docs/json.md), and its parsing. */

export interface Replacement {
  schedulable: boolean;
  placedOn: string | null;
  message: string;
  untilNodeReturns?: string[];
  unknown?: string;
}

export interface Plan {
  verdict: string;
  verdictReasons: string[];
  outages?: Array<{ kind: string; name: string; until: string; returnsOn: string[] }>;
  pods: Array<{ namespace: string; name: string; action: string; replacement: Replacement | null }>;
  caveats: string[];
  kubernetes: { server: string | null; modelled: string; notServed?: string[] };
}

/** The plan a `plan -o json` run printed; a run that printed nothing fails with its exit code and stderr. */
export function parsePlan(r: { exitCode?: number; stdout: string; stderr: string }): Plan {
  if (r.stdout.trim() === '') throw new Error(`plan printed nothing (exit ${r.exitCode}): ${r.stderr}`);
  return JSON.parse(r.stdout) as Plan;
}
