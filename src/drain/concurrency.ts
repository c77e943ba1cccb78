/**
 * At most `limit` pods in flight (evicting or terminating) at once; 0 means no limit, as kubectl drain.
 * A pod waiting for its budget or for a retry gives its slot back, so it never blocks others.
 * Slots are granted first come, first served.
 */
export class Slots {
  private inUse = 0;
  private readonly queue: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  /** Resolves true when a slot is granted, false if the signal aborts first (nothing is then held). */
  acquire(signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    if (this.limit <= 0 || this.inUse < this.limit) {
      this.inUse += 1;
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      const grant = () => {
        signal.removeEventListener('abort', onAbort);
        this.inUse += 1;
        resolve(true);
      };
      const onAbort = () => {
        const index = this.queue.indexOf(grant);
        if (index >= 0) this.queue.splice(index, 1);
        resolve(false);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.queue.push(grant);
    });
  }

  release(): void {
    this.inUse = Math.max(0, this.inUse - 1);
    const next = this.queue.shift();
    if (next) next();
  }

  get held(): number {
    return this.inUse;
  }
}
