/**
 * Counted nouns, for every layer (plan/ writes reasons, ui/ renders): "1 pod", "2 pods", "0 waves",
 * never "pod(s)". Kept outside the layers so that the pure plan/ can use it too.
 */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
