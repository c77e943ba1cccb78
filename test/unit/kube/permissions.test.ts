import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { firstRefusal, rbacOptionsOf } from '../../../src/drain/access.js';
import { clusterRolesYaml } from '../../../src/kube/cluster-roles.js';
import { accessChecks, permissionsOf, RBAC_COMMANDS, rulesOf } from '../../../src/kube/permissions.js';
import { resourceOf } from '../../../src/kube/kinds.js';
import type { AccessCheck } from '../../../src/kube/run-api.js';
import { ON_DEMAND_KINDS, SNAPSHOT_KINDS } from '../../../src/snapshot/types.js';
import { runCli } from '../cli/cli-from-source.js';

const root = path.resolve(import.meta.dirname, '../../..');
const shipped = (command: string) => readFileSync(path.join(root, 'deploy/rbac', `${command}.yaml`), 'utf8');

interface ClusterRole {
  kind: string;
  metadata: { name: string };
  rules: Array<{ apiGroups: string[]; resources: string[]; verbs: string[] }>;
}
const rolesIn = (text: string) => text.split(/^---\n/m).map((document) => parse(document) as ClusterRole);

/** "verb resource.group" for every right a role grants. */
const grants = (role: ClusterRole) =>
  role.rules.flatMap((r) =>
    r.verbs.flatMap((v) => r.resources.map((res) => `${v} ${res}${r.apiGroups[0] ? `.${r.apiGroups[0]}` : ''}`)),
  );

describe('the ClusterRoles of plan, drain and run', () => {
  it.each(RBAC_COMMANDS)(
    'deploy/rbac/%s.yaml is what `kubectl maint rbac` prints (regenerate: rbac CMD > the file)',
    async (command) => {
      const printed = await runCli(['rbac', command]);
      expect(printed.exitCode, printed.stderr).toBe(0);
      // execa drops the output's last newline.
      expect(`${printed.stdout}\n`).toBe(clusterRolesYaml(command));
      expect(shipped(command), `deploy/rbac/${command}.yaml is stale`).toBe(clusterRolesYaml(command));
    },
  );

  it("audit needs what plan needs: `rbac audit` prints plan's roles", async () => {
    const printed = await runCli(['rbac', 'audit']);
    expect(printed.exitCode, printed.stderr).toBe(0);
    expect(`${printed.stdout}\n`).toBe(clusterRolesYaml('plan'));
    expect(printed.stdout).toContain('`kubectl maint audit`');
  });

  it('plan lists every kind a live read lists, and nothing else (its role is read only)', () => {
    const kinds = SNAPSHOT_KINDS.filter((k) => !ON_DEMAND_KINDS.includes(k));
    const [role] = rolesIn(clusterRolesYaml('plan'));
    expect(role!.metadata.name).toBe('kubectl-maint-plan');
    expect(grants(role!).sort()).toEqual(kinds.map((k) => `list ${resourceOf(k)}`).sort());
    // --surge reads the autoscalers too.
    const [surge] = rolesIn(clusterRolesYaml('plan', ['surge']));
    expect(grants(surge!)).toContain(`list ${resourceOf('HorizontalPodAutoscaler')}`);
  });

  it('plan --ask-server adds create pods/eviction, printed with the flag only', async () => {
    const printed = await runCli(['rbac', 'plan', '--ask-server']);
    expect(printed.exitCode, printed.stderr).toBe(0);
    const [role] = rolesIn(printed.stdout);
    expect(grants(role!)).toContain('create pods/eviction');
    expect(printed.stdout).toContain('with --ask-server');
    expect(grants(rolesIn(clusterRolesYaml('plan'))[0]!)).not.toContain('create pods/eviction');
  });

  it('drain adds the cordon, the evictions and the watches; delete pods only with --disable-eviction', () => {
    const [role] = rolesIn(clusterRolesYaml('drain'));
    const added = grants(role!).filter((g) => !g.startsWith('list '));
    expect(added.sort()).toEqual(
      [
        'get nodes',
        'patch nodes',
        'get pods',
        'watch pods',
        'create pods/eviction',
        'watch poddisruptionbudgets.policy',
        'create events.events.k8s.io',
        'patch events.events.k8s.io',
      ].sort(),
    );
    const [deleting] = rolesIn(clusterRolesYaml('drain', ['delete']));
    expect(grants(deleting!)).toContain('delete pods');
    expect(grants(role!)).not.toContain('delete pods');
  });

  it("run's Leases are in a role of their own, to bind in the state namespace only", () => {
    const documents = rolesIn(clusterRolesYaml('run'));
    // The namespace of the runs' state comes with them: a run does not create it.
    expect(documents.filter((d) => d.kind === 'Namespace').map((d) => d.metadata.name)).toEqual(['kubectl-maint']);
    const roles = documents.filter((d) => d.kind === 'ClusterRole');
    expect(roles.map((r) => r.metadata.name)).toEqual(['kubectl-maint-run', 'kubectl-maint-run-state']);
    expect(grants(roles[1]!).sort()).toEqual(
      ['create', 'delete', 'get', 'list', 'update', 'watch'].map((v) => `${v} leases.coordination.k8s.io`),
    );
    expect(grants(roles[0]!).some((g) => g.includes('leases'))).toBe(false);
    expect(grants(roles[0]!)).toEqual(
      expect.arrayContaining(['watch nodes', 'patch nodes/status', 'get poddisruptionbudgets.policy']),
    );
  });

  it('one rule per resource, each verb once', () => {
    for (const command of RBAC_COMMANDS) {
      const rules = rulesOf(permissionsOf(command, ['surge', 'delete']));
      const keys = rules.map((r) => `${r.scope} ${r.group}/${r.resource}`);
      expect(new Set(keys).size).toBe(keys.length);
      for (const rule of rules) expect(new Set(rule.verbs).size).toBe(rule.verbs.length);
    }
  });
});

describe('the access checks before the first write', () => {
  const refusing = (refused: (check: AccessCheck) => boolean) => ({
    canI: async (check: AccessCheck) => !refused(check),
  });

  it("a run checks its Lease first, in the state namespace, then the drain's writes; never the plan's lists", () => {
    const checks = accessChecks(permissionsOf('run'), 'maint-state');
    expect(checks[0]).toMatchObject({
      verb: 'create',
      resource: 'leases',
      group: 'coordination.k8s.io',
      namespace: 'maint-state',
    });
    expect(
      checks
        .filter((c) => c.verb === 'list')
        .map((c) => c.resource)
        .sort(),
    ).toEqual(['leases', 'poddisruptionbudgets']);
    expect(checks).toContainEqual(
      expect.objectContaining({ verb: 'create', resource: 'pods', subresource: 'eviction' }),
    );
    // Best effort: the run goes on without the lifecycle conditions.
    expect(checks.some((c) => c.subresource === 'status')).toBe(false);
  });

  it('the first refusal is one line naming the verb, the resource and what it is for', async () => {
    const line = await firstRefusal(
      refusing((c) => c.subresource === 'eviction'),
      'drain',
      [],
      '',
    );
    expect(line).toBe('cannot create pods/eviction (evict through the Eviction API, which honours budgets)');
    expect(
      await firstRefusal(
        refusing(() => true),
        'run',
        [],
        'kube-system',
      ),
    ).toBe(`cannot create leases.coordination.k8s.io in namespace "kube-system" (the run's state, kept in a Lease)`);
    expect(
      await firstRefusal(
        refusing(() => true),
        'plan',
        [],
        '',
      ),
    ).toBeNull();
  });

  it('--disable-eviction and --escalate-after need delete pods; --surge the Deployments and autoscalers', async () => {
    expect(rbacOptionsOf({ disableEviction: true })).toEqual(['delete']);
    expect(rbacOptionsOf({ disableEviction: false, escalation: { afterSeconds: 30, namespaces: ['batch'] } })).toEqual([
      'delete',
    ]);
    expect(rbacOptionsOf({ disableEviction: false, surge: { all: true, deployments: [] } })).toEqual(['surge']);
    expect(rbacOptionsOf({ disableEviction: false })).toEqual([]);
    const noDelete = refusing((c) => c.verb === 'delete' && c.resource === 'pods');
    expect(await firstRefusal(noDelete, 'drain', [], '')).toBeNull();
    expect(await firstRefusal(noDelete, 'drain', ['delete'], '')).toMatch(/^cannot delete pods /);
    const noPatchDeployments = refusing((c) => c.verb === 'patch' && c.resource === 'deployments');
    expect(await firstRefusal(noPatchDeployments, 'drain', ['surge'], '')).toMatch(/^cannot patch deployments\.apps /);
  });
});
