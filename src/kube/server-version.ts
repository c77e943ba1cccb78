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
