/** Small formatting rules shared by every view, so text, Ink and JSON-free lines say things the same way. */

/** A duration the way kubectl prints ages: 45s, 1m30s, 5m, 1h2m. Negative values count as 0. */
export function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) {
    const rest = s % 60;
    return rest === 0 ? `${Math.floor(s / 60)}m` : `${Math.floor(s / 60)}m${rest}s`;
  }
  const minutes = Math.floor((s % 3600) / 60);
  return minutes === 0 ? `${Math.floor(s / 3600)}h` : `${Math.floor(s / 3600)}h${minutes}m`;
}

export function formatMs(ms: number): string {
  return formatSeconds(ms / 1000);
}

/** A clock reading for the elapsed counter: 0:42, 12:05, 1:02:03. */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** kubectl's namespace/name. */
export function qualified(ref: { readonly namespace: string; readonly name: string }): string {
  return `${ref.namespace}/${ref.name}`;
}

/** A list of names that stays one readable line: "a, b, c and 4 more". */
export function listNames(names: readonly string[], max = 3): string {
  if (names.length <= max) return names.join(', ');
  return `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}

/**
 * The drain engine may name a budget with or without its namespace; a budget always lives in its pod's
 * namespace, so qualify it from the pod when needed.
 */
export function qualifiedPdb(podNamespace: string, pdb: string): string {
  return pdb.includes('/') ? pdb : `${podNamespace}/${pdb}`;
}
