const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * managedFields and kubectl's last-applied annotation are often most of an object's size and nothing
 * in the plan reads them (kubectl get hides managedFields too).
 */
export function stripUnusedFields<T>(object: T): T {
  const metadata = (object as { metadata?: { managedFields?: unknown; annotations?: Record<string, string> } })
    .metadata;
  if (metadata) {
    delete metadata.managedFields;
    if (metadata.annotations && LAST_APPLIED in metadata.annotations) delete metadata.annotations[LAST_APPLIED];
  }
  return object;
}
