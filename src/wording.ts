/**
 * Counted nouns, for every layer (plan/ writes reasons, ui/ renders): "1 pod", "2 pods", "0 waves",
 * never "pod(s)". Kept outside the layers so that the pure plan/ can use it too.
 */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** A kind's plural as prose uses it: "PersistentVolumeClaims", "StorageClasses", "CSIStorageCapacities". */
export function kindPlural(kind: string): string {
  if (kind.endsWith('s')) return `${kind}es`;
  if (kind.endsWith('y')) return `${kind.slice(0, -1)}ies`;
  return `${kind}s`;
}
