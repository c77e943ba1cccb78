import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KubeConfig, type Cluster, type Context, type User } from '@kubernetes/client-node';
import { KubeError, type KubeTargetInfo } from './errors.js';

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
}

/** A loaded kubeconfig with the context chosen and the overrides applied: everything needed to build clients. */
export interface KubeTarget extends KubeTargetInfo {
  readonly kubeConfig: KubeConfig;
  readonly cluster: string;
  readonly namespace: string;
  /** The files the configuration came from (empty for in-cluster). */
  readonly files: readonly string[];
}

/** Where to look, injectable for tests; defaults to the process's own environment. */
export interface KubeConfigEnv {
  readonly KUBECONFIG?: string | undefined;
  readonly HOME?: string | undefined;
  readonly KUBERNETES_SERVICE_HOST?: string | undefined;
  readonly KUBERNETES_SERVICE_PORT?: string | undefined;
}

const SERVICE_ACCOUNT_TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token';
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
export function loadKubeTarget(flags: KubeConfigFlags = {}, env: KubeConfigEnv = process.env): KubeTarget {
  const { kubeConfig, files } = loadMergedConfig(flags, env);
  return selectContext(kubeConfig, files, flags);
}

function loadMergedConfig(flags: KubeConfigFlags, env: KubeConfigEnv): { kubeConfig: KubeConfig; files: string[] } {
  if (flags.kubeconfig) {
    if (!fs.existsSync(flags.kubeconfig)) {
      throw new KubeError('config', `cannot read kubeconfig "${flags.kubeconfig}" (--kubeconfig): no such file`);
    }
    return { kubeConfig: mergeFirstWins([flags.kubeconfig]), files: [flags.kubeconfig] };
  }
  const fromEnv = (env.KUBECONFIG ?? '').split(path.delimiter).filter((file) => file !== '');
  if (fromEnv.length > 0) {
    const existing = [...new Set(fromEnv)].filter((file) => fs.existsSync(file));
    if (existing.length === 0) {
      throw new KubeError('config', `${NO_KUBECONFIG} (none of the files in KUBECONFIG exist: ${fromEnv.join(', ')})`);
    }
    return { kubeConfig: mergeFirstWins(existing), files: existing };
  }
  const home = env.HOME || os.homedir();
  const defaultFile = home ? path.join(home, '.kube', 'config') : '';
  if (defaultFile && fs.existsSync(defaultFile))
    return { kubeConfig: mergeFirstWins([defaultFile]), files: [defaultFile] };
  if (env.KUBERNETES_SERVICE_HOST && env.KUBERNETES_SERVICE_PORT && fs.existsSync(SERVICE_ACCOUNT_TOKEN)) {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromCluster();
    return { kubeConfig, files: [] };
  }
  throw new KubeError('config', NO_KUBECONFIG);
}

/**
 * kubectl's merge rule for several kubeconfig files: a cluster, user or context keeps the definition
 * from the first file that names it, and current-context comes from the first file that sets one.
 */
function mergeFirstWins(files: readonly string[]): KubeConfig {
  const clusters = new Map<string, Cluster>();
  const users = new Map<string, User>();
  const contexts = new Map<string, Context>();
  let currentContext: string | undefined;
  for (const file of files) {
    const one = readKubeConfigFile(file);
    if (!one) continue;
    for (const c of one.getClusters()) if (!clusters.has(c.name)) clusters.set(c.name, c);
    for (const u of one.getUsers()) if (!users.has(u.name)) users.set(u.name, u);
    for (const c of one.getContexts()) if (!contexts.has(c.name)) contexts.set(c.name, c);
    currentContext ||= one.getCurrentContext() || undefined;
  }
  const merged = new KubeConfig();
  merged.loadFromOptions({
    clusters: [...clusters.values()],
    users: [...users.values()],
    contexts: [...contexts.values()],
    currentContext,
  });
  return merged;
}

/** One file; `undefined` when it is empty (kubectl treats an empty file as an empty config). */
function readKubeConfigFile(file: string): KubeConfig | undefined {
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
  const kubeConfig = new KubeConfig();
  try {
    kubeConfig.loadFromString(text);
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    throw new KubeError('config', `cannot read kubeconfig "${file}": ${reason}`);
  }
  kubeConfig.makePathsAbsolute(path.dirname(file));
  return kubeConfig;
}

/** Applies --context, then --cluster/--user/--namespace/--insecure-skip-tls-verify to the chosen context. */
function selectContext(kubeConfig: KubeConfig, files: readonly string[], flags: KubeConfigFlags): KubeTarget {
  const where = files.length > 0 ? ` in ${files.map((f) => `"${f}"`).join(', ')}` : '';
  const contextName = flags.context || kubeConfig.getCurrentContext();
  if (!contextName) {
    throw new KubeError('config', `no current context${where}: pass --context or run kubectl config use-context`);
  }
  const context = kubeConfig.getContextObject(contextName);
  if (!context) throw new KubeError('config', `context "${contextName}" not found${where}`);
  const clusterName = flags.cluster || context.cluster;
  const userName = flags.user || context.user;
  const cluster = kubeConfig.getCluster(clusterName);
  if (!cluster) throw new KubeError('config', `cluster "${clusterName}" of context "${contextName}" not found${where}`);
  if (!cluster.server) throw new KubeError('config', `cluster "${clusterName}" has no server address${where}`);
  const user = kubeConfig.getUser(userName);
  if (!user) throw new KubeError('config', `user "${userName}" of context "${contextName}" not found${where}`);

  const effectiveCluster = adjustCluster(cluster, flags.insecureSkipTlsVerify === true);
  const effectiveContext: Context = {
    name: contextName,
    cluster: clusterName,
    user: userName,
    ...(flags.namespace || context.namespace ? { namespace: flags.namespace || context.namespace } : {}),
  };
  const adjusted = new KubeConfig();
  adjusted.loadFromOptions({
    clusters: kubeConfig.getClusters().map((c) => (c.name === clusterName ? effectiveCluster : c)),
    users: kubeConfig.getUsers(),
    contexts: kubeConfig.getContexts().map((c) => (c.name === contextName ? effectiveContext : c)),
    currentContext: contextName,
  });
  return {
    kubeConfig: adjusted,
    context: contextName,
    cluster: clusterName,
    user: userName,
    server: cluster.server,
    namespace: effectiveContext.namespace || 'default',
    requestTimeoutMs: flags.requestTimeoutMs ?? 0,
    execCommand: typeof user.exec?.command === 'string' ? user.exec.command : undefined,
    files,
  };
}

/**
 * TLS verification stays on unless the user asked otherwise (the flag, or the kubeconfig's own
 * insecure-skip-tls-verify). As in client-go, the flag drops the CA so the two cannot conflict.
 * An http:// server has no TLS to verify; client-node refuses it unless skipTLSVerify is set, so we set
 * it there and only there (kubectl talks to plain-http servers without complaint).
 */
function adjustCluster(cluster: Cluster, insecureFlag: boolean): Cluster {
  if (insecureFlag) {
    const { caData: _caData, caFile: _caFile, ...rest } = cluster;
    return { ...rest, skipTLSVerify: true };
  }
  if (cluster.server.startsWith('http://')) return { ...cluster, skipTLSVerify: true };
  return cluster;
}
