/**
 * A memo for work that depends only on a namespace and the content of a value the plan never changes
 * (a pod's labels, a selector of the snapshot). Placements ask for such work millions of times on a large
 * cluster, mostly with objects seen before: each object's JSON is made once for the whole process
 * (`jsonKey`), and equal values (the labels of a workload's replicas) share the work.
 */
export class ContentMemo<V> {
  private readonly byNamespace = new Map<string, Map<string, V>>();

  get(namespace: string, key: object, compute: () => V): V {
    let values = this.byNamespace.get(namespace);
    if (!values) this.byNamespace.set(namespace, (values = new Map()));
    const json = jsonKey(key);
    if (values.has(json)) return values.get(json) as V;
    const value = compute();
    values.set(json, value);
    return value;
  }
}

const keys = new WeakMap<object, string>();

/**
 * The JSON of an object nothing changes, made once per object: the same string each time, its hash kept.
 * A key for work that reads only the object's content.
 */
export function jsonKey(value: object): string {
  let key = keys.get(value);
  if (key === undefined) keys.set(value, (key = JSON.stringify(value)));
  return key;
}
