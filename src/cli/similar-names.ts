/**
 * Names one typing slip away from `name`: one letter added, dropped, changed, or two neighbours swapped
 * (`k8s-nod-1`, `k8s-ndoe-1` → `k8s-node-1`). One digit changed for another is not a slip but another
 * member of a numbered pool (`pool-9` is not `pool-1`), so it is not suggested.
 */
export function similarNames(name: string, candidates: readonly string[]): string[] {
  return candidates.filter((candidate) => candidate !== name && oneSlipApart(name, candidate));
}

function oneSlipApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  const restA = a.slice(start);
  const restB = b.slice(start);
  if (a.length === b.length) {
    if (restA.slice(1) === restB.slice(1)) return !(isDigit(restA[0]) && isDigit(restB[0]));
    return restA[0] === restB[1] && restA[1] === restB[0] && restA.slice(2) === restB.slice(2);
  }
  // One letter more on one side: dropping it there leaves the same rest.
  return a.length > b.length ? restA.slice(1) === restB : restB.slice(1) === restA;
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}
