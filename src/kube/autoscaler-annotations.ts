/**
 * While kubectl maint has a node out for maintenance, cluster autoscalers must not remove it for being
 * empty: cluster-autoscaler skips a node annotated `scale-down-disabled: "true"`, Karpenter one annotated
 * `do-not-disrupt: "true"`. Both are set in the same write as the cordon that takes the node out, and
 * what they were before is recorded beside them (RECORD), so that the uncordon that gives the node back
 * (`kubectl maint uncordon`, a run's return) takes away only what kubectl maint set: an annotation the
 * node had already stays as it was.
 */
export const SCALE_DOWN_DISABLED = 'cluster-autoscaler.kubernetes.io/scale-down-disabled';
export const DO_NOT_DISRUPT = 'karpenter.sh/do-not-disrupt';
export const AUTOSCALER_ANNOTATIONS = [SCALE_DOWN_DISABLED, DO_NOT_DISRUPT] as const;

/**
 * The annotations kubectl maint set, each with the value it replaced (null: there was none), as JSON:
 * `{"cluster-autoscaler.kubernetes.io/scale-down-disabled":null}`.
 */
export const RECORD = 'maint.kubectl.io/autoscaler-annotations';

type Annotations = Readonly<Record<string, string>> | undefined;

/**
 * The merge patch's annotations that protect a node from autoscalers, with the record of what they
 * replace; null when there is nothing to set (both already "true"), or when a record is there already:
 * kubectl maint protected the node before (a drain interrupted, run again) and that record still says
 * what to give back.
 */
export function protectAnnotations(annotations: Annotations): Record<string, string> | null {
  if (annotations?.[RECORD] !== undefined) return null;
  const replaced: Record<string, string | null> = {};
  for (const key of AUTOSCALER_ANNOTATIONS) {
    if (annotations?.[key] !== 'true') replaced[key] = annotations?.[key] ?? null;
  }
  const keys = Object.keys(replaced);
  if (keys.length === 0) return null;
  return { ...Object.fromEntries(keys.map((key) => [key, 'true'])), [RECORD]: JSON.stringify(replaced) };
}

/**
 * The merge patch's annotations that give back what protectAnnotations set: each recorded annotation
 * returns to the value it replaced (null removes it), unless it no longer says "true" (someone changed it
 * since: theirs now), and the record goes. Null when the node carries no record.
 */
export function releaseAnnotations(annotations: Annotations): Record<string, string | null> | null {
  const text = annotations?.[RECORD];
  if (text === undefined) return null;
  const patch: Record<string, string | null> = { [RECORD]: null };
  for (const [key, before] of Object.entries(recorded(text))) {
    if (annotations?.[key] === 'true') patch[key] = before;
  }
  return patch;
}

/** The record's entries for the autoscaler annotations; none when it is not ours to read (edited by hand). */
function recorded(text: string): Record<string, string | null> {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null) return {};
    return Object.fromEntries(
      Object.entries(value).filter(
        ([key, before]) =>
          (AUTOSCALER_ANNOTATIONS as readonly string[]).includes(key) &&
          (before === null || typeof before === 'string'),
      ),
    ) as Record<string, string | null>;
  } catch {
    return {};
  }
}
