import { Environment } from '@marcbachmann/cel-js';

/**
 * The CEL of admission policies and webhook matchConditions (k8s.io/apiserver admission/plugin/cel): the
 * variables `object`, `oldObject`, `request`, `params`, `namespaceObject` and `variables`, each dynamic as
 * the API server types unstructured objects. What the engine lacks (the `authorizer`, Kubernetes' quantity,
 * IP, URL and set libraries, two-variable macros…) does not compile here: the caller says "unknown", never
 * "allowed".
 */
const environment = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false })
  .registerVariable('object', 'dyn')
  .registerVariable('oldObject', 'dyn')
  .registerVariable('request', 'dyn')
  .registerVariable('params', 'dyn')
  .registerVariable('namespaceObject', 'dyn')
  .registerVariable('variables', 'dyn');

export type CelInput = Readonly<Record<string, unknown>>;

/** An evaluation's result: the value, or the runtime error as the API server would meet it. */
export type CelResult = { readonly value: unknown } | { readonly error: string };

/** A compiled expression, or why it cannot be evaluated here. */
export type CompiledExpression = { readonly run: (input: CelInput) => CelResult } | { readonly unsupported: string };

// A memo, not state: an expression always compiles the same way, and a cluster repeats a few of them.
const compiled = new Map<string, CompiledExpression>();

export function compileExpression(expression: string): CompiledExpression {
  let result = compiled.get(expression);
  if (!result) {
    result = compile(expression);
    compiled.set(expression, result);
  }
  return result;
}

function compile(expression: string): CompiledExpression {
  let program: (context: CelInput) => unknown;
  try {
    const check = environment.check(expression);
    if (!check.valid) return { unsupported: firstLine(check.error?.message ?? 'invalid expression') };
    program = environment.parse(expression) as (context: CelInput) => unknown;
  } catch (e) {
    return { unsupported: firstLine((e as Error).message) };
  }
  return {
    run: (input) => {
      try {
        return { value: program(input) };
      } catch (e) {
        return { error: firstLine((e as Error).message) };
      }
    },
  };
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.trim();
}
