/** What a drain says when it stops before its first write: nothing was changed, and why. */

/** The operator did not answer yes. */
/** A drain's question answered no: as kubectl delete --interactive, said on stdout, and not an error. */
export const NOT_CONFIRMED = 'drain cancelled: nothing was changed';

/** A refusal found before any write (the access check, another drain's mark): the cause, and that nothing was changed. */
export const refusedUnchanged = (cause: string): string => `${cause}: nothing was changed`;

/**
 * kubectl drain's refusal when a pod fails its filters (unmanaged pods without --force, DaemonSet pods
 * without --ignore-daemonsets, emptyDir without --delete-emptydir-data): one "error: …" line per group of
 * pods, then the line the command exits with, naming the nodes.
 */
export function kubectlRefusal(
  nodes: readonly string[],
  refusals: readonly string[],
): { readonly lines: string; readonly message: string } {
  const named = nodes.map((n) => `"${n}"`).join(', ');
  return {
    lines: refusals.map((line) => `error: ${line}\n`).join(''),
    message: refusedUnchanged(`unable to drain ${nodes.length === 1 ? 'node' : 'nodes'} ${named}`),
  };
}
