import {
  AppsV1Api,
  BatchV1Api,
  CoreV1Api,
  PolicyV1Api,
  type RequestContext,
  ServerConfiguration,
  createConfiguration,
  type Configuration,
} from '@kubernetes/client-node';
import { timeoutSignal } from '../timers.js';
import type { KubeTarget } from './config.js';
import { KubeError, classifyKubeError } from './errors.js';
import { USER_AGENT } from './transport.js';

/** The typed APIs the plugin uses, all bound to one target (context, credentials, request timeout). */
export interface KubeClient {
  readonly target: KubeTarget;
  readonly core: CoreV1Api;
  readonly apps: AppsV1Api;
  readonly policy: PolicyV1Api;
  readonly batch: BatchV1Api;
}

export function createKubeClient(target: KubeTarget): KubeClient {
  return {
    target,
    core: makeApi(target, CoreV1Api),
    apps: makeApi(target, AppsV1Api),
    policy: makeApi(target, PolicyV1Api),
    batch: makeApi(target, BatchV1Api),
  };
}

/**
 * Like KubeConfig.makeApiClient, plus what it lacks: --request-timeout (an AbortSignal per request,
 * covering the answer's body too, like Go's http.Client.Timeout) and our own User-Agent.
 */
export function makeApi<T>(target: KubeTarget, Api: new (configuration: Configuration) => T): T {
  const timeoutMs = target.requestTimeoutMs;
  const configuration = createConfiguration({
    baseServer: new ServerConfiguration(target.server, {}),
    authMethods: { default: target.kubeConfig },
    promiseMiddleware: [
      {
        pre: async (request: RequestContext) => {
          request.setHeaderParam('User-Agent', USER_AGENT);
          if (timeoutMs > 0) request.setSignal(timeoutSignal(timeoutMs));
          return request;
        },
        post: async (response) => response,
      },
    ],
  });
  return new Api(configuration);
}

/**
 * Obtains the credentials once before any request (reads token and certificate files, runs the exec
 * plugin within its bound), so that a failing credential is reported as such, and so that parallel
 * requests share the result instead of each starting the plugin.
 */
export async function resolveCredentials(target: KubeTarget): Promise<void> {
  try {
    await target.kubeConfig.prepare();
  } catch (err) {
    if (err instanceof KubeError) throw err;
    const classified = classifyKubeError(err, target);
    if (classified.kind !== 'unknown') throw classified;
    const reason = (err instanceof Error ? err.message : String(err)).split('\n').find((l) => l.trim() !== '');
    const from = target.execCommand ? ` from "${target.execCommand}"` : '';
    throw new KubeError(
      'unauthorized',
      `cannot get credentials for user "${target.user}"${from}: ${reason ?? 'unknown error'}`,
      { cause: err },
    );
  }
}
