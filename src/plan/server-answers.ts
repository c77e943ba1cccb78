import type { DrainPlan, PodPlan, ServerDryRunAnswer } from './types.js';

/**
 * plan --ask-server: the API server's answers to dry runs of the drain's evictions, put beside the plan's
 * predictions. Where they differ the answer wins: a pod the API server refuses is blocked whatever the plan
 * predicted, and the verdict says so. A dry run does not spend the budget, so an admission where the plan
 * has the pod wait for a later wave agrees (the plan's waves still decide).
 */

/** What the API server answered, as the drain classifies it (drain/eviction-retry.ts). */
export interface ServerAnswer {
  readonly answer: ServerDryRunAnswer['answer'];
  readonly code: number | null;
  readonly message: string;
}

/** The pods the option asks about: those the drain would evict, by `namespace/name`. */
export function podsToAsk(plan: DrainPlan): PodPlan[] {
  return plan.pods.filter((p) => p.action === 'evict');
}

export function withServerAnswers(plan: DrainPlan, answers: ReadonlyMap<string, ServerAnswer>): DrainPlan {
  const overruled: string[] = [];
  const pods = plan.pods.map((p) => {
    const answer = answers.get(`${p.namespace}/${p.name}`);
    if (!answer) return p;
    const agrees = agreement(p, answer);
    const said = answerText(answer);
    const serverDryRun: ServerDryRunAnswer = {
      ...answer,
      agrees,
      text: agrees
        ? `the API server's dry run: ${said}`
        : `the API server's dry run: ${said}, where the plan predicted ${predicted(p)}`,
    };
    if (agrees || answer.answer !== 'refused') return { ...p, serverDryRun };
    overruled.push(`${p.namespace}/${p.name}`);
    return {
      ...p,
      outcome: 'blocked' as const,
      wave: null,
      eta: null,
      outcomeReason: `the API server refuses its eviction (dry run): ${answer.message} (HTTP ${answer.code})`,
      serverDryRun,
    };
  });
  const disagreements = pods.filter((p) => p.serverDryRun && !p.serverDryRun.agrees);
  const lines = disagreements.map((p) => `${p.namespace}/${p.name}: ${p.serverDryRun!.text}; the answer wins`);
  const blocked = overruled.length > 0;
  return {
    ...plan,
    pods,
    ...(blocked
      ? { verdict: plan.verdict === 'incomplete' ? 'incomplete' : 'blocked', assumedVerdict: 'blocked' }
      : {}),
    verdictReasons: [...lines, ...plan.verdictReasons],
  };
}

function agreement(p: PodPlan, a: ServerAnswer): boolean {
  const denied = p.admission?.denied;
  switch (a.answer) {
    case 'error':
      return true;
    case 'refused':
      return p.outcome === 'blocked' && (denied === undefined || denied.code === a.code);
    case 'admitted':
      // Only a denial or a budget that never allows contradicts an admission: a dry run spends no budget.
      return denied === undefined && !(p.outcome === 'blocked' && p.pdbs.some((b) => b.disruptionsAllowed <= 0));
    case 'budget':
      return p.outcome === 'waits' || (p.outcome === 'blocked' && denied === undefined);
    case 'waits':
      return p.outcome === 'waits' || p.admission?.webhooks?.some((w) => w.answer !== 'admit') === true;
  }
}

function answerText(a: ServerAnswer): string {
  switch (a.answer) {
    case 'admitted':
      return 'admitted';
    case 'budget':
      return `refused for now by a budget (429): ${a.message}`;
    case 'waits':
      return `refused for now (429): ${a.message}`;
    case 'refused':
      return `refused: ${a.message} (HTTP ${a.code})`;
    case 'error':
      return `not answered: ${a.message}`;
  }
}

function predicted(p: PodPlan): string {
  if (p.admission?.denied) return `a denial by ${p.admission.denied.name}`;
  if (p.outcome === 'immediate') return 'an eviction at once';
  if (p.outcome === 'waits') return `an eviction in wave ${p.wave ?? '?'}`;
  return 'a blocked eviction';
}
