import type { V1ValidatingAdmissionPolicy } from '@kubernetes/client-node';
import { compileExpression, type CelInput, type CelResult } from './cel.js';

/**
 * One ValidatingAdmissionPolicy run on one request with one param, as the API server's validator does it
 * (admission/plugin/policy/validating/validator.go): matchConditions first (any false skips the policy; an
 * error with none false follows failurePolicy), then every validation, each a decision; the variables
 * evaluated in order, an expression reading one that failed failing too.
 */

/** A validation's decision: admit, or deny with the message the API server would report. */
export type PolicyDecision =
  | { readonly action: 'admit' }
  | {
      readonly action: 'deny';
      readonly message: string;
      /** The validation's reason (Invalid when unset); an evaluation error has none, and is reported as Invalid. */
      readonly reason: string;
      /** A false validation, or an error that failurePolicy Fail turned into a denial. */
      readonly evaluation: 'deny' | 'error';
    };

/** Skipped (matchConditions), decided, or unknown here (an expression the engine cannot run, the caller not known). */
export type PolicyRun =
  { readonly skipped: true } | { readonly decisions: readonly PolicyDecision[] } | { readonly unknown: string };

export interface PolicyInput {
  /** object, oldObject, request, namespaceObject and params as CEL reads them. */
  readonly cel: CelInput;
  /** False when the caller is unknown: an expression reading request.userInfo cannot be judged. */
  readonly userInfoKnown: boolean;
}

export function runPolicy(policy: V1ValidatingAdmissionPolicy, input: PolicyInput): PolicyRun {
  const spec = policy.spec ?? {};
  const fail = (spec.failurePolicy ?? 'Fail') !== 'Ignore';
  const onError = (message: string): PolicyDecision =>
    fail ? { action: 'deny', message, reason: 'Invalid', evaluation: 'error' } : { action: 'admit' };

  const conditions = evaluateAll(
    (spec.matchConditions ?? []).map((c) => c.expression),
    input,
    input.cel,
  );
  if ('unknown' in conditions) return conditions;
  if (conditions.results.some((r) => 'value' in r && r.value === false)) return { skipped: true };
  const conditionError = conditions.results.find((r) => 'error' in r || typeof r.value !== 'boolean');
  if (conditionError) return { decisions: [onError(conditionErrorMessage(conditionError))] };

  const variables = evaluateVariables(spec.variables ?? [], input);
  if ('unknown' in variables) return variables;
  const cel = { ...input.cel, variables: variables.values };

  const decisions: PolicyDecision[] = [];
  for (const validation of spec.validations ?? []) {
    const expression = validation.expression;
    const unknown = unjudgeable(expression, input) ?? variables.unknownIn(expression);
    if (unknown) return { unknown };
    const failed = variables.errorIn(expression);
    const result = failed !== null ? { error: failed } : evaluate(expression, cel);
    if ('unknown' in result) return result;
    if ('error' in result) {
      decisions.push(onError(`expression '${expression}' resulted in error: ${result.error}`));
      continue;
    }
    if (result.value === true) {
      decisions.push({ action: 'admit' });
      continue;
    }
    if (typeof result.value !== 'boolean') {
      decisions.push(onError(`expression '${expression}' resulted in error: no such overload`));
      continue;
    }
    decisions.push({
      action: 'deny',
      message: denialMessage(validation, cel, input),
      reason: validation.reason ?? 'Invalid',
      evaluation: 'deny',
    });
  }
  return { decisions };
}

/**
 * The message of a failed validation: messageExpression's value when it is a non-empty single line of at
 * most 5,000 bytes, else the static message, else "failed expression: EXPR".
 */
function denialMessage(
  validation: { expression: string; message?: string; messageExpression?: string },
  cel: CelInput,
  input: PolicyInput,
): string {
  if (validation.messageExpression && unjudgeable(validation.messageExpression, input) === null) {
    const result = evaluate(validation.messageExpression, cel);
    if ('value' in result && typeof result.value === 'string') {
      const text = result.value.trim();
      if (text !== '' && !text.includes('\n') && Buffer.byteLength(text) <= 5000) return text;
    }
  }
  const message = validation.message?.trim() ?? '';
  return message !== '' ? message : `failed expression: ${validation.expression.trim()}`;
}

function conditionErrorMessage(result: CelResult): string {
  return 'error' in result ? result.error : 'matchCondition did not evaluate to a bool';
}

type Evaluated = CelResult | { readonly unknown: string };

function evaluate(expression: string, cel: CelInput): Evaluated {
  const compiled = compileExpression(expression);
  if ('unsupported' in compiled)
    return { unknown: `expression '${expression}' cannot be evaluated here: ${compiled.unsupported}` };
  return compiled.run(cel);
}

function evaluateAll(
  expressions: readonly string[],
  input: PolicyInput,
  cel: CelInput,
): { readonly results: readonly CelResult[] } | { readonly unknown: string } {
  const results: CelResult[] = [];
  for (const expression of expressions) {
    const unknown = unjudgeable(expression, input);
    if (unknown) return { unknown };
    const result = evaluate(expression, cel);
    if ('unknown' in result) return result;
    results.push(result);
  }
  return { results };
}

/** Why an expression cannot be judged from what the plan knows, or null. */
function unjudgeable(expression: string, input: PolicyInput): string | null {
  if (!input.userInfoKnown && /\brequest\s*\.\s*userInfo\b/.test(expression)) {
    return `expression '${expression}' reads request.userInfo, and who runs the drain is not known here`;
  }
  if (/\bauthorizer\b/.test(expression)) {
    return `expression '${expression}' asks the authorizer, which the plan cannot`;
  }
  return null;
}

interface Variables {
  readonly values: Record<string, unknown>;
  /** The error of a variable the expression reads that failed, or null. */
  errorIn(expression: string): string | null;
  /** Why a variable the expression reads cannot be judged, or null. */
  unknownIn(expression: string): string | null;
}

/** The variables in order, each seeing those before it; failures kept for the expressions that read them. */
function evaluateVariables(
  variables: ReadonlyArray<{ readonly name: string; readonly expression: string }>,
  input: PolicyInput,
): Variables | { readonly unknown: string } {
  const values: Record<string, unknown> = {};
  const errors = new Map<string, string>();
  const unknowns = new Map<string, string>();
  for (const { name, expression } of variables) {
    const unknown = unjudgeable(expression, input) ?? firstRead(expression, unknowns);
    if (unknown) {
      unknowns.set(name, unknown);
      continue;
    }
    const failed = firstRead(expression, errors);
    const result = failed !== null ? { error: failed } : evaluate(expression, { ...input.cel, variables: values });
    if ('unknown' in result) unknowns.set(name, result.unknown);
    else if ('error' in result) errors.set(name, result.error);
    else values[name] = result.value;
  }
  return {
    values,
    errorIn: (expression) => firstRead(expression, errors),
    unknownIn: (expression) => firstRead(expression, unknowns),
  };
}

function firstRead(expression: string, of: ReadonlyMap<string, string>): string | null {
  for (const m of expression.matchAll(/\bvariables\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)/g)) {
    const found = of.get(m[1]!);
    if (found !== undefined) return found;
  }
  return null;
}
