import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { clusterRoleYaml } from '../../src/kube/cluster-roles.js';
import { permissionsOf, RBAC_COMMANDS, rulesOf, type RbacCommand, type RbacRule } from '../../src/kube/permissions.js';
import type { RunTimeline } from '../../src/run/run-timeline.js';
import { auditMark, writesBy } from './audit.js';
import { runMaint, startMaint, unschedulable, type DrainRun } from './drain-run.js';
import { serviceAccountKubeconfig } from './faults/faults.js';
import { eventually, kubectl, labApi, seedScenario } from './lab.js';

// Each command run as a ServiceAccount bound to exactly the ClusterRoles `kubectl maint rbac` prints: it
// works. Then, one verb of one rule at a time taken from a role, the command says what it lacks in one line
// and writes nothing (the lab's audit log logs every write of this namespace's ServiceAccounts). The
// removals go through one ServiceAccount, `subject`, whose roles are rewritten between runs.
//
// The plan's lists are taken away under `plan`; drain and run read through the same code, so their own
// loops take away only the rights they check before writing.

/** The parts of `plan -o json` these tests read. */
interface Plan {
  readonly verdict: string;
  readonly unread: readonly unknown[];
  readonly caveats: readonly string[];
}

const NS = 'maint-rbac';
const STATE_NS = 'kubectl-maint';
const user = (name: string) => `system:serviceaccount:${NS}:${name}`;
const SUBJECT = user('subject');

const binding = (name: string, role: string, sa: string, namespace?: string) =>
  [
    'apiVersion: rbac.authorization.k8s.io/v1',
    `kind: ${namespace ? 'RoleBinding' : 'ClusterRoleBinding'}`,
    `metadata: {name: ${name}${namespace ? `, namespace: ${namespace}` : ''}}`,
    `roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: ${role}}`,
    `subjects: [{kind: ServiceAccount, name: ${sa}, namespace: ${NS}}]`,
    '',
  ].join('\n');

const SETUP = [
  `apiVersion: v1\nkind: Namespace\nmetadata: {name: ${NS}}\n`,
  ...['plan', 'drain', 'run', 'subject'].map(
    (sa) => `apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: ${sa}, namespace: ${NS}}\n`,
  ),
  ...RBAC_COMMANDS.map((c) => binding(`${NS}-${c}`, `kubectl-maint-${c}`, c)),
  binding(`${NS}-run-state`, 'kubectl-maint-run-state', 'run', STATE_NS),
  binding(`${NS}-subject`, `${NS}-subject`, 'subject'),
  binding(`${NS}-subject-state`, `${NS}-subject-state`, 'subject', STATE_NS),
].join('---\n');

/** One verb of one rule, taken away. */
interface Removal {
  readonly rule: RbacRule;
  readonly verb: string;
}

/** A removal as `kubectl auth can-i` would name it: verb, resource.group, subresource, namespace. */
function canIArgs({ rule, verb }: Removal): string[] {
  const [resource, subresource] = rule.resource.split('/');
  return [
    verb,
    `${resource}${rule.group ? `.${rule.group}` : ''}`,
    ...(subresource ? [`--subresource=${subresource}`] : []),
    ...(rule.scope === 'state' ? ['-n', STATE_NS] : []),
    `--as=${SUBJECT}`,
  ];
}

/**
 * Whether the API server's authorizer allows `subject` the removed verb: what `kubectl auth can-i --as`
 * asks, as a SubjectAccessReview sent in-process (a kubectl process per check took a second or two of a
 * loaded machine). The groups are those the API server gives an impersonated ServiceAccount.
 */
async function allowed({ rule, verb }: Removal): Promise<boolean> {
  const [resource, subresource] = rule.resource.split('/');
  const review = (await (
    await labApi()
  ).must('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    spec: {
      user: SUBJECT,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${NS}`, 'system:authenticated'],
      resourceAttributes: {
        verb,
        group: rule.group,
        resource,
        ...(subresource ? { subresource } : {}),
        ...(rule.scope === 'state' ? { namespace: STATE_NS } : {}),
      },
    },
  })) as { status?: { allowed?: boolean } };
  return review.status?.allowed === true;
}

/** The verb taken away from `subject` last (every role holds the verbs of those before it). */
let before: Removal | undefined;

/**
 * Gives `subject` the roles of `command` less `removal`, and waits until the API server's authorizer says
 * so: the removed verb refused, the one taken away before allowed again.
 */
async function bindSubjectWithout(command: RbacCommand, removal: Removal): Promise<void> {
  const restored = before;
  const rules = rulesOf(permissionsOf(command)).flatMap((rule) => {
    const same = rule.group === removal.rule.group && rule.resource === removal.rule.resource;
    if (!same || rule.scope !== removal.rule.scope) return [rule];
    const verbs = rule.verbs.filter((v) => v !== removal.verb);
    return verbs.length > 0 ? [{ ...rule, verbs }] : [];
  });
  // Applied in-process (server-side apply: created the first time, its rules replaced after), not by a
  // `kubectl apply` per removal, a process of a second or two on a loaded machine.
  const api = await labApi();
  for (const [name, scope] of [
    [`${NS}-subject`, 'cluster'],
    [`${NS}-subject-state`, 'state'],
  ] as const) {
    const role: unknown = parse(
      clusterRoleYaml(
        name,
        rules.filter((r) => r.scope === scope),
      ),
    );
    const url = `/apis/rbac.authorization.k8s.io/v1/clusterroles/${name}?fieldManager=e2e&force=true`;
    await api.must('PATCH', url, role, 'application/apply-patch+yaml');
  }
  await eventually(
    async () => !(await allowed(removal)) && (restored === undefined || (await allowed(restored))),
    30_000,
    `the authorizer to refuse ${canIArgs(removal).join(' ')}`,
  );
  before = removal;
}

/** Every verb of every rule of `command`, one removal each. */
function removalsOf(command: RbacCommand): Removal[] {
  return rulesOf(permissionsOf(command)).flatMap((rule) => rule.verbs.map((verb) => ({ rule, verb })));
}

/** The verbs `command` adds to the one it builds on (drain to plan, run to drain), one removal each. */
function ownRemovals(command: 'drain' | 'run'): Removal[] {
  const base = permissionsOf(command === 'drain' ? 'plan' : 'drain');
  const rules = rulesOf(permissionsOf(command));
  return (
    permissionsOf(command)
      // Best-effort rights leave the command working: run-policy.test.ts (nodes/status) and the node-events
      // tests show what it says without them.
      .filter((p) => !base.includes(p) && p.need === 'required')
      .flatMap((p) => {
        const rule = rules.find((r) => r.group === p.group && r.resource === p.resource && r.scope === p.scope)!;
        return p.verbs.map((verb) => ({ rule, verb }));
      })
  );
}

/** `kubectl maint ARGS…` to the end, its output as is (a plan's pretty JSON is not event lines). */
async function maint(args: readonly string[], kubeconfig?: string) {
  const result = await (await startMaint(args, kubeconfig ? { kubeconfig } : {})).child;
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

const label = ({ rule, verb }: Removal) => `${verb} ${rule.resource}${rule.group ? `.${rule.group}` : ''}`;
const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');

let kubeconfigs: Record<'plan' | 'drain' | 'run' | 'subject', string>;

beforeAll(async () => {
  // The plan's loop needs pods with claims on the drained node: its storage kinds matter only to them.
  await seedScenario('volumes');
  await kubectl(['apply', '-f', '-'], { input: SETUP });
  for (const command of RBAC_COMMANDS) {
    const printed = await runMaint(['rbac', command]);
    expect(printed.exitCode, printed.stderr).toBe(0);
    await kubectl(['apply', '-f', '-'], { input: printed.stdout });
  }
  const entries = await Promise.all(
    (['plan', 'drain', 'run', 'subject'] as const).map(async (sa) => [sa, await serviceAccountKubeconfig(sa, NS)]),
  );
  kubeconfigs = Object.fromEntries(entries) as typeof kubeconfigs;
});

/** Kinds the plan says it could not read only on the pods they concern (snapshot/types.ts isScopedKindWarning). */
const SAID_ONLY_WHEN_NEEDED = new Set([
  'namespaces',
  'priorityclasses',
  // The DRA kinds judge only pods with resource claims, and no drained pod here has one.
  'resourceclaims',
  'resourceclaimtemplates',
  'deviceclasses',
  'resourceslices',
]);

const PLAN_ARGS = ['plan', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json'];

describe('plan, as a ServiceAccount bound to kubectl-maint-plan', () => {
  it('reads all it needs: the same verdict as the admin, nothing unread, no warning, nothing written', async () => {
    const admin = await maint(PLAN_ARGS);
    const mark = await auditMark();
    const r = await maint(PLAN_ARGS, kubeconfigs.plan);

    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(admin.exitCode);
    const plan = JSON.parse(r.stdout) as Plan;
    expect(plan.verdict).toBe((JSON.parse(admin.stdout) as Plan).verdict);
    expect(plan.unread).toEqual([]);
    expect(plan.caveats.filter((c) => /cannot list|forbidden/.test(c))).toEqual([]);
    expect(await writesBy(mark, user('plan'))).toEqual([]);
  });

  it.each(removalsOf('plan').map((r) => [label(r), r] as const))(
    'without %s: one line says so, nothing written',
    async (_name, removal) => {
      await bindSubjectWithout('plan', removal);
      const mark = await auditMark();
      const r = await maint(PLAN_ARGS, kubeconfigs.subject);

      const forbidden = `forbidden: user "${SUBJECT}" cannot list ${label(removal).slice('list '.length)} at the cluster scope`;
      if (permissionsOf('plan').find((p) => p.resource === removal.rule.resource)?.need === 'required') {
        expect([r.exitCode, r.stdout, r.stderr]).toEqual([1, '', `error: ${forbidden}`]);
      } else {
        // One warning on stderr; for a kind only some pods need (the storage kinds), a caveat on those pods
        // instead (the JSON document also lists each warning among its caveats, as data).
        const plan = JSON.parse(r.stdout) as Plan;
        const warnings = lines(r.stderr);
        if (warnings.length > 0) {
          expect(warnings).toHaveLength(1);
          expect(warnings[0]).toContain(forbidden);
        } else if (SAID_ONLY_WHEN_NEEDED.has(removal.rule.resource)) {
          // Namespaces (a namespaceSelector) and PriorityClasses (a pod without spec.priority) judge only some
          // replacements: a caveat on those, and none here, where no drained pod is one of them.
          expect(plan.caveats.filter((c) => c.includes(forbidden)).length).toBeLessThanOrEqual(1);
        } else {
          expect(plan.caveats.filter((c) => c.includes(forbidden))).toHaveLength(1);
        }
      }
      expect(await writesBy(mark, SUBJECT)).toEqual([]);
    },
  );
});

describe('drain and run, as ServiceAccounts bound to their roles', () => {
  beforeAll(async () => {
    await seedScenario('hello');
  });

  it('drain: its role is enough to drain k8s-node-1; no write refused', async () => {
    const mark = await auditMark();
    const r: DrainRun = await runMaint(['drain', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json'], {
      kubeconfig: kubeconfigs.drain,
    });

    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.finished).toMatchObject({ result: 'drained', failed: [] });
    const writes = await writesBy(mark, user('drain'));
    // Refused by RBAC: none (a 409 is a guarded write that lost a race with the node's own updates, tried again).
    expect(writes.filter((w) => / 403$/.test(w))).toEqual([]);
    // Both hello pods evicted (and refused for their budget before, 429, until their replacements were Ready).
    expect(writes.filter((w) => /^create pods\/eviction demo\/\S+ 20\d$/.test(w))).toHaveLength(2);
    expect(writes).toContain('patch nodes k8s-node-1 200');

    // The role covers `kubectl maint uncordon` too, its Event on the node included.
    const uncordonMark = await auditMark();
    const uncordoned = await maint(['uncordon', 'k8s-node-1'], kubeconfigs.drain);
    expect([uncordoned.exitCode, uncordoned.stdout, uncordoned.stderr]).toEqual([0, 'node/k8s-node-1 uncordoned', '']);
    expect(await writesBy(uncordonMark, user('drain'))).toEqual([
      'patch nodes k8s-node-1 200',
      expect.stringMatching(/^create events default\/k8s-node-1\.[0-9a-f]+ 201$/),
    ]);
  });

  it('run: its roles are enough for a run over k8s-node-1, and to list the runs; no write refused', async () => {
    const mark = await auditMark();
    const r = await runMaint(['run', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json', '--', 'true'], {
      kubeconfig: kubeconfigs.run,
    });

    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/cannot|forbidden/);
    expect(await unschedulable('k8s-node-1')).toBe(false);
    const writes = await writesBy(mark, user('run'));
    // Refused by RBAC: none (a 409 is a guarded write that lost a race with the node's own updates, tried again).
    expect(writes.filter((w) => / 403$/.test(w))).toEqual([]);
    expect(writes.some((w) => w.startsWith(`create leases ${STATE_NS}/`))).toBe(true);
    expect(writes.some((w) => w.startsWith('patch nodes/status k8s-node-1'))).toBe(true);
    const runs = await maint(['runs', '-o', 'json'], kubeconfigs.run);
    expect(runs.exitCode, runs.stderr).toBe(0);
  });

  it("run: its identity may write the Leases of its own namespace, none of kube-system's (the control plane's)", async () => {
    const canI = async (...args: string[]) =>
      String((await kubectl(['auth', 'can-i', ...args, `--as=${user('run')}`], { reject: false })).stdout);
    // kube-controller-manager's and kube-scheduler's leader election: never the run's to touch.
    expect(await canI('update', 'leases/kube-controller-manager', '-n', 'kube-system')).toBe('no');
    expect(await canI('delete', 'leases/kube-scheduler', '-n', 'kube-system')).toBe('no');
    expect(await canI('create', 'leases', '-n', 'kube-system')).toBe('no');
    expect(await canI('update', 'leases', '-n', STATE_NS)).toBe('yes');
    expect(await canI('delete', 'leases', '-n', STATE_NS)).toBe('yes');
  });

  it('run: a state namespace that does not exist is one line, and nothing is written', async () => {
    const mark = await auditMark();
    const r = await maint(
      ['run', 'k8s-node-1', '--ignore-daemonsets', '--state-namespace', 'no-such-state', '--', 'true'],
      kubeconfigs.run,
    );
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(
      `error: namespace "no-such-state" for the runs' state does not exist: create it (kubectl create namespace no-such-state; kubectl maint rbac run prints it with the roles), or name another with --state-namespace; nothing was changed`,
    );
    expect(await writesBy(mark, user('run'))).toEqual([]);
  });

  it("runs show: a paused run's timeline, one row per node, its phases in order; as text at 80 columns and JSON", async () => {
    const paused = await runMaint(['run', 'k8s-node-1', '--ignore-daemonsets', '--pause', '-o', 'json'], {
      kubeconfig: kubeconfigs.run,
    });
    expect(paused.exitCode, paused.stderr).toBe(0);
    const runId = String((paused.events.at(-1) as unknown as { runId?: string }).runId);
    const shown = await maint(['runs', 'show', runId, '-o', 'json'], kubeconfigs.run);
    expect(shown.exitCode, shown.stderr).toBe(0);
    const timeline = JSON.parse(shown.stdout) as RunTimeline;
    expect(timeline).toMatchObject({ kind: 'RunTimeline', id: runId, state: 'stopped' });
    expect(timeline.nodes.map((n) => [n.node, n.batch, n.phase])).toEqual([['k8s-node-1', 1, 'drained']]);
    expect(timeline.nodes[0]!.steps.map((s) => s.phase)).toEqual(['pending', 'draining', 'drained']);
    const times = timeline.nodes[0]!.steps.map((s) => Date.parse(s.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);

    const text = await maint(['runs', 'show', runId], kubeconfigs.run);
    expect(text.exitCode, text.stderr).toBe(0);
    const rows = lines(text.stdout);
    expect(rows[0]).toMatch(new RegExp(`^run ${runId}: stopped, \\d+\\S* recorded$`));
    expect(rows.every((row) => row.length <= 80)).toBe(true);
    expect(rows.find((row) => row.startsWith('k8s-node-1'))).toMatch(/^k8s-node-1 +1 +[.dD]*D +drained$/);

    const missing = await maint(['runs', 'show', '20000101-000000-0000'], kubeconfigs.run);
    expect([missing.exitCode, lines(missing.stderr).length]).toEqual([1, 1]);
    const abandoned = await runMaint(['run', '--abandon', runId], { kubeconfig: kubeconfigs.run });
    expect(abandoned.exitCode, abandoned.stderr).toBe(0);
    await kubectl(['uncordon', 'k8s-node-1']);
  });

  const cases = (command: 'drain' | 'run') => ownRemovals(command).map((r) => [label(r), r] as const);
  const commandLine = {
    drain: ['drain', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json'],
    run: ['run', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json', '--', 'true'],
  };

  describe.each(['drain', 'run'] as const)('%s without one of its own rules', (command) => {
    it.each(cases(command))('without %s: one line says so, nothing written', async (_name, removal) => {
      await bindSubjectWithout(command, removal);
      const mark = await auditMark();
      const r = await runMaint(commandLine[command], { kubeconfig: kubeconfigs.subject });

      expect(r.exitCode).toBe(1);
      expect(r.stdout).toBe('');
      const [resource, subresource] = removal.rule.resource.split('/');
      const what = `${resource}${subresource ? `/${subresource}` : ''}${removal.rule.group ? `.${removal.rule.group}` : ''}`;
      const where = removal.rule.scope === 'state' ? ` in namespace "${STATE_NS}"` : '';
      expect(lines(r.stderr)).toEqual([
        expect.stringMatching(
          new RegExp(
            `^error: cannot ${removal.verb} ${what.replaceAll('.', '\\.')}${where} \\(.+\\): nothing was changed$`,
          ),
        ),
      ]);
      expect(await writesBy(mark, SUBJECT)).toEqual([]);
    });
  });
});
