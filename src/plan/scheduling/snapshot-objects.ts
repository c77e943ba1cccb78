import type { Snapshot } from '../../snapshot/types.js';

/** An object's name ("" when absent). */
export function nameOf(object: { metadata?: { name?: string } }): string {
  return object.metadata?.name ?? '';
}

/** An object's namespace, `default` when absent (as the API server defaults it). */
export function namespaceOf(object: { metadata?: { namespace?: string } }): string {
  return object.metadata?.namespace ?? 'default';
}

/**
 * A value built from a snapshot on first use and kept for it: a memo, not state (a snapshot never
 * changes, and every simulation of a plan reads the same catalogs).
 */
export function perSnapshot<T>(build: (snapshot: Snapshot) => T): (snapshot: Snapshot) => T {
  const built = new WeakMap<Snapshot, T>();
  return (snapshot) => {
    let value = built.get(snapshot);
    if (value === undefined) built.set(snapshot, (value = build(snapshot)));
    return value;
  };
}
