import { withUncounted } from './uncounted-eta.js';
import type { CaveatScope, DrainPlan, PodPlan, ServerDryRunAnswer } from './types.js';

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
  /** The API server's `Warning:` headers on its answer (a policy's Warn action, a webhook's warnings). */
  readonly warnings?: readonly string[];
  /** no-dry-run: the webhook that makes the API server refuse dry runs; waits: the webhook that answered 429. */
  readonly webhook?: string;
}

/** The pods the option asks about: those the drain would evict, by `namespace/name`. */
export function podsToAsk(plan: DrainPlan): PodPlan[] {
  return plan.pods.filter((p) => p.action === 'evict');
}

export function withServerAnswers(plan: DrainPlan, answers: ReadonlyMap<string, ServerAnswer>): DrainPlan {
  const overruled: string[] = [];
  const waiting = new Map<string, string>();
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
    if (answer.answer === 'waits' && answer.webhook) {
      // A webhook's 429: its operator takes the eviction over, for a time the estimate cannot count.
      waiting.set(`${p.namespace}/${p.name}`, answer.webhook);
      if (p.outcome === 'immediate') return { ...p, outcome: 'waits' as const, serverDryRun };
    }
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
  const unasked = noDryRunCaveats(pods);
  return {
    ...plan,
    pods,
    ...(plan.eta && !blocked ? { eta: withUncounted(plan.eta, pods, waiting) } : {}),
    caveats: [...plan.caveats, ...unasked.map((c) => c.caveat)],
    caveatScopes: [...plan.caveatScopes, ...unasked],
    ...(blocked
      ? { verdict: plan.verdict === 'incomplete' ? 'incomplete' : 'blocked', assumedVerdict: 'blocked' }
      : slower(plan, waiting.size > 0)),
    // A clear plan's one reason says nothing holds the drain back: not so once a webhook makes a pod wait.
    verdictReasons: [
      ...lines,
      ...plan.verdictReasons.slice(!blocked && waiting.size > 0 && plan.verdict === 'clear' ? 1 : 0),
    ],
  };
}

/** A clear drain with a pod a webhook makes wait is slow (as the plan's own prediction of such a webhook makes it). */
function slower(plan: DrainPlan, waits: boolean): Partial<DrainPlan> {
  if (!waits) return {};
  return {
    ...(plan.verdict === 'clear' ? { verdict: 'slow' as const } : {}),
    ...(plan.assumedVerdict === 'clear' ? { assumedVerdict: 'slow' as const } : {}),
  };
}

/** One caveat per webhook that made the API server refuse the dry runs, naming the pods left unasked. */
function noDryRunCaveats(pods: readonly PodPlan[]): CaveatScope[] {
  const byWebhook = new Map<string, string[]>();
  for (const p of pods) {
    const webhook = p.serverDryRun?.answer === 'no-dry-run' ? p.serverDryRun.webhook : undefined;
    if (webhook) byWebhook.set(webhook, [...(byWebhook.get(webhook) ?? []), `${p.namespace}/${p.name}`]);
  }
  return [...byWebhook].map(([webhook, names]) => ({
    caveat:
      `admission webhook "${webhook}" does not support dry run (its sideEffects are Some or Unknown): the API ` +
      `server refuses the dry runs it meets, so the evictions of ${names.join(', ')} were not asked about and ` +
      "the plan's prediction stands (--ask-server=false, or plan without --ask-server, does not send them)",
    pods: names,
  }));
}

function agreement(p: PodPlan, a: ServerAnswer): boolean {
  const denied = p.admission?.denied;
  switch (a.answer) {
    case 'error':
    case 'no-dry-run':
      return true;
    case 'refused':
      // Where several policies deny, the API server reports any one of them: each one's code agrees.
      return (
        p.outcome === 'blocked' &&
        (denied === undefined || [denied, ...(p.admission?.deniedAlso ?? [])].some((d) => d.code === a.code))
      );
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
    case 'no-dry-run':
      return `not answered: ${a.message} (HTTP ${a.code}): its sideEffects are Some or Unknown, so the API server refuses any dry run it meets`;
  }
}

function predicted(p: PodPlan): string {
  if (p.admission?.denied) return `a denial by ${p.admission.denied.name}`;
  if (p.outcome === 'immediate') return 'an eviction at once';
  if (p.outcome === 'waits') return `an eviction in wave ${p.wave ?? '?'}`;
  return 'a blocked eviction';
}
