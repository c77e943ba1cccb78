import { describe, expect, it } from 'vitest';
import type { ApiOutcome } from '../../../src/kube/api-outcome.js';
import { parseStatus } from '../../../src/kube/api-status.js';
import { classifyEviction, type EvictionCall, type EvictionStep } from '../../../src/drain/eviction-retry.js';
import { helloExhausted } from './states.js';
import responses from './fixtures/eviction-responses.json' with { type: 'json' };

type Captured = keyof Omit<typeof responses, '_comment'>;

/** A captured answer of the lab's API server, as client-node hands it over (the body as a JSON string). */
function captured(name: Captured): ApiOutcome {
  const { code, body, headers } = responses[name];
  return { kind: 'status', code, status: parseStatus(JSON.stringify(body), headers as Record<string, string>, code) };
}

function status(code: number, message: string): ApiOutcome {
  return { kind: 'status', code, status: parseStatus(JSON.stringify({ kind: 'Status', code, message }), {}, code) };
}

const evictHello: EvictionCall = {
  namespace: 'demo',
  name: 'hello-1',
  verb: 'create',
  resource: 'pods/eviction',
  budgets: [{ pdb: 'demo/hello', disruptionsAllowed: 0, currentHealthy: 3, desiredHealthy: 3 }],
};

interface Case {
  readonly name: string;
  readonly outcome: ApiOutcome;
  readonly call?: EvictionCall;
  readonly expected: EvictionStep;
}

const cases: Case[] = [
  { name: 'A 2xx means the API server admitted the eviction', outcome: { kind: 'ok' }, expected: { kind: 'admitted' } },
  {
    name: 'A 404 means the pod is already gone',
    outcome: captured('not-found'),
    expected: { kind: 'gone', detail: 'not found' },
  },
  {
    name: 'A 409 for the UID precondition means the name now belongs to another pod',
    outcome: captured('uid-mismatch'),
    expected: { kind: 'gone', detail: 'replaced by a new pod of the same name' },
  },
  {
    name: 'A 429 whose cause says "needs N healthy pods and has M" is a budget used up, with its name and numbers',
    outcome: captured('budget-exhausted'),
    expected: helloExhausted,
  },
  {
    name: 'A 429 whose cause says "still being processed" is a budget status the disruption controller has not observed',
    outcome: captured('status-not-observed'),
    expected: {
      kind: 'budget',
      why: 'status-not-observed',
      pdb: 'odd',
      desiredHealthy: null,
      currentHealthy: null,
      message: 'The disruption budget odd is still being processed by the server.',
    },
  },
  {
    name: 'A 429 saying the budget "does not allow evicting pods currently" (1.37, a concurrent eviction spent it) is a budget used up',
    outcome: captured('budget-spent-concurrently'),
    expected: {
      kind: 'budget',
      why: 'budget-exhausted',
      pdb: 'hello',
      desiredHealthy: null,
      currentHealthy: null,
      message: 'The disruption budget hello does not allow evicting pods currently',
    },
  },
  {
    name: 'A 429 without a budget cause is throttling, retried after its Retry-After',
    outcome: {
      kind: 'status',
      code: 429,
      status: parseStatus('{"message":"Too many requests, please try again later."}', { 'retry-after': '3' }, 429),
    },
    expected: {
      kind: 'retry',
      error: 'throttled by the API server: Too many requests, please try again later.',
      retryAfterMs: 3000,
    },
  },
  {
    name: 'A 500 for more than one budget fails the pod and names the budgets with their state',
    outcome: captured('more-than-one-pdb'),
    call: {
      ...evictHello,
      budgets: [
        ...evictHello.budgets,
        { pdb: 'demo/hello-too', disruptionsAllowed: null, currentHealthy: null, desiredHealthy: null },
      ],
    },
    expected: {
      kind: 'fail',
      error:
        'pod matches more than one PodDisruptionBudget (demo/hello (needs 3 healthy, has 3, allowed 0); demo/hello-too); ' +
        'the Eviction API refuses such pods (make the budgets select disjoint pods, or drain with --disable-eviction)',
    },
  },
  {
    name: 'A 403 while the namespace terminates is retried',
    outcome: captured('namespace-terminating'),
    call: { ...evictHello, namespace: 'term', name: 'fin' },
    expected: { kind: 'retry', error: 'namespace "term" is terminating', retryAfterMs: null },
  },
  {
    name: 'An RBAC 403 fails the pod with the verb and resource',
    outcome: captured('rbac-forbidden'),
    expected: {
      kind: 'fail',
      error:
        'forbidden: cannot create pods/eviction in namespace "demo" (pods "hello-6f688f4ff7-q8ckn" is forbidden: ' +
        'User "alice" cannot create resource "pods/eviction" in API group "" in the namespace "demo")',
    },
  },
  {
    name: 'An RBAC 403 on a delete (--disable-eviction) names delete pods',
    outcome: status(
      403,
      'pods "hello-1" is forbidden: User "alice" cannot delete resource "pods" in API group "" in the namespace "demo"',
    ),
    call: { ...evictHello, verb: 'delete', resource: 'pods' },
    expected: {
      kind: 'fail',
      error:
        'forbidden: cannot delete pods in namespace "demo" (pods "hello-1" is forbidden: User "alice" cannot delete ' +
        'resource "pods" in API group "" in the namespace "demo")',
    },
  },
  {
    name: 'Another 403 (negative disruptionsAllowed, a webhook) fails the pod with the server message',
    outcome: status(403, 'poddisruptionbudget.policy "hello" is forbidden: pdb disruptions allowed is negative'),
    expected: {
      kind: 'fail',
      error: 'forbidden: poddisruptionbudget.policy "hello" is forbidden: pdb disruptions allowed is negative',
    },
  },
  {
    name: 'A network error is retried',
    outcome: {
      kind: 'network',
      message: 'The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?',
    },
    expected: {
      kind: 'retry',
      error: 'The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?',
      retryAfterMs: null,
    },
  },
  {
    name: 'A 503 is retried',
    outcome: status(503, 'the server is currently unable to handle the request'),
    expected: {
      kind: 'retry',
      error: 'server error: the server is currently unable to handle the request (HTTP 503)',
      retryAfterMs: null,
    },
  },
  {
    name: 'A 409 from budget update conflicts is retried',
    outcome: status(
      409,
      'Operation cannot be fulfilled on poddisruptionbudgets.policy "hello": the object has been modified',
    ),
    expected: {
      kind: 'retry',
      error:
        'conflict: Operation cannot be fulfilled on poddisruptionbudgets.policy "hello": the object has been modified',
      retryAfterMs: null,
    },
  },
  {
    name: 'A 400 is not worth retrying',
    outcome: status(400, 'name in URL does not match name in Eviction object'),
    expected: { kind: 'fail', error: 'name in URL does not match name in Eviction object (HTTP 400)' },
  },
  {
    name: "An admission webhook's 429 is that webhook refusing for now (its operator moves the pod): asked again after 5 s at most, not counted as a failure",
    outcome: status(
      429,
      'admission webhook "migrate.demo.io" denied the request: pod demo/hello-1 is being live-migrated',
    ),
    expected: {
      kind: 'retry',
      error: 'admission webhook "migrate.demo.io" denied the request: pod demo/hello-1 is being live-migrated',
      retryAfterMs: 5_000,
      patient: true,
    },
  },
  {
    name: "A webhook's 429 with a shorter Retry-After is asked again after it",
    outcome: {
      kind: 'status',
      code: 429,
      status: parseStatus(
        JSON.stringify({ kind: 'Status', code: 429, message: 'admission webhook "w.io" denied the request: later' }),
        { 'retry-after': '2' },
        429,
      ),
    },
    expected: {
      kind: 'retry',
      error: 'admission webhook "w.io" denied the request: later',
      retryAfterMs: 2_000,
      patient: true,
    },
  },
  {
    name: "A webhook's 500 is its answer (Strimzi's drain cleaner), not a server error: the pod fails, once",
    outcome: status(
      500,
      'admission webhook "strimzi-drain-cleaner.strimzi.io" denied the request: The pod will be rolled by the Strimzi Cluster Operator',
    ),
    expected: {
      kind: 'fail',
      error:
        'admission webhook "strimzi-drain-cleaner.strimzi.io" denied the request: The pod will be rolled by the Strimzi Cluster Operator (HTTP 500)',
    },
  },
  {
    name: "A webhook's 403 (the GCS FUSE driver's mounter pods) keeps the webhook's words",
    outcome: status(
      403,
      'admission webhook "gcsfuse-sidecar-injector.csi.storage.gke.io" denied the request: Eviction of Mounter Pod is not allowed',
    ),
    expected: {
      kind: 'fail',
      error:
        'admission webhook "gcsfuse-sidecar-injector.csi.storage.gke.io" denied the request: Eviction of Mounter Pod is not allowed (HTTP 403)',
    },
  },
  {
    name: "A ValidatingAdmissionPolicy's 422 ends the pod's attempts with the policy and its message",
    outcome: status(
      422,
      `pods "hello-1" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: no`,
    ),
    expected: {
      kind: 'fail',
      error: `pods "hello-1" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: no (HTTP 422)`,
    },
  },
];

describe('classifyEviction', () => {
  it.each(cases)('$name', ({ outcome, call, expected }) => {
    expect(classifyEviction(outcome, call ?? evictHello)).toEqual(expected);
  });
});

describe('parseStatus', () => {
  it('reads the Retry-After header when the body has no retryAfterSeconds', () => {
    expect(parseStatus('{"message":"slow down"}', { 'retry-after': '7' }, 429).retryAfterSeconds).toBe(7);
  });
  it('keeps a body that is not JSON as the message', () => {
    expect(parseStatus('upstream connect error\n', {}, 502).message).toBe('upstream connect error');
  });
  it('names the HTTP code when there is no body at all (a 401)', () => {
    expect(parseStatus(undefined, {}, 401).message).toBe('HTTP 401');
  });
});
