import { DEFAULT_STATE_NAMESPACE } from './defaults.js';
import { rulesOf, permissionsOf, type RbacCommand, type RbacOption, type RbacRule } from './permissions.js';

/**
 * The ClusterRoles of a command as YAML (`kubectl maint rbac`, and deploy/rbac/ in the release): one rule
 * per resource, each with a comment saying what the command does with it. A run's Leases are in a role of
 * their own, to be bound in the state namespace only, which is printed with it.
 */

const VERB_ORDER = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];

export function clusterRoleName(command: RbacCommand, scope: RbacRule['scope'] = 'cluster'): string {
  return scope === 'state' ? `kubectl-maint-${command}-state` : `kubectl-maint-${command}`;
}

const DESCRIPTION: Readonly<Record<RbacCommand, string>> = {
  plan: '`kubectl maint plan` and `kubectl maint audit` (read only)',
  drain: '`kubectl maint drain` (and cordon, uncordon, plan, audit)',
  run: '`kubectl maint run` (and runs, run --resume, run --abandon, drain, cordon, uncordon, plan, audit)',
};

const EXTRA: Readonly<Record<RbacOption, string>> = {
  surge: '--surge',
  delete: '--disable-eviction and --escalate-after',
  'ask-server': '--ask-server',
};

/** The YAML documents, `---` between them, of the roles of `command` with the rules the `options` add. */
export function clusterRolesYaml(command: RbacCommand, options: readonly RbacOption[] = []): string {
  const rules = rulesOf(permissionsOf(command, options));
  const clusterRules = rules.filter((r) => r.scope === 'cluster');
  const stateRules = rules.filter((r) => r.scope === 'state');
  const name = clusterRoleName(command);
  const withOptions = options.length > 0 ? `, with ${options.map((o) => EXTRA[o]).join(', ')}` : '';
  const head = [
    `# What ${DESCRIPTION[command]} needs${withOptions}. Bind it with:`,
    `#   kubectl create clusterrolebinding ${name} --clusterrole=${name} --user=NAME`,
  ];
  const documents = [clusterRoleYaml(name, clusterRules, head)];
  if (stateRules.length > 0) {
    const state = clusterRoleName(command, 'state');
    documents.push(
      [
        `# The runs' state: their Leases, in a namespace of their own (--state-namespace, ${DEFAULT_STATE_NAMESPACE}`,
        '# unless told), made here by whoever grants these roles: a run does not create it, and its user may',
        "# write no Lease of kube-system (the control plane's leader election).",
        'apiVersion: v1',
        'kind: Namespace',
        'metadata:',
        `  name: ${DEFAULT_STATE_NAMESPACE}`,
        '  labels:',
        '    app.kubernetes.io/name: kubectl-maint',
        '',
      ].join('\n'),
      clusterRoleYaml(state, stateRules, [
        "# The runs' Leases, only in their namespace. Bind it there:",
        `#   kubectl create rolebinding ${state} --namespace=${DEFAULT_STATE_NAMESPACE} --clusterrole=${state} --user=NAME`,
      ]),
    );
  }
  return documents.join('---\n');
}

/** Verbs in the order kubectl and the API documentation list them. */
function ordered(verbs: readonly string[]): string[] {
  return [...verbs].sort((a, b) => VERB_ORDER.indexOf(a) - VERB_ORDER.indexOf(b));
}

/** One ClusterRole as YAML, its comments first. */
export function clusterRoleYaml(name: string, rules: readonly RbacRule[], comments: readonly string[] = []): string {
  const lines = [
    ...comments,
    'apiVersion: rbac.authorization.k8s.io/v1',
    'kind: ClusterRole',
    'metadata:',
    `  name: ${name}`,
    '  labels:',
    '    app.kubernetes.io/name: kubectl-maint',
    rules.length > 0 ? 'rules:' : 'rules: []',
  ];
  for (const rule of rules) {
    lines.push(
      `  # ${rule.resource}`,
      ...rule.uses.map((use) => `  #   ${ordered(use.verbs).join(', ')}: ${use.why}`),
      `  - apiGroups: ["${rule.group}"]`,
      `    resources: [${rule.resource}]`,
      `    verbs: [${ordered(rule.verbs).join(', ')}]`,
    );
  }
  return `${lines.join('\n')}\n`;
}
