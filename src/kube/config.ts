import { KubeConfig, RequestContext, HttpMethod } from '@kubernetes/client-node';
import {
  loadKubeConnection,
  type KubeConfigEnv,
  type KubeConfigFlags,
  type KubeConnectionTarget,
} from './kubeconfig.js';
import { USER_AGENT, prepareConnection, renewing, type ConnectionSettings, type Prepared } from './transport.js';

export type { KubeConfigEnv, KubeConfigFlags, KubeConnectionTarget } from './kubeconfig.js';

/** A loaded kubeconfig (kube/kubeconfig.ts) with client-node's KubeConfig for the typed APIs and watches. */
export interface KubeTarget extends KubeConnectionTarget {
  readonly kubeConfig: TargetKubeConfig;
}

/**
 * Loads the kubeconfig the way kubectl does (kube/kubeconfig.ts: files, merge, context, flags) and binds
 * client-node's KubeConfig to the result.
 */
export function loadKubeTarget(flags: KubeConfigFlags = {}, env: KubeConfigEnv = process.env): KubeTarget {
  return withKubeConfig(loadKubeConnection(flags, env));
}

export function withKubeConfig(target: KubeConnectionTarget): KubeTarget {
  const kubeConfig = new TargetKubeConfig(target.connection);
  const { cluster, user, context } = target.effective;
  kubeConfig.loadFromOptions({
    clusters: [cluster],
    users: [user],
    contexts: [context],
    currentContext: context.name,
  });
  return { ...target, kubeConfig };
}

/**
 * client-node's KubeConfig with its authentication replaced by ours (kube/transport.ts), so that every
 * client built on it (the typed APIs, Watch, ListWatch) connects as kubectl would: kubectl's precedence of
 * credentials, impersonation headers (one Impersonate-Group line per group, as client-go sends them),
 * tokenFile, a bounded exec plugin, TLS material checked with kubectl's messages, and connect + TLS
 * handshake bounded by --request-timeout.
 */
export class TargetKubeConfig extends KubeConfig {
  /** Reads the files, runs the exec plugin and builds the dispatcher once; again when a credential expires. */
  readonly prepare: () => Promise<Prepared>;

  constructor(private readonly settings: ConnectionSettings) {
    super();
    this.prepare = renewing(() => prepareConnection(this.settings, () => this.legacyAuthorization()));
  }

  override async applySecurityAuthentication(context: RequestContext): Promise<void> {
    const prepared = await this.prepare();
    for (const [name, value] of Object.entries(prepared.headers)) context.setHeaderParam(name, value);
    // client-node's Watch sends no User-Agent of its own (undici's would go out): the API server's audit
    // log and its priority and fairness see the plugin's, as on every other request.
    context.setHeaderParam('User-Agent', USER_AGENT);
    context.setDispatcher(prepared.dispatcher);
  }

  /** The Authorization header client-node's authenticators produce for a legacy auth-provider. */
  async legacyAuthorization(): Promise<string | undefined> {
    const context = new RequestContext(this.settings.server, HttpMethod.GET);
    await super.applySecurityAuthentication(context);
    return context.getHeaders().Authorization;
  }
}
