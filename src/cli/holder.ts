import { hostname, userInfo } from 'node:os';

/** Who this process is, in the cluster's records (a run's Lease, a drain's mark): `user@host pid N`. */
export function processHolder(): string {
  return `${userInfo().username}@${hostname()} pid ${process.pid}`;
}
