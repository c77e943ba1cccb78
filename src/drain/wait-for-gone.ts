import type { V1Pod } from '@kubernetes/client-node';
import type { KubeError } from '../kube/errors.js';
import { GONE_POLL, GONE_POLL_WATCHED, backoffDelayMs } from './backoff.js';
import type { Clock } from './clock.js';
import type { PodRef } from './events.js';
import { readFailure } from './read-failures.js';

/** How a wait for a pod to disappear ended. */
export type GoneWakeup = 'gone' | 'skip-wait' | 'stopped';

/** GET one pod, null when it does not exist (the watch's fallback; kubectl's getPodFn). */
export type ReadPod = (namespace: string, name: string) => Promise<V1Pod | null>;

/** A GET of a pod failed for a reason the next poll will not cure by itself (forbidden, TLS, a bug…). */
export type ReadPodFailed = (ref: PodRef, error: KubeError) => void;

const nameKey = (namespace: string, name: string) => `${namespace}/${name}`;

/**
 * A pod counts as gone when it is deleted, or when its name now belongs to a pod with another UID (a
 * StatefulSet replica recreated under the same name): kubectl's waitForDelete rule.
 */
export function isGoneBy(trackedUid: string, current: { readonly uid: string } | null): boolean {
  return current === null || current.uid !== trackedUid;
}

/**
 * --skip-wait-for-delete-timeout: stop waiting when the pod's DeletionTimestamp is more than `seconds`
 * old, in whole seconds, as kubectl compares it (0 turns the rule off). The DeletionTimestamp already
 * includes the grace period.
 */
export function skipWaitDue(deletionMs: number | null, nowMs: number, seconds: number): boolean {
  if (seconds <= 0 || deletionMs === null) return false;
  return Math.floor((nowMs - deletionMs) / 1000) > seconds;
}

function epochMs(value: Date | string | undefined): number | null {
  if (value === undefined) return null;
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * Knows which of the drained pods are gone. The pod watch of each drained node feeds `observe` and
 * `observeDeleted`; `waitForGone` also re-reads the pod, with a growing delay (1 s … 5 s) or, while the
 * node's watch says it is up (`watched`), every 10 s, so a watch that is down or lagging only slows the
 * drain, never stalls it.
 */
export class GoneTracker {
  /** By namespace/name: the UID and deletion time the watch or a GET last reported. */
  private readonly current = new Map<string, { uid: string; deletionMs: number | null }>();
  /** One controller per tracked UID, aborted when that pod is gone. */
  private readonly goneSignals = new Map<string, AbortController>();

  constructor(
    private readonly clock: Clock,
    private readonly readPod: ReadPod,
    private readonly onReadFailed: ReadPodFailed = () => {},
    private readonly watched: (ref: PodRef) => boolean = () => false,
  ) {}

  /** Starts tracking a pod; the returned signal aborts when it is gone. */
  track(ref: PodRef): AbortSignal {
    let controller = this.goneSignals.get(ref.uid);
    if (!controller) {
      controller = new AbortController();
      this.goneSignals.set(ref.uid, controller);
    }
    return controller.signal;
  }

  isGone(uid: string): boolean {
    return this.goneSignals.get(uid)?.signal.aborted ?? false;
  }

  /** A pod added or changed on a drained node. */
  observe(pod: V1Pod): void {
    const key = nameKey(pod.metadata?.namespace ?? 'default', pod.metadata?.name ?? '');
    const uid = pod.metadata?.uid ?? '';
    const previous = this.current.get(key);
    if (previous && previous.uid !== uid) this.markGone(previous.uid);
    this.current.set(key, { uid, deletionMs: epochMs(pod.metadata?.deletionTimestamp) });
  }

  observeDeleted(pod: V1Pod): void {
    const uid = pod.metadata?.uid;
    if (uid) this.markGone(uid);
  }

  /** The time the watch saw the pod's DeletionTimestamp set to (its grace period's end), if any. */
  deletionMs(ref: PodRef): number | null {
    const seen = this.current.get(nameKey(ref.namespace, ref.name));
    return seen && seen.uid === ref.uid ? seen.deletionMs : null;
  }

  async waitForGone(ref: PodRef, signal: AbortSignal, skipWaitSeconds: number): Promise<GoneWakeup> {
    const gone = this.track(ref);
    const either = AbortSignal.any([signal, gone]);
    for (let polls = 0; ; polls += 1) {
      if (gone.aborted) return 'gone';
      if (signal.aborted) return 'stopped';
      if (skipWaitDue(this.deletionMs(ref), this.clock.now(), skipWaitSeconds)) return 'skip-wait';
      await this.clock.sleep(backoffDelayMs(this.watched(ref) ? GONE_POLL_WATCHED : GONE_POLL, polls), either);
      if (gone.aborted) return 'gone';
      if (signal.aborted) return 'stopped';
      await this.poll(ref);
    }
  }

  private async poll(ref: PodRef): Promise<void> {
    let pod: V1Pod | null;
    try {
      pod = await this.readPod(ref.namespace, ref.name);
    } catch (err) {
      // Unreachable or restarting: the watch may still tell, or the next poll. Anything else is reported.
      const error = readFailure(err, { verb: 'get', resource: 'pods', namespace: ref.namespace, name: ref.name });
      if (error) this.onReadFailed(ref, error);
      return;
    }
    const current = pod === null ? null : { uid: pod.metadata?.uid ?? '' };
    if (isGoneBy(ref.uid, current)) this.markGone(ref.uid);
    else if (pod) this.observe(pod);
  }

  private markGone(uid: string): void {
    const controller = this.goneSignals.get(uid) ?? new AbortController();
    this.goneSignals.set(uid, controller);
    controller.abort();
  }
}
