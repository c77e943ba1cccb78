import { AuthenticationV1Api, type V1UserInfo } from '@kubernetes/client-node';
import { makeApi } from './client.js';
import type { KubeTarget } from './config.js';
import { getRaw } from './raw-request.js';

/**
 * What admission knows besides the cluster's objects, read for the plan's judge of
 * ValidatingAdmissionPolicies: who the caller is (the request.userInfo of the drain's evictions) and the
 * params the policies name. Neither is required: what cannot be read leaves the policies that need it
 * unknown, never a failed plan.
 */

/**
 * The caller as the API server authenticates it (SelfSubjectReview, authentication.k8s.io/v1, served by
 * every API server since 1.28 and allowed to any authenticated user). Undefined when refused or not served.
 */
export async function readRequester(target: KubeTarget): Promise<V1UserInfo | undefined> {
  try {
    const review = await makeApi(target, AuthenticationV1Api).createSelfSubjectReview({
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    });
    return review.status?.userInfo;
  } catch {
    return undefined;
  }
}

/** The objects of one param kind, as the snapshot keeps them (snapshot/types.ts AdmissionParams). */
export interface ParamObjects {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespaced: boolean | null;
  readonly objects: readonly object[] | null;
  readonly why?: string;
}

/**
 * Lists every object of each param kind (`apiVersion` + `kind`, as a policy's paramKind names them): the
 * resource found through discovery, then one list across namespaces. A kind not served, or not listable by
 * the caller, comes back with `objects: null` and why.
 */
export async function readParams(
  target: KubeTarget,
  kinds: ReadonlyArray<{ readonly apiVersion: string; readonly kind: string }>,
): Promise<ParamObjects[]> {
  return Promise.all(kinds.map((k) => readParamKind(target, k.apiVersion, k.kind)));
}

async function readParamKind(target: KubeTarget, apiVersion: string, kind: string): Promise<ParamObjects> {
  const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  try {
    const discovery = JSON.parse(await (await getRaw(target, base, {}, { timeout: true })).text()) as {
      resources?: Array<{ name: string; kind: string; namespaced: boolean; verbs?: string[] }>;
    };
    const resource = discovery.resources?.find((r) => r.kind === kind && !r.name.includes('/'));
    if (!resource) return { apiVersion, kind, namespaced: null, objects: null, why: `${apiVersion} serves no ${kind}` };
    const list = JSON.parse(await (await getRaw(target, `${base}/${resource.name}`, {}, { timeout: true })).text()) as {
      items?: object[];
    };
    return { apiVersion, kind, namespaced: resource.namespaced, objects: list.items ?? [] };
  } catch (err) {
    const code = (err as { code?: number }).code;
    const why = code === 403 ? 'forbidden' : code === 404 ? 'not served' : (err as Error).message.split('\n')[0]!;
    return { apiVersion, kind, namespaced: null, objects: null, why };
  }
}
