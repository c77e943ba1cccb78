import type { Clock } from '../drain/clock.js';
import { KubeError } from '../kube/errors.js';

/**
 * A run's writes and reads outlast an API server that is away (restarting, upgraded, cut off for a
 * moment) for as long as the run's Lease lets it hold its nodes: until then no other process may take
 * them (claim.ts), so what the run knows (a command's result, a node back) is still its to write. Past
 * that, the run stops and says where every node really is (ApiAway).
 */

/** The waits between tries: quick at first, so that a write lands soon after the server is back. */
const RETRY_WAITS_MS: readonly number[] = [250, 500, 1000, 2000];

/** Failures that say "not now" rather than "no": the server away, slow, restarting or throttling. */
const PASSING_KINDS = new Set(['unreachable', 'timeout', 'server', 'too-many-requests']);

/** Whether the failure is one the API server's return may undo (see PASSING_KINDS). */
export function passingFailure(err: unknown): boolean {
  return err instanceof KubeError && PASSING_KINDS.has(err.kind);
}

/** The API server stayed away until the run's Lease expired: the run stops, what it could not write said. */
export class ApiAway extends Error {
  constructor(
    message: string,
    override readonly cause: unknown,
  ) {
    super(message);
    this.name = 'ApiAway';
  }
}

export interface Durability {
  readonly clock: Clock;
  /** Epoch ms until which the run's Lease lets it hold its nodes (LeaseKeeper.heldUntil). */
  readonly heldUntil: () => number;
  /** Told once per call, at its first passing failure: what is kept, and for how long it is tried. */
  readonly onAway: (reason: string, secondsLeft: number) => void;
  /** Ends the waits early (a read the run no longer needs): the last failure is thrown. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * `attempt` until it succeeds; a passing failure (passingFailure) is tried again after a growing wait
 * while the run's Lease holds, any other failure is thrown at once. Past the Lease, ApiAway (its cause
 * the last failure).
 */
export async function durably<T>(attempt: () => Promise<T>, d: Durability): Promise<T> {
  for (let tries = 0; ; tries += 1) {
    try {
      return await attempt();
    } catch (err) {
      if (!passingFailure(err)) throw err;
      const left = d.heldUntil() - d.clock.now();
      const reason = (err as Error).message;
      if (left <= 0 || d.signal?.aborted) {
        throw new ApiAway(`the API server did not answer before the run's Lease expired: ${reason}`, err);
      }
      if (tries === 0) d.onAway(reason, Math.ceil(left / 1000));
      const wait = Math.min(RETRY_WAITS_MS[Math.min(tries, RETRY_WAITS_MS.length - 1)]!, left);
      await d.clock.sleep(wait, d.signal);
    }
  }
}
