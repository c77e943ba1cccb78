import { hostname, userInfo } from 'node:os';

/** Who this process is, in the cluster's records (a run's Lease, a drain's mark): `user@host pid N`. */
export function processHolder(): string {
  return `${userInfo().username}@${hostname()} pid ${process.pid}`;
}

/**
 * Whether the process a record names is known to have ended: only a holder of this user on this host can
 * be checked (its pid no longer exists). Anything else — another host, a pid that exists (even reused),
 * a holder in another form — is not known gone, so its record stands until it expires.
 */
export function holderGone(holder: string, self = processHolder()): boolean {
  const match = /^(.*) pid (\d+)$/.exec(holder);
  const here = /^(.*) pid \d+$/.exec(self)?.[1];
  if (!match || match[1] !== here || holder === self) return false;
  try {
    process.kill(Number(match[2]), 0);
    return false;
  } catch (err) {
    // EPERM: the pid exists under another user.
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
