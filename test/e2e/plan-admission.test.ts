import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { drainNode1, planRun, runMaint } from './drain-run.js';
import { eventually, kubectl, labApi, labGet, seedScenario } from './lab.js';

// ValidatingAdmissionPolicies on evictions against the lab's real API server: the plan's judge says what
// the API server answers a dry-run eviction of the same pod (`?dryRun=All`: admission runs, nothing is written).

const MESSAGE = 'evictions of demo pods are handled by the demo operator: it migrates them itself';
const POLICIES = ['protect-hello-evictions', 'hello-by-name', 'hello-by-labels', 'hello-frozen'];

interface AdmissionPlan {
  verdict: string;
  verdictReasons: string[];
  caveats: string[];
  pods: Array<{
    namespace: string;
    name: string;
    node: string;
    outcome: string | null;
    outcomeReason: string;
    /** With --ask-server. */
    serverDryRun?: { answer: string; warnings?: string[] };
    admission?: {
      denied?: { name: string; binding: string; message: string; code: number; text: string };
      warnings: string[];
      cachedParams?: string[];
      deleteInstead?: { admitted: boolean | null; text: string };
    };
  }>;
}

/** A policy on CREATE pods/eviction with one validation, and its binding (actions, params, selectors). */
function policyYaml(
  name: string,
  options: {
    expression?: string;
    message?: string;
    messageExpression?: string;
    matchConditions?: string[];
    objectSelector?: string;
    actions?: string;
    paramKind?: boolean;
    paramRef?: string;
  } = {},
): string {
  const conditions = (options.matchConditions ?? []).map((e, i) => `    - name: c${i}\n      expression: '${e}'`);
  return `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: { name: ${name} }
spec:
  failurePolicy: Fail
${options.paramKind ? '  paramKind: { apiVersion: v1, kind: ConfigMap }\n' : ''}  matchConstraints:
    namespaceSelector: { matchLabels: { kubernetes.io/metadata.name: demo } }
${options.objectSelector ? `    objectSelector: ${options.objectSelector}\n` : ''}    resourceRules:
      - { apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods/eviction] }
${conditions.length > 0 ? `  matchConditions:\n${conditions.join('\n')}\n` : ''}  validations:
    - expression: '${options.expression ?? 'false'}'
      message: '${options.message ?? MESSAGE}'
${options.messageExpression ? `      messageExpression: '${options.messageExpression}'\n` : ''}---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: { name: ${name}-binding }
spec:
  policyName: ${name}
  validationActions: [${options.actions ?? 'Deny'}]
${options.paramRef ? `  paramRef: ${options.paramRef}\n` : ''}`;
}

async function apply(yaml: string): Promise<void> {
  await kubectl(['apply', '-f', '-'], { input: yaml });
}

/**
 * The API server's answer to a dry-run eviction of the pod: the status code and message (the policies
 * come into force a moment after they are written, so the caller waits on this).
 */
async function dryRunEviction(namespace: string, name: string): Promise<{ code: number; message: string }> {
  const api = await labApi();
  const body = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace } };
  const answer = await api.call('POST', `/api/v1/namespaces/${namespace}/pods/${name}/eviction?dryRun=All`, body);
  return { code: answer.status, message: String(answer.body.message ?? '') };
}

async function planNode1(): Promise<{ exitCode: number; plan: AdmissionPlan; stdout: string }> {
  const run = await planRun(['k8s-node-1', '--ignore-daemonsets', '-o', 'json']);
  return { exitCode: run.exitCode, plan: JSON.parse(run.stdout) as AdmissionPlan, stdout: run.stdout };
}

const helloOnNode1 = (plan: AdmissionPlan) =>
  plan.pods.filter((p) => p.namespace === 'demo' && p.node === 'k8s-node-1');

/** Waits until the API server enforces what was applied: its answer to a dry-run eviction of the pod. */
async function enforced(pod: string, test: (answer: { code: number; message: string }) => boolean) {
  return eventually(
    async () => {
      const answer = await dryRunEviction('demo', pod);
      return test(answer) ? answer : undefined;
    },
    60_000,
    `the API server enforcing the policy on demo/${pod}`,
  );
}

describe('plan with ValidatingAdmissionPolicies on evictions (hello)', () => {
  beforeEach(async () => {
    await seedScenario('hello');
  });
  afterEach(async () => {
    await kubectl(
      [
        'delete',
        'validatingadmissionpolicy,validatingadmissionpolicybinding',
        '--ignore-not-found',
        ...POLICIES.flatMap((p) => [p, `${p}-binding`]),
      ],
      { reject: false },
    );
    await kubectl(['delete', 'configmap', '-n', 'demo', 'eviction-rules', '--ignore-not-found'], { reject: false });
  });

  it('Deny: blocked (exit 3), each hello pod naming the policy and its message, as the API server answers', async () => {
    await apply(policyYaml('protect-hello-evictions'));
    const before = await planNode1();
    const pods = helloOnNode1(before.plan);
    expect(pods).toHaveLength(2);
    const answer = await enforced(pods[0]!.name, (a) => a.code === 422);

    const { exitCode, plan } = await planNode1();
    expect(exitCode).toBe(3);
    expect(plan.verdict).toBe('blocked');
    for (const pod of helloOnNode1(plan)) {
      expect(pod.outcome).toBe('blocked');
      expect(pod.admission!.denied).toMatchObject({
        name: 'protect-hello-evictions',
        binding: 'protect-hello-evictions-binding',
        message: MESSAGE,
        code: 422,
      });
      expect(pod.outcomeReason).toContain(MESSAGE);
      expect(pod.admission!.deleteInstead!.admitted).toBe(true);
    }
    // The API server's own words for the first pod are the plan's.
    expect(answer.message).toBe(helloOnNode1(plan)[0]!.admission!.denied!.text);

    const text = await planRun(['k8s-node-1', '--ignore-daemonsets']);
    expect(text.exitCode).toBe(3);
    expect(text.stdout).toContain('BLOCKED');
    expect(text.stdout).toContain(`ValidatingAdmissionPolicy 'protect-hello-evictions'`);
  });

  it("Warn: the verdict as without the policy (slow), the API server's warning on each pod", async () => {
    await apply(policyYaml('protect-hello-evictions', { actions: 'Warn' }));
    const { exitCode, plan } = await planNode1();
    expect(exitCode).toBe(0);
    expect(plan.verdict).toBe('slow');
    for (const pod of helloOnNode1(plan)) {
      expect(pod.admission!.warnings).toEqual([
        `Validation failed for ValidatingAdmissionPolicy 'protect-hello-evictions' with binding 'protect-hello-evictions-binding': ${MESSAGE}`,
      ]);
    }
  });

  it("Warn: the API server's Warning headers, beside the plan's answers (--ask-server) and once per pod in the drain, as kubectl shows them", async () => {
    await apply(policyYaml('protect-hello-evictions', { actions: 'Warn' }));
    const warning = `Validation failed for ValidatingAdmissionPolicy 'protect-hello-evictions' with binding 'protect-hello-evictions-binding': ${MESSAGE}`;
    const asked = await eventually(
      async () => {
        const run = await planRun(['k8s-node-1', '--ignore-daemonsets', '--ask-server', '-o', 'json']);
        const plan = JSON.parse(run.stdout) as AdmissionPlan;
        return helloOnNode1(plan).every((p) => p.serverDryRun?.warnings?.includes(warning)) ? plan : undefined;
      },
      60_000,
      "the API server's warning on each hello pod's dry run",
    );
    for (const pod of helloOnNode1(asked)) expect(pod.serverDryRun!.warnings).toEqual([warning]);

    const run = await drainNode1();
    expect(run.finished?.result).toBe('drained');
    const warned = run.events.flatMap((e) => (e.type === 'warning' && e.message === warning ? [e.pod?.name] : []));
    // Each evicted hello pod once, however often it was asked (the second waits for the budget: 429s, with the header).
    expect(warned.sort()).toEqual(
      helloOnNode1(asked)
        .map((p) => p.name)
        .sort(),
    );

    await seedScenario('hello');
    await apply(policyYaml('protect-hello-evictions', { actions: 'Warn' }));
    const text = await runMaint(['drain', 'k8s-node-1', '--ignore-daemonsets']);
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stderr.split('\n').filter((l) => l === `Warning: ${warning}`)).toHaveLength(2);
  });

  it("matchConditions on the Eviction's name and namespace fire; an objectSelector on the pod's labels never does", async () => {
    const pods = helloOnNode1((await planNode1()).plan);
    const target = pods[0]!.name;
    await apply(
      policyYaml('hello-by-name', {
        matchConditions: [`object.metadata.name == "${target}"`, 'request.namespace == "demo"'],
        messageExpression: '"no eviction of " + object.metadata.name',
      }),
    );
    await apply(policyYaml('hello-by-labels', { objectSelector: '{ matchLabels: { app: hello } }' }));
    await enforced(target, (a) => a.code === 422);
    // The labels policy does not fire on the real API server either: the other pod's eviction only meets the budget.
    expect((await dryRunEviction('demo', pods[1]!.name)).code).not.toBe(422);

    const { plan } = await planNode1();
    const [first, second] = helloOnNode1(plan);
    expect(first!.admission!.denied).toMatchObject({ name: 'hello-by-name', message: `no eviction of ${target}` });
    expect(second!.admission?.denied).toBeUndefined();
    expect(plan.verdict).toBe('blocked');
  });

  it("params: the policy reads the ConfigMap its binding names in the pod's namespace", async () => {
    await kubectl(['create', 'configmap', '-n', 'demo', 'eviction-rules', '--from-literal=evictions=frozen']);
    await apply(
      policyYaml('hello-frozen', {
        paramKind: true,
        paramRef: '{ name: eviction-rules, parameterNotFoundAction: Deny }',
        expression: 'params.data.evictions != "frozen"',
        messageExpression: '"evictions in " + request.namespace + " are " + params.data.evictions',
      }),
    );
    const pods = helloOnNode1((await planNode1()).plan);
    const answer = await enforced(pods[0]!.name, (a) => a.code === 422);

    const { plan } = await planNode1();
    for (const pod of helloOnNode1(plan)) {
      expect(pod.admission!.denied!.message).toBe('evictions in demo are frozen');
      expect(pod.admission!.cachedParams).toEqual(['hello-frozen/hello-frozen-binding']);
    }
    expect(answer.message).toBe(helloOnNode1(plan)[0]!.admission!.denied!.text);
    // The API server reads the ConfigMap from an informer that can stop for good: said, with the lab's
    // version's consequence (the lab keeps a binding of its own so that its informer never stops).
    const caveat = plan.caveats.find((c) => c.startsWith('ValidatingAdmissionPolicy params:'));
    expect(caveat).toContain('hello-frozen/hello-frozen-binding reads its params');
    const { gitVersion } = await labGet<{ gitVersion: string }>('/version');
    const before137 = Number(/^v1\.(\d+)\./.exec(gitVersion)![1]) < 37;
    expect(caveat!.includes('no params found')).toBe(before137);
  });
});
