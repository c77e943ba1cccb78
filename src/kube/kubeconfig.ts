import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { KubeError, type KubeTargetInfo } from './errors.js';
import { loadKubeconfigYaml } from './kubeconfig-yaml.js';
import type { ExecConfig } from './exec-credential.js';
import { chooseProxy, type ProxyEnv } from './proxy.js';
import type { ConnectionSettings, Impersonation, Material } from './transport.js';

// The kubeconfig read without the Kubernetes client: `cordon`, `uncordon` and completion reach the API
// over kube/transport.ts alone, and loading @kubernetes/client-node (its KubeConfig alone bundles to
// 1.9 MB) was most of their start-up. kube/config.ts builds client-node's KubeConfig from the result for
// the commands that use the typed APIs and watches.

/** The kubectl flags that choose and adjust the kubeconfig (cli-runtime's ConfigFlags, the subset we honour). */
export interface KubeConfigFlags {
  /** --kubeconfig: one explicit file that replaces KUBECONFIG and ~/.kube/config. */
  readonly kubeconfig?: string | undefined;
  /** --context: replaces current-context. */
  readonly context?: string | undefined;
  /** --cluster / --user: override the selected context's cluster and user. */
  readonly cluster?: string | undefined;
  readonly user?: string | undefined;
  /** -n/--namespace: overrides the context's namespace. */
  readonly namespace?: string | undefined;
  /** --insecure-skip-tls-verify: the only way we ever turn certificate checks off (besides the kubeconfig's own field). */
  readonly insecureSkipTlsVerify?: boolean | undefined;
  /** --request-timeout in milliseconds; 0 or absent = no timeout, as in kubectl. */
  readonly requestTimeoutMs?: number | undefined;
  /** -s/--server: the API server's address, over the cluster's. */
  readonly server?: string | undefined;
  /** --tls-server-name: the name to verify the server certificate against. */
  readonly tlsServerName?: string | undefined;
  /** --certificate-authority: a CA file, over the cluster's CA (and its insecure-skip-tls-verify). */
  readonly certificateAuthority?: string | undefined;
  /** --token: a bearer token, over the user's token and tokenFile. */
  readonly token?: string | undefined;
  /** --client-certificate / --client-key: files, over the user's. */
  readonly clientCertificate?: string | undefined;
  readonly clientKey?: string | undefined;
  /** --as, --as-group (repeatable), --as-uid: impersonation, over the user's `as` fields. */
  readonly as?: string | undefined;
  readonly asGroups?: readonly string[] | undefined;
  readonly asUid?: string | undefined;
}

/** A kubeconfig cluster, in the shape client-node's KubeConfig takes (paths already absolute). */
export interface Cluster {
  readonly name: string;
  readonly server: string;
  readonly caData?: string | undefined;
  readonly caFile?: string | undefined;
  readonly tlsServerName?: string | undefined;
  readonly skipTLSVerify: boolean;
  readonly proxyUrl?: string | undefined;
}

/**
 * A user's `exec` as the kubeconfig holds it (client-go's clientcmd/api/v1 ExecConfig), not yet checked:
 * client-node types it `any` and passes it on as read; `execConfig` below checks each field.
 */
export interface KubeconfigExec {
  readonly command?: unknown;
  readonly args?: unknown;
  readonly env?: unknown;
  readonly apiVersion?: unknown;
  readonly installHint?: unknown;
  readonly provideClusterInfo?: unknown;
  readonly interactiveMode?: unknown;
}

/** A user's `auth-provider` (client-go's AuthProviderConfig): a plugin's name and its string settings. */
export interface KubeconfigAuthProvider {
  readonly name?: unknown;
  readonly config?: Readonly<Record<string, unknown>> | null;
}

/** A kubeconfig user, in the shape client-node's KubeConfig takes (null where client-node puts null). */
export interface User {
  readonly name: string;
  readonly certData?: string | null | undefined;
  readonly certFile?: string | null | undefined;
  readonly keyData?: string | null | undefined;
  readonly keyFile?: string | null | undefined;
  readonly exec?: KubeconfigExec | null | undefined;
  readonly authProvider?: KubeconfigAuthProvider | null | undefined;
  readonly token?: string | undefined;
  readonly username?: string | null | undefined;
  readonly password?: string | null | undefined;
  readonly impersonateUser?: string | null | undefined;
}

export interface Context {
  readonly name: string;
  readonly cluster: string;
  readonly user?: string | undefined;
  readonly namespace?: string | undefined;
}

/**
 * A loaded kubeconfig with the context chosen and the overrides applied: how to reach the API server, and
 * the chosen cluster, user and context as one single-context kubeconfig (for client-node, kube/config.ts).
 */
export interface KubeConnectionTarget extends KubeTargetInfo {
  readonly cluster: string;
  readonly namespace: string;
  /** The files the configuration came from (empty for in-cluster). */
  readonly files: readonly string[];
  /** How to reach the server as this user, after kubectl's precedence of flags over the kubeconfig. */
  readonly connection: ConnectionSettings;
  /** The effective cluster, user and context: a kubeconfig of one context, for client-node. */
  readonly effective: { readonly cluster: Cluster; readonly user: User; readonly context: Context };
}

/** kubectl's user fields that client-node's KubeConfig drops (clientcmd/api/v1 AuthInfo). */
interface UserExtras {
  readonly tokenFile?: string;
  readonly asGroups?: readonly string[];
  readonly asUid?: string;
  readonly asUserExtra?: Readonly<Record<string, readonly string[]>>;
}

/** A merged kubeconfig: its clusters, users and contexts by name, and the user fields client-node does not keep. */
interface MergedConfig {
  readonly clusters: ReadonlyMap<string, Cluster>;
  readonly users: ReadonlyMap<string, User>;
  readonly contexts: ReadonlyMap<string, Context>;
  readonly currentContext: string | undefined;
  readonly extras: ReadonlyMap<string, UserExtras>;
  readonly files: string[];
}

/** Where to look (and the proxy environment), injectable for tests; defaults to the process's own environment. */
export interface KubeConfigEnv extends ProxyEnv {
  readonly KUBECONFIG?: string | undefined;
  readonly HOME?: string | undefined;
  readonly KUBERNETES_SERVICE_HOST?: string | undefined;
  readonly KUBERNETES_SERVICE_PORT?: string | undefined;
}

const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
const SERVICE_ACCOUNT_TOKEN = `${SERVICE_ACCOUNT_DIR}/token`;
const NO_KUBECONFIG = 'no kubeconfig: set KUBECONFIG or --kubeconfig';

/**
 * Loads the kubeconfig the way kubectl does (client-go's ClientConfigLoadingRules):
 * - `--kubeconfig` alone when given (missing file = error);
 * - otherwise every file in KUBECONFIG, merged so that **the first file to set a value wins**
 *   (client-node's own merge throws "Duplicate cluster" and lets the last current-context win); files that
 *   do not exist are skipped, as kubectl skips them;
 * - otherwise ~/.kube/config; otherwise the in-cluster service account; otherwise a clear error (never
 *   client-node's silent fallback to http://localhost:8080).
 * Then `--context` picks the context and `--cluster`/`--user`/`--namespace` override its fields.
 */
export function loadKubeConnection(
  flags: KubeConfigFlags = {},
  env: KubeConfigEnv = process.env,
): KubeConnectionTarget {
  return selectContext(loadMergedConfig(flags, env), flags, env);
}

/** The names the kubeconfig defines (merged as kubectl merges), for completing --context, --cluster and --user. */
export function kubeconfigNames(
  flags: KubeConfigFlags = {},
  env: KubeConfigEnv = process.env,
): { readonly contexts: string[]; readonly clusters: string[]; readonly users: string[] } {
  const merged = loadMergedConfig(flags, env);
  return {
    contexts: [...merged.contexts.keys()],
    clusters: [...merged.clusters.keys()],
    users: [...merged.users.keys()],
  };
}

function loadMergedConfig(flags: KubeConfigFlags, env: KubeConfigEnv): MergedConfig {
  if (flags.kubeconfig) {
    if (!fs.existsSync(flags.kubeconfig)) {
      throw new KubeError('config', `cannot read kubeconfig "${flags.kubeconfig}" (--kubeconfig): no such file`);
    }
    return mergeFirstWins([flags.kubeconfig]);
  }
  const fromEnv = (env.KUBECONFIG ?? '').split(path.delimiter).filter((file) => file !== '');
  if (fromEnv.length > 0) {
    const existing = [...new Set(fromEnv)].filter((file) => fs.existsSync(file));
    if (existing.length === 0) {
      if (flags.server) return mergeFirstWins([]);
      throw new KubeError('config', `${NO_KUBECONFIG} (none of the files in KUBECONFIG exist: ${fromEnv.join(', ')})`);
    }
    return mergeFirstWins(existing);
  }
  // node:os only without HOME, and as a built-in (its ESM import costs a cordon's start-up more than this).
  const home = env.HOME || process.getBuiltinModule('node:os').homedir();
  const defaultFile = home ? path.join(home, '.kube', 'config') : '';
  if (defaultFile && fs.existsSync(defaultFile)) return mergeFirstWins([defaultFile]);
  // --server alone is enough for kubectl (with --token or client certificate flags): no file needed.
  if (flags.server) return mergeFirstWins([]);
  if (env.KUBERNETES_SERVICE_HOST && env.KUBERNETES_SERVICE_PORT && fs.existsSync(SERVICE_ACCOUNT_TOKEN)) {
    return inCluster(env.KUBERNETES_SERVICE_HOST, env.KUBERNETES_SERVICE_PORT);
  }
  throw new KubeError('config', NO_KUBECONFIG);
}

/**
 * kubectl's merge rule for several kubeconfig files: a cluster, user or context keeps the definition
 * from the first file that names it, and current-context comes from the first file that sets one.
 */
function mergeFirstWins(files: readonly string[]): MergedConfig {
  const clusters = new Map<string, Cluster>();
  const users = new Map<string, User>();
  const extras = new Map<string, UserExtras>();
  const contexts = new Map<string, Context>();
  let currentContext: string | undefined;
  for (const file of files) {
    const one = readKubeConfigFile(file);
    if (!one) continue;
    for (const c of one.clusters) if (!clusters.has(c.name)) clusters.set(c.name, c);
    for (const u of one.users) {
      if (users.has(u.name)) continue;
      users.set(u.name, u);
      extras.set(u.name, one.extras.get(u.name) ?? {});
    }
    for (const c of one.contexts) if (!contexts.has(c.name)) contexts.set(c.name, c);
    currentContext ||= one.currentContext || undefined;
  }
  return { clusters, users, contexts, currentContext, extras, files: [...files] };
}

interface KubeConfigFile {
  readonly clusters: Cluster[];
  readonly users: User[];
  readonly contexts: Context[];
  readonly currentContext: string | undefined;
  readonly extras: Map<string, UserExtras>;
}

/** One file; `undefined` when it is empty (kubectl treats an empty file as an empty config). */
function readKubeConfigFile(file: string): KubeConfigFile | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new KubeError(
      'config',
      `cannot read kubeconfig "${file}": ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
  if (text.trim() === '') return undefined;
  const dir = path.dirname(file);
  let doc: RawKubeConfig;
  try {
    doc = (loadKubeconfigYaml(text) ?? {}) as RawKubeConfig;
    return {
      // client-node's order, so that the first broken entry reported is the same.
      clusters: entries(doc.clusters, 'cluster', (name, raw, i) => clusterOf(name, raw, i, dir)),
      contexts: entries(doc.contexts, 'context', contextOf),
      users: entries(doc.users, 'user', (name, raw) => userOf(name, raw, dir), false),
      currentContext: typeof doc['current-context'] === 'string' ? doc['current-context'] : undefined,
      extras: readUserExtras(doc, dir),
    };
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    throw new KubeError('config', `cannot read kubeconfig "${file}": ${reason}`);
  }
}

type RawFields = Record<string, unknown>;

interface RawKubeConfig {
  readonly clusters?: unknown;
  readonly users?: unknown;
  readonly contexts?: unknown;
  readonly 'current-context'?: unknown;
}

/**
 * The named entries of one list (`clusters`, `users`, `contexts`), with client-node's checks and messages
 * (config_types.ts: "clusters[0].cluster is missing"): a list that is not a list is empty.
 */
function entries<T>(
  list: unknown,
  field: string,
  make: (name: string, raw: RawFields, index: number) => T,
  fieldRequired = true,
): T[] {
  if (!Array.isArray(list)) return [];
  return list.map((entry: unknown, i) => {
    const { name, [field]: raw } = (entry ?? {}) as RawFields;
    if (!name) throw new Error(`${field}s[${i}].name is missing`);
    if (fieldRequired && !raw) throw new Error(`${field}s[${i}].${field} is missing`);
    return make(String(name), (raw ?? {}) as RawFields, i);
  });
}

function clusterOf(name: string, raw: RawFields, index: number, dir: string): Cluster {
  if (!raw.server) throw new Error(`clusters[${index}].cluster.server is missing`);
  const caFile = raw['certificate-authority'] as string | undefined;
  return {
    name,
    server: String(raw.server).replace(/\/$/, ''),
    caData: raw['certificate-authority-data'] as string | undefined,
    caFile: caFile ? absolute(dir, caFile) : caFile,
    skipTLSVerify: raw['insecure-skip-tls-verify'] === true,
    tlsServerName: raw['tls-server-name'] as string | undefined,
    proxyUrl: raw['proxy-url'] as string | undefined,
  };
}

/** As client-node reads a user (config_types.ts), certificate and key paths made absolute as it makes them. */
function userOf(name: string, raw: RawFields, dir: string): User {
  const certFile = (raw['client-certificate'] as string | undefined) ?? null;
  const keyFile = (raw['client-key'] as string | undefined) ?? null;
  return {
    name,
    authProvider: (raw['auth-provider'] as KubeconfigAuthProvider | undefined) ?? null,
    certData: (raw['client-certificate-data'] as string | undefined) ?? null,
    certFile: certFile ? absolute(dir, certFile) : certFile,
    exec: (raw.exec as KubeconfigExec | undefined) ?? null,
    keyData: (raw['client-key-data'] as string | undefined) ?? null,
    keyFile: keyFile ? absolute(dir, keyFile) : keyFile,
    token: tokenOf(raw),
    password: (raw.password as string | undefined) ?? null,
    username: (raw.username as string | undefined) ?? null,
    impersonateUser: (raw.as as string | undefined) ?? null,
  };
}

/** client-node's token: `token`, else the file named by `token-file` read at once (kubectl's tokenFile is an extra). */
function tokenOf(raw: RawFields): string | undefined {
  if (raw.token) return raw.token as string;
  if (raw['token-file']) return fs.readFileSync(raw['token-file'] as string).toString();
  return undefined;
}

function contextOf(name: string, raw: RawFields, index: number): Context {
  if (!raw.cluster) throw new Error(`contexts[${index}].context.cluster is missing`);
  return {
    name,
    cluster: raw.cluster as string,
    user: (raw.user as string | undefined) || undefined,
    namespace: (raw.namespace as string | undefined) || undefined,
  };
}

function absolute(dir: string, file: string): string {
  return path.isAbsolute(file) ? file : path.join(dir, file);
}

/**
 * The service account's kubeconfig, as client-node's loadFromCluster builds it: https://HOST:PORT (http on
 * the ports 80, 8080 and 8001), the mounted CA, the token file through client-node's tokenFile
 * auth-provider (which reads it again as it rotates), and the mounted namespace.
 */
function inCluster(host: string, port: string): MergedConfig {
  const scheme = port === '80' || port === '8080' || port === '8001' ? 'http' : 'https';
  const server = `${scheme}://${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
  const namespaceFile = `${SERVICE_ACCOUNT_DIR}/namespace`;
  const namespace = fs.existsSync(namespaceFile) ? fs.readFileSync(namespaceFile, 'utf8') : undefined;
  const cluster: Cluster = { name: 'inCluster', server, caFile: `${SERVICE_ACCOUNT_DIR}/ca.crt`, skipTLSVerify: false };
  const user: User = {
    name: 'inClusterUser',
    authProvider: { name: 'tokenFile', config: { tokenFile: SERVICE_ACCOUNT_TOKEN } },
  };
  const context: Context = { name: 'inClusterContext', cluster: 'inCluster', user: 'inClusterUser', namespace };
  return {
    clusters: new Map([[cluster.name, cluster]]),
    users: new Map([[user.name, user]]),
    contexts: new Map([[context.name, context]]),
    currentContext: context.name,
    extras: new Map(),
    files: [],
  };
}

/** tokenFile (relative to the file, as client-go resolves it), as-groups, as-uid and as-user-extra per user. */
function readUserExtras(doc: RawKubeConfig, dir: string): Map<string, UserExtras> {
  const extras = new Map<string, UserExtras>();
  for (const entry of Array.isArray(doc.users) ? (doc.users as unknown[]) : []) {
    const { name, user } = (entry ?? {}) as { name?: unknown; user?: Record<string, unknown> | null };
    if (typeof name !== 'string' || !user || typeof user !== 'object') continue;
    const tokenFile = typeof user.tokenFile === 'string' && user.tokenFile !== '' ? user.tokenFile : undefined;
    const groups = Array.isArray(user['as-groups']) ? user['as-groups'].filter((g) => typeof g === 'string') : [];
    const extra = user['as-user-extra'] && typeof user['as-user-extra'] === 'object' ? user['as-user-extra'] : {};
    extras.set(name, {
      ...(tokenFile ? { tokenFile: path.isAbsolute(tokenFile) ? tokenFile : path.join(dir, tokenFile) } : {}),
      ...(groups.length > 0 ? { asGroups: groups as string[] } : {}),
      ...(typeof user['as-uid'] === 'string' && user['as-uid'] !== '' ? { asUid: user['as-uid'] } : {}),
      asUserExtra: Object.fromEntries(
        Object.entries(extra as Record<string, unknown>).map(([k, v]) => [
          k,
          Array.isArray(v) ? v.map(String) : [String(v)],
        ]),
      ),
    });
  }
  return extras;
}

/**
 * Applies --context, then --cluster/--user/--namespace, then the connection flags over the chosen
 * cluster and user, with client-go's precedence (clientcmd DirectClientConfig: getCluster, getAuthInfo,
 * ClientConfig; cli-runtime ConfigFlags: a flag's file replaces the kubeconfig's inline data).
 */
function selectContext(merged: MergedConfig, flags: KubeConfigFlags, env: ProxyEnv): KubeConnectionTarget {
  const { files } = merged;
  const where = files.length > 0 ? ` in ${files.map((f) => `"${f}"`).join(', ')}` : '';
  const contextName = flags.context || merged.currentContext || '';
  if (!contextName && !flags.server) {
    throw new KubeError('config', `no current context${where}: pass --context or run kubectl config use-context`);
  }
  const context = contextName ? merged.contexts.get(contextName) : undefined;
  if (contextName && !context) throw new KubeError('config', `context "${contextName}" not found${where}`);
  const ofContext = context ? ` of context "${contextName}"` : '';
  const clusterName = flags.cluster || context?.cluster || '';
  const userName = flags.user || context?.user || '';
  const cluster = clusterName ? merged.clusters.get(clusterName) : undefined;
  if (clusterName && !cluster) throw new KubeError('config', `cluster "${clusterName}"${ofContext} not found${where}`);
  const server = flags.server || cluster?.server;
  if (!server) throw new KubeError('config', `cluster "${clusterName}" has no server address${where}`);
  const user = userName ? merged.users.get(userName) : undefined;
  if (userName && !user) throw new KubeError('config', `user "${userName}"${ofContext} not found${where}`);

  const effectiveCluster = clusterOverrides(
    cluster ?? { name: clusterName || 'cluster', server, skipTLSVerify: false },
    flags,
    where,
  );
  const effectiveUser: User = user ?? { name: userName || 'user' };
  const connection = connectionSettings(
    effectiveCluster,
    effectiveUser,
    merged.extras.get(userName) ?? {},
    flags,
    contextName,
    env,
  );
  const effectiveContext: Context = {
    name: contextName || 'context',
    cluster: effectiveCluster.name,
    user: effectiveUser.name,
    ...(flags.namespace || context?.namespace ? { namespace: flags.namespace || context?.namespace } : {}),
  };
  const execRuns =
    connection.exec !== undefined &&
    !connection.token &&
    !connection.tokenFile &&
    !connection.basic &&
    !connection.clientCertificate;
  return {
    context: contextName,
    cluster: clusterName,
    user: userName,
    server: effectiveCluster.server,
    namespace: effectiveContext.namespace || 'default',
    requestTimeoutMs: flags.requestTimeoutMs ?? 0,
    execCommand: execRuns ? connection.exec?.command : undefined,
    proxy: connection.proxy,
    files,
    connection,
    effective: { cluster: effectiveCluster, user: effectiveUser, context: effectiveContext },
  };
}

/**
 * The cluster with the flags applied as client-go's getCluster applies overrides: --server replaces the
 * address (and then the kubeconfig's tls-server-name gives way to --tls-server-name, even empty);
 * --insecure-skip-tls-verify or --certificate-authority replace the CA and the insecure setting together.
 * A CA and insecure-skip-tls-verify both set is refused, as client-go's transport refuses it.
 */
function clusterOverrides(cluster: Cluster, flags: KubeConfigFlags, where: string): Cluster {
  let result: Cluster = { ...cluster, ...(flags.server ? { server: flags.server.replace(/\/$/, '') } : {}) };
  if (flags.tlsServerName || flags.server) {
    const { tlsServerName: _dropped, ...rest } = result;
    result = { ...rest, ...(flags.tlsServerName ? { tlsServerName: flags.tlsServerName } : {}) };
  }
  if (flags.insecureSkipTlsVerify || flags.certificateAuthority) {
    const { caData: _caData, caFile: _caFile, ...rest } = result;
    result = {
      ...rest,
      skipTLSVerify: flags.insecureSkipTlsVerify === true,
      ...(flags.certificateAuthority ? { caFile: flags.certificateAuthority } : {}),
    };
  }
  if (result.skipTLSVerify && (result.caData || result.caFile)) {
    const from = flags.certificateAuthority
      ? '--certificate-authority with --insecure-skip-tls-verify'
      : `cluster "${cluster.name}"${where} sets certificate-authority and insecure-skip-tls-verify`;
    throw new KubeError(
      'config',
      `specifying a root certificates file with the insecure flag is not allowed (${from})`,
    );
  }
  return result;
}

/** The user with the flags applied (client-go getAuthInfo, cli-runtime toRawKubeConfigLoader). */
function connectionSettings(
  cluster: Cluster,
  user: User,
  extras: UserExtras,
  flags: KubeConfigFlags,
  context: string,
  env: ProxyEnv,
): ConnectionSettings {
  const ofUser = `of user "${user.name}"`;
  const ofCluster = `of cluster "${cluster.name}"`;
  const ca = material(
    ['--certificate-authority', flags.certificateAuthority],
    [`certificate-authority-data ${ofCluster}`, cluster.caData],
    [`certificate-authority ${ofCluster}`, cluster.caFile],
  );
  const clientCertificate = material(
    ['--client-certificate', flags.clientCertificate],
    [`client-certificate-data ${ofUser}`, user.certData],
    [`client-certificate ${ofUser}`, user.certFile],
  );
  const clientKey = material(
    ['--client-key', flags.clientKey],
    [`client-key-data ${ofUser}`, user.keyData],
    [`client-key ${ofUser}`, user.keyFile],
  );
  const token = flags.token ?? (user.token || undefined);
  const tokenFile = flags.token === undefined ? extras.tokenFile : undefined;
  return {
    server: cluster.server,
    context,
    user: user.name,
    insecure: cluster.skipTLSVerify === true,
    tlsServerName: cluster.tlsServerName || undefined,
    ca,
    clientCertificate,
    clientKey,
    token,
    tokenFile,
    basic:
      user.username || user.password ? { username: user.username ?? '', password: user.password ?? '' } : undefined,
    exec: execConfig(user),
    authProvider: Boolean(user.authProvider) && !user.exec,
    impersonate: impersonation(user, extras, flags),
    proxy: chooseProxy(cluster.server, cluster, env),
    requestTimeoutMs: flags.requestTimeoutMs ?? 0,
  };
}

type Named = readonly [origin: string, value: string | undefined | null];

/** A flag's file over the kubeconfig's inline data over its file (cli-runtime clears the data when the flag is set). */
function material(flagFile: Named, data: Named, file: Named): Material | undefined {
  if (flagFile[1]) return { file: flagFile[1], origin: flagFile[0] };
  if (data[1]) return { data: data[1], origin: data[0] };
  if (file[1]) return { file: file[1], origin: file[0] };
  return undefined;
}

function impersonation(user: User, extras: UserExtras, flags: KubeConfigFlags): Impersonation | undefined {
  const name = flags.as || user.impersonateUser || '';
  const groups = flags.asGroups && flags.asGroups.length > 0 ? flags.asGroups : (extras.asGroups ?? []);
  const uid = flags.asUid || extras.asUid;
  const extra = extras.asUserExtra ?? {};
  if (!name) {
    if (groups.length > 0 || uid || Object.keys(extra).length > 0) {
      throw new KubeError(
        'config',
        `requesting uid, groups or user-extra for ${user.name} without impersonating a user (add --as)`,
      );
    }
    return undefined;
  }
  return { user: name, groups, uid, extra };
}

function execConfig(user: User): ExecConfig | undefined {
  const { exec } = user;
  if (!exec || typeof exec.command !== 'string') return undefined;
  const mode = exec.interactiveMode;
  return {
    command: exec.command,
    args: Array.isArray(exec.args) ? exec.args.map(String) : [],
    env: Array.isArray(exec.env)
      ? (exec.env as Array<{ name?: unknown; value?: unknown }>).map((e) => ({
          name: String(e.name),
          value: String(e.value ?? ''),
        }))
      : [],
    apiVersion: typeof exec.apiVersion === 'string' ? exec.apiVersion : 'client.authentication.k8s.io/v1',
    interactiveMode: mode === 'Never' || mode === 'Always' ? mode : 'IfAvailable',
    provideClusterInfo: exec.provideClusterInfo === true,
  };
}
