import type { AccessCheck } from './run-api.js';

/**
 * What each command asks of the API server, as RBAC rules: the one source of the ClusterRoles `kubectl maint
 * rbac` prints and the release ships (deploy/rbac/), and of the access checks drain and run make before
 * their first write. A call added to kube/ without its rule here fails the e2e test that runs each command
 * as a ServiceAccount bound to exactly its role.
 */

export type RbacCommand = 'plan' | 'drain' | 'run';
export const RBAC_COMMANDS: readonly RbacCommand[] = ['plan', 'drain', 'run'];

/** Flags that need more than the role: their rules are added only when asked for (`rbac drain --surge`). */
export type RbacOption = 'surge' | 'delete' | 'ask-server';

/**
 * How the command fares without the permission. `required`: it stops before writing anything (a read it
 * cannot do, or an access check before the first write). `plan`: the plan says what it could not check
 * and the command goes on. `best-effort`: the command does its work without it and says what it left out.
 */
export type PermissionNeed = 'required' | 'plan' | 'best-effort';

export interface Permission {
  /** The API group; '' for the core group. */
  readonly group: string;
  /** The resource as RBAC names it, a subresource after a slash: `pods/eviction`. */
  readonly resource: string;
  readonly verbs: readonly string[];
  /** What the command does with it, said in the role's comment and in a refusal. */
  readonly why: string;
  readonly need: PermissionNeed;
  /** `state`: only in the namespace of the runs' Leases (--state-namespace), granted by a RoleBinding there. */
  readonly scope: 'cluster' | 'state';
  /** Needed only with this flag. */
  readonly option?: RbacOption;
}

const list = (group: string, resource: string, need: PermissionNeed = 'plan'): Permission => ({
  group,
  resource,
  verbs: ['list'],
  why:
    need === 'required'
      ? 'the plan reads them all'
      : 'the plan reads them all; without them it says what it could not check',
  need,
  scope: 'cluster',
});

/** What every live plan lists (snapshot/load-live.ts): nodes and pods are required, the rest sharpen it. */
const PLAN: readonly Permission[] = [
  list('', 'nodes', 'required'),
  list('', 'pods', 'required'),
  list('policy', 'poddisruptionbudgets'),
  list('apps', 'replicasets'),
  list('apps', 'deployments'),
  list('apps', 'statefulsets'),
  list('apps', 'daemonsets'),
  list('', 'replicationcontrollers'),
  list('batch', 'jobs'),
  list('', 'services'),
  list('', 'persistentvolumeclaims'),
  list('', 'persistentvolumes'),
  list('storage.k8s.io', 'storageclasses'),
  list('storage.k8s.io', 'csinodes'),
  list('storage.k8s.io', 'csidrivers'),
  list('storage.k8s.io', 'csistoragecapacities'),
  list('', 'namespaces'),
  list('scheduling.k8s.io', 'priorityclasses'),
  list('resource.k8s.io', 'resourceclaims'),
  list('resource.k8s.io', 'resourceclaimtemplates'),
  list('resource.k8s.io', 'deviceclasses'),
  list('resource.k8s.io', 'resourceslices'),
  { ...list('autoscaling', 'horizontalpodautoscalers'), option: 'surge' },
  list('admissionregistration.k8s.io', 'validatingadmissionpolicies'),
  list('admissionregistration.k8s.io', 'validatingadmissionpolicybindings'),
  list('admissionregistration.k8s.io', 'validatingwebhookconfigurations'),
  list('admissionregistration.k8s.io', 'mutatingwebhookconfigurations'),
  {
    group: '',
    resource: 'pods/eviction',
    verbs: ['create'],
    why: 'plan --ask-server: each eviction sent as a dry run (dryRun=All: the API server writes nothing)',
    need: 'required',
    scope: 'cluster',
    option: 'ask-server',
  },
];

const cluster = (
  group: string,
  resource: string,
  verbs: readonly string[],
  why: string,
  need: PermissionNeed = 'required',
  option?: RbacOption,
): Permission => ({ group, resource, verbs, why, need, scope: 'cluster', ...(option ? { option } : {}) });

/** What a drain adds to the plan's reads (kube/drain-api.ts, drain/drain-mark.ts). */
const DRAIN: readonly Permission[] = [
  cluster('', 'nodes', ['get', 'patch'], 'cordon and uncordon, and mark the nodes a drain works on'),
  cluster('', 'pods', ['get', 'watch'], "follow the drained nodes' pods until they are gone"),
  cluster('', 'pods/eviction', ['create'], 'evict through the Eviction API, which honours budgets'),
  cluster(
    'policy',
    'poddisruptionbudgets',
    ['list', 'watch'],
    'retry an eviction as soon as its budget allows, and name the budgets that refuse it',
  ),
  cluster(
    'events.k8s.io',
    'events',
    ['create', 'patch'],
    'the trail on the nodes (Events in namespace default, kubectl describe node); without it, one warning',
    'best-effort',
  ),
  cluster('', 'pods', ['delete'], 'delete pods: --disable-eviction, --escalate-after', 'required', 'delete'),
  cluster(
    'apps',
    'deployments',
    ['get', 'watch', 'patch'],
    '--surge: scale a Deployment up and back',
    'required',
    'surge',
  ),
  cluster(
    'autoscaling',
    'horizontalpodautoscalers',
    ['patch'],
    "--surge: raise an autoscaler's bounds and return them",
    'required',
    'surge',
  ),
];

/**
 * A run plans each batch from what it read once, kept current by watches (kube/cluster-cache.ts): a kind it
 * may list but not watch is listed again before each plan, the load a big pool must not put on the API
 * server. The plan's own role needs no watch (it reads with LISTs; a streaming list refused falls back to one).
 */
const FOLLOWED_BY_RUN: readonly Permission[] = PLAN.filter((p) => p.option === undefined).map((p) => ({
  ...p,
  verbs: ['watch'],
  why: 'follow what the plan read, so that each batch plans without listing again; without it, a LIST per plan',
  need: 'best-effort',
}));

/** What a run adds to a drain's (kube/run-api.ts): its state in Leases, the nodes and budgets it waits for. */
const RUN: readonly Permission[] = [
  ...FOLLOWED_BY_RUN,
  {
    group: 'coordination.k8s.io',
    resource: 'leases',
    verbs: ['create', 'get', 'list', 'watch', 'update', 'delete'],
    why: "the run's state, kept in a Lease",
    need: 'required',
    scope: 'state',
  },
  cluster('', 'nodes', ['watch'], 'wait for a node to come back, and notice as soon as it does'),
  cluster('policy', 'poddisruptionbudgets', ['get'], "wait for a batch's budgets to be back before the next"),
  cluster(
    '',
    'nodes/status',
    ['patch'],
    'the node lifecycle conditions of each phase; without it the phases are only in the node annotations',
    'best-effort',
  ),
];

/** The permissions of a command, with those of the flags in `options`: one entry per use, unmerged. */
export function permissionsOf(command: RbacCommand, options: readonly RbacOption[] = []): Permission[] {
  // A run's own needs come before the drain's: its Lease is the first thing it writes, so the first refusal.
  const parts = command === 'plan' ? [PLAN] : command === 'drain' ? [PLAN, DRAIN] : [PLAN, RUN, DRAIN];
  return parts.flat().filter((p) => p.option === undefined || options.includes(p.option));
}

/** An RBAC rule: the permissions of one resource (and scope) merged, their reasons kept in order. */
export interface RbacRule {
  readonly group: string;
  readonly resource: string;
  readonly verbs: readonly string[];
  readonly scope: Permission['scope'];
  /** Which verbs are for what, in the order the command needs them. */
  readonly uses: ReadonlyArray<{ readonly verbs: readonly string[]; readonly why: string }>;
}

/** The rules of a role, one per resource, in the order the command first needs each. */
export function rulesOf(permissions: readonly Permission[]): RbacRule[] {
  const rules: RbacRule[] = [];
  for (const p of permissions) {
    const i = rules.findIndex((r) => r.group === p.group && r.resource === p.resource && r.scope === p.scope);
    const same = rules[i];
    const use = { verbs: p.verbs, why: p.why };
    if (!same) rules.push({ group: p.group, resource: p.resource, verbs: p.verbs, scope: p.scope, uses: [use] });
    else {
      rules[i] = {
        ...same,
        verbs: [...same.verbs, ...p.verbs.filter((v) => !same.verbs.includes(v))],
        uses: [...same.uses, use],
      };
    }
  }
  return rules;
}

/**
 * The checks to make before the first write: every verb of every required permission but the plan's
 * lists, which its read tries itself (a forbidden required one stops the read, any other is a caveat of
 * the plan). `stateNamespace` places the state-scoped ones.
 */
export function accessChecks(
  permissions: readonly Permission[],
  stateNamespace: string,
): Array<AccessCheck & { readonly why: string }> {
  return permissions
    .filter((p) => p.need === 'required' && !PLAN.includes(p))
    .flatMap((p) => {
      const [resource = p.resource, subresource] = p.resource.split('/');
      return p.verbs.map((verb) => ({
        verb,
        resource,
        ...(p.group ? { group: p.group } : {}),
        ...(subresource ? { subresource } : {}),
        ...(p.scope === 'state' ? { namespace: stateNamespace } : {}),
        why: p.why,
      }));
    });
}

/** One line for a refused check: what may not be done, where, and what for. */
export function refusedAccessLine(check: AccessCheck & { readonly why: string }): string {
  const resource = `${check.resource}${check.subresource ? `/${check.subresource}` : ''}`;
  const group = check.group ? `.${check.group}` : '';
  const where = check.namespace ? ` in namespace "${check.namespace}"` : '';
  return `cannot ${check.verb} ${resource}${group}${where} (${check.why})`;
}
