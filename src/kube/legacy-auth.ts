import { HttpMethod, KubeConfig, RequestContext } from '@kubernetes/client-node';
import type { KubeConnectionTarget } from './kubeconfig.js';

/**
 * The Authorization header client-node's authenticators produce for the target's legacy auth-provider
 * (oidc, gcp, the in-cluster token file): for requests that do not go through client-node (kube/rest.ts).
 * A module of its own, with client-node alone: the short commands' bundle keeps the kubeconfig and
 * transport code in one chunk instead of sharing them with kube/config.ts.
 */
export async function legacyAuthorizationFor(target: KubeConnectionTarget): Promise<string | undefined> {
  const kubeConfig = new KubeConfig();
  const { cluster, user, context } = target.effective;
  kubeConfig.loadFromOptions({ clusters: [cluster], users: [user], contexts: [context], currentContext: context.name });
  const request = new RequestContext(target.connection.server, HttpMethod.GET);
  await kubeConfig.applySecurityAuthentication(request);
  return request.getHeaders().Authorization;
}
