import type { KubeTarget } from './config.js';
import { ApiError } from './rest.js';
import { getRaw } from './raw-request.js';

/**
 * The versions the server serves of an API group (`GET /apis/GROUP`, the APIGroup's `versions`): an
 * empty list when it does not serve the group at all (404); undefined when the answer could not be had
 * (the reads then try the versions they prefer and say what they meet).
 */
export async function servedVersions(target: KubeTarget, group: string): Promise<readonly string[] | undefined> {
  try {
    const response = await getRaw(target, `/apis/${group}`, {}, { timeout: true });
    const body = JSON.parse(await response.text()) as { versions?: Array<{ version?: unknown }> } | null;
    return (body?.versions ?? []).flatMap((v) => (typeof v.version === 'string' ? [v.version] : []));
  } catch (err) {
    return err instanceof ApiError && err.code === 404 ? [] : undefined;
  }
}
