import type { KubeTarget } from './config.js';
import { getRaw } from './raw-request.js';

/**
 * The server's version, `gitVersion` of `GET /version` ("v1.34.4"), read once per command: the plan
 * models that version's scheduler and API (plan/kube-version.ts). Undefined when the server does not say
 * (an error, an answer without it): the plan then models the newest supported minor and says so, so a
 * version it cannot read never stops a plan.
 */
export async function readServerVersion(target: KubeTarget): Promise<string | undefined> {
  try {
    const response = await getRaw(target, '/version', {}, { timeout: true });
    const body = JSON.parse(await response.text()) as { gitVersion?: unknown } | null;
    return typeof body?.gitVersion === 'string' && body.gitVersion !== '' ? body.gitVersion : undefined;
  } catch {
    return undefined;
  }
}

/** The first minor whose API server answers every consistent LIST from its watch cache (ConsistentListFromCache, GA). */
const CONSISTENT_LIST_FROM_CACHE_MINOR = 34;

/**
 * Whether the server (`gitVersion`) answers a consistent LIST (no resourceVersion) from its watch cache,
 * once the cache has caught up with etcd, rather than with a quorum read of etcd: then one LIST of a whole
 * kind costs etcd nothing, and the server sends it faster than the same objects as the streaming list's
 * watch events. False where the version is not known.
 */
export function servesConsistentListsFromCache(gitVersion: string | undefined): boolean {
  const minor = /^v?1\.(\d+)\./.exec(gitVersion ?? '')?.[1];
  return minor !== undefined && Number(minor) >= CONSISTENT_LIST_FROM_CACHE_MINOR;
}
