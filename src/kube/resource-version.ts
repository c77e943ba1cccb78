/**
 * Whether resourceVersion `a` is older than `b`, both of one kind of object. Kubernetes 1.35 made them
 * comparable (KEP-5504): decimal integers without leading zeros, ordered by length and then digit by digit;
 * an older API server's are etcd revisions of the same form. Anything else is not compared: false.
 */
export function olderVersion(a: string | undefined, b: string | undefined): boolean {
  if (!comparable(a) || !comparable(b)) return false;
  return a.length !== b.length ? a.length < b.length : a < b;
}

/** Whether two resourceVersions can be ordered (olderVersion): both of the comparable form. */
export function comparableVersions(a: string | undefined, b: string | undefined): boolean {
  return comparable(a) && comparable(b);
}

function comparable(version: string | undefined): version is string {
  return version !== undefined && /^[1-9]\d*$/.test(version);
}
