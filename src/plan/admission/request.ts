import type { V1Namespace, V1Pod, V1UserInfo } from '@kubernetes/client-node';

/**
 * What admission sees of one request the drain makes for a pod (k8s.io/apiserver admission.Attributes):
 * an eviction is CREATE of the pods/eviction subresource whose object is the Eviction the client sent,
 * never the pod; --disable-eviction's delete is DELETE of the pod, whose oldObject is the pod.
 */
export interface AdmissionRequest {
  /** Which of the drain's requests. */
  readonly via: 'eviction' | 'delete';
  readonly namespace: string;
  /** The pod's name: the URL's, for the subresource as for the delete. */
  readonly name: string;
  readonly operation: 'CREATE' | 'DELETE';
  readonly group: '';
  readonly version: 'v1';
  readonly resource: 'pods';
  readonly subResource: 'eviction' | '';
  readonly kind: { readonly group: string; readonly version: string; readonly kind: string };
  readonly object: Readonly<Record<string, unknown>> | null;
  readonly oldObject: Readonly<Record<string, unknown>> | null;
  /** CreateOptions or DeleteOptions as the API server hands them to admission. */
  readonly options: Readonly<Record<string, unknown>>;
  /** Request-level dry run (the `dryRun=All` query), which admission sees; the plan's own requests are not. */
  readonly dryRun: boolean;
}

/**
 * The eviction the drain sends for `pod` (kube/eviction.ts): policy/v1 Eviction named after the pod, with
 * the pod's UID as a precondition. No labels or annotations: an objectSelector sees none. The API server
 * wipes system metadata fields before admission, so this is all a policy or webhook can read.
 */
export function evictionRequest(pod: V1Pod, dryRun = false): AdmissionRequest {
  const namespace = pod.metadata?.namespace ?? 'default';
  const name = pod.metadata?.name ?? '';
  return {
    via: 'eviction',
    namespace,
    name,
    operation: 'CREATE',
    group: '',
    version: 'v1',
    resource: 'pods',
    subResource: 'eviction',
    kind: { group: 'policy', version: 'v1', kind: 'Eviction' },
    object: {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name, namespace },
      deleteOptions: { preconditions: { uid: pod.metadata?.uid ?? '' } },
    },
    oldObject: null,
    options: { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions', ...(dryRun ? { dryRun: ['All'] } : {}) },
    dryRun,
  };
}

/** --disable-eviction's DELETE of the pod: admission sees the pod as oldObject, and the DeleteOptions. */
export function deleteRequest(pod: V1Pod): AdmissionRequest {
  const namespace = pod.metadata?.namespace ?? 'default';
  return {
    via: 'delete',
    namespace,
    name: pod.metadata?.name ?? '',
    operation: 'DELETE',
    group: '',
    version: 'v1',
    resource: 'pods',
    subResource: '',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    object: null,
    oldObject: { apiVersion: 'v1', kind: 'Pod', ...(pod as Record<string, unknown>) },
    options: {
      apiVersion: 'meta.k8s.io/v1',
      kind: 'DeleteOptions',
      preconditions: { uid: pod.metadata?.uid ?? '' },
    },
    dryRun: false,
  };
}

/** The labels objectSelector is matched against: the object's, or the old object's (a delete). */
export function labelSets(request: AdmissionRequest): ReadonlyArray<Readonly<Record<string, string>>> {
  const labelsOf = (o: Readonly<Record<string, unknown>> | null) =>
    ((o?.metadata as { labels?: Record<string, string> } | undefined)?.labels ?? {}) as Record<string, string>;
  return [request.object, request.oldObject].filter((o) => o !== null).map(labelsOf);
}

/**
 * The `request` variable of a policy's CEL (cel.CreateAdmissionRequest): the GVKs and GVRs, names, the
 * operation, the caller, dryRun and the options. Empty fields are left out, as the API server's JSON omits
 * them, so an expression reading one fails there as here. `userInfo` is absent when the caller is unknown.
 */
export function celRequest(request: AdmissionRequest, userInfo: V1UserInfo | undefined): Record<string, unknown> {
  const resource = { group: request.group, version: request.version, resource: request.resource };
  return {
    kind: request.kind,
    resource,
    ...(request.subResource ? { subResource: request.subResource } : {}),
    requestKind: request.kind,
    requestResource: resource,
    ...(request.subResource ? { requestSubResource: request.subResource } : {}),
    name: request.name,
    namespace: request.namespace,
    operation: request.operation,
    ...(userInfo ? { userInfo: withoutEmpty(userInfo as Record<string, unknown>) } : {}),
    dryRun: request.dryRun,
    options: request.options,
  };
}

/**
 * The `namespaceObject` variable (cel.CreateNamespaceObject): the pod's Namespace cut to its metadata,
 * spec.finalizers and status.phase/conditions.
 */
export function celNamespace(namespace: V1Namespace | undefined): Record<string, unknown> | null {
  if (!namespace) return null;
  const { metadata, spec, status } = namespace;
  return withoutEmpty({
    metadata: withoutEmpty({
      name: metadata?.name,
      generateName: metadata?.generateName,
      namespace: metadata?.namespace,
      labels: metadata?.labels,
      annotations: metadata?.annotations,
      uid: metadata?.uid,
      creationTimestamp: metadata?.creationTimestamp,
      resourceVersion: metadata?.resourceVersion,
      finalizers: metadata?.finalizers,
    }),
    spec: withoutEmpty({ finalizers: spec?.finalizers }),
    status: withoutEmpty({ phase: status?.phase, conditions: status?.conditions }),
  });
}

function withoutEmpty(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(o).filter(
      ([, v]) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0),
    ),
  );
}
