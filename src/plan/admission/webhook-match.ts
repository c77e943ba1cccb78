import type { V1MatchCondition, V1MutatingWebhook, V1Pod, V1ValidatingWebhook } from '@kubernetes/client-node';
import type { Snapshot } from '../../snapshot/types.js';
import type { AdmissionWebhookPlan } from '../types.js';
import { compileExpression } from './cel.js';
import { celRequest, type AdmissionRequest } from './request.js';
import {
  namespaceSelectorMatches,
  objectSelectorMatches,
  ruleMatches,
  type AdmissionRule,
  type MatchContext,
  type Tri,
} from './rules.js';
import { operatorAnswer } from './webhook-operators.js';

/**
 * The admission webhooks a request meets (k8s.io/apiserver admission/plugin/webhook/generic/webhook.go
 * ShouldCallHook, and matchconditions): rules, namespace and object selectors, then matchConditions (all
 * true calls it; any false skips it; an error with none false follows failurePolicy). The API shows which
 * webhooks decide, not what they answer: that is the operator's, predicted where the webhook is one the
 * plan knows (webhook-operators.ts), unknown otherwise.
 */

type AnyWebhook = V1ValidatingWebhook | V1MutatingWebhook;

export interface WebhookSet {
  readonly hooks: ReadonlyArray<{
    readonly kind: AdmissionWebhookPlan['kind'];
    readonly configuration: string;
    readonly webhook: AnyWebhook;
  }>;
  /** Why the webhook configurations are not known (a kind not read), or null. */
  readonly unread: string | null;
}

export function webhookSet(snapshot: Snapshot): WebhookSet {
  const of = (
    kind: AdmissionWebhookPlan['kind'],
    configs: Snapshot['validatingWebhooks'] | Snapshot['mutatingWebhooks'],
  ) =>
    [...configs]
      .sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''))
      .flatMap((c) =>
        (c.webhooks ?? []).map((webhook) => ({
          kind,
          configuration: c.metadata?.name ?? '',
          webhook: webhook as AnyWebhook,
        })),
      );
  const missing = (['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'] as const).filter(
    (k) => !snapshot.kinds.has(k),
  );
  return {
    // Mutating webhooks run first, then validating ones (after the policies).
    hooks: [
      ...of('MutatingWebhookConfiguration', snapshot.mutatingWebhooks),
      ...of('ValidatingWebhookConfiguration', snapshot.validatingWebhooks),
    ],
    unread:
      missing.length === 0
        ? null
        : `${missing.join('s and ')}s were not read: an admission webhook may decide the drain's requests`,
  };
}

/** The webhooks that the request meets (or may meet: `matches: unknown`), each with its predicted answer. */
export function webhooksFor(
  pod: V1Pod,
  request: AdmissionRequest,
  set: WebhookSet,
  context: MatchContext,
): AdmissionWebhookPlan[] {
  const plans: AdmissionWebhookPlan[] = [];
  for (const { kind, configuration, webhook } of set.hooks) {
    const matched = webhookMatches(webhook, request, context);
    if (matched === false) continue;
    const failurePolicy = webhook.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail';
    const timeoutSeconds = webhook.timeoutSeconds ?? 10;
    const sideEffects = webhook.sideEffects ?? 'Unknown';
    const operator = operatorAnswer(webhook.name, pod, request);
    const unknown = matched === true ? undefined : matched.unknown;
    plans.push({
      kind,
      configuration,
      name: webhook.name,
      failurePolicy,
      timeoutSeconds,
      sideEffects,
      ...(unknown !== undefined ? { matchUnknown: unknown } : {}),
      answer: operator?.answer ?? 'unknown',
      ...(operator?.code !== undefined ? { code: operator.code } : {}),
      ...(operator?.message !== undefined ? { message: operator.message } : {}),
      ...(operator?.operator ? { operator: operator.operator } : {}),
      text: webhookText(webhook.name, failurePolicy, timeoutSeconds, operator?.text, unknown) + dryRunText(sideEffects),
    });
  }
  return plans;
}

function webhookText(
  name: string,
  failurePolicy: string,
  timeoutSeconds: number,
  predicted: string | undefined,
  unknown: string | undefined,
): string {
  const decides = unknown === undefined ? 'decides' : `may decide (${unknown})`;
  const answer = predicted ?? 'what it answers is its own (the plan cannot tell)';
  return `admission webhook "${name}" ${decides} (failurePolicy ${failurePolicy}, timeout ${timeoutSeconds}s): ${answer}`;
}

/**
 * A webhook that may have side effects (sideEffects Some or Unknown, possible only on configurations made
 * through v1beta1) makes the API server refuse every dry run it meets (400 "does not support dry run").
 */
function dryRunText(sideEffects: string): string {
  return sideEffects === 'None' || sideEffects === 'NoneOnDryRun'
    ? ''
    : `; its sideEffects ${sideEffects} make the API server refuse any dry run it meets (plan --ask-server, drain --dry-run=server)`;
}

/** ShouldCallHook for a pod request: rules, namespace, object, then the matchConditions. */
export function webhookMatches(webhook: AnyWebhook, request: AdmissionRequest, context: MatchContext): Tri {
  if (!(webhook.rules ?? []).some((r) => ruleMatches(r as AdmissionRule, request))) return false;
  const namespace = namespaceSelectorMatches(webhook.namespaceSelector, context);
  if (namespace === false) return false;
  if (!objectSelectorMatches(webhook.objectSelector, request)) return false;
  const conditions = conditionsMatch(webhook.matchConditions ?? [], request, webhook.failurePolicy !== 'Ignore');
  if (conditions === false) return false;
  if (namespace !== true) return namespace;
  return conditions;
}

function conditionsMatch(conditions: readonly V1MatchCondition[], request: AdmissionRequest, fail: boolean): Tri {
  const input = { object: request.object, oldObject: request.oldObject, request: celRequest(request, undefined) };
  let error: string | null = null;
  for (const c of conditions) {
    if (/\bauthorizer\b|\brequest\s*\.\s*userInfo\b/.test(c.expression)) {
      return { unknown: `matchCondition "${c.name}" reads the caller or the authorizer` };
    }
    const compiled = compileExpression(c.expression);
    if ('unsupported' in compiled) return { unknown: `matchCondition "${c.name}" cannot be evaluated here` };
    const result = compiled.run(input);
    if ('value' in result && result.value === false) return false;
    if ('error' in result || typeof result.value !== 'boolean') error ??= c.name;
  }
  // An error with none false: under Fail the API server rejects the request with it (the webhook is the
  // one that decides, as far as the plan says); under Ignore the webhook is skipped.
  return error === null ? true : fail;
}
