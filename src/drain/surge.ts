import type { V1Deployment } from '@kubernetes/client-node';
import type { DrainApi } from '../kube/drain-api.js';
import { hasAutoscalerRecord, surgeRecordOf, type AutoscalerBounds, type SurgeRecord } from '../kube/surge-record.js';
import { classifyKubeError } from '../kube/errors.js';
import { autoscalerChange, raisedBounds } from '../plan/surge.js';
import type { Clock } from './clock.js';
import { isSurgeReady, raisedTo, restoredReplicas, returnedTo } from './surge-bounds.js';
import type { DrainEvent } from './events.js';
import { plural } from '../wording.js';

/**
 * The drain's side of --surge (plan/surge.ts says why a scale-up and in which order): before a surged
 * pod's first eviction, its Deployment goes up by `extra` replicas with a record of its own count on it;
 * the eviction waits until the extra replicas are Ready; once the Deployment's surged pods are settled
 * (gone, failed) — or the drain stops, fails or is interrupted — the Deployment returns to its own count
 * and the record is removed. A process killed in between leaves the record: the next drain of those
 * nodes finishes the surge (with --surge) or undoes it (without).
 *
 * Under a HorizontalPodAutoscaler the writes are, in order: the record on the Deployment (naming the
 * autoscaler and its own bounds), the autoscaler's raised bounds, the Deployment's count. Returning goes
 * the other way: the autoscaler's bounds, then the Deployment's count with the record removed. Whenever a
 * process dies, the Deployment's record says what to undo, and the autoscaler is never left with bounds
 * the Deployment does not record.
 */
export interface SurgeWork {
  readonly namespace: string;
  readonly name: string;
  /** Extra replicas to bring up: the Deployment's pods on the drained nodes that wait for the surge. */
  readonly extra: number;
  /** uids of those pods. */
  readonly pods: readonly string[];
  /**
   * The Deployment as the drain's read saw it, when no autoscaler scales it: the surge's first write goes
   * out without reading it again (a copy that changed since only costs a conflict, then a fresh start).
   */
  readonly read?: V1Deployment;
}

export interface SurgeRequest {
  readonly deployments: readonly SurgeWork[];
  /** Deployments an interrupted drain of these nodes left surged, that this drain does not surge: undone first. */
  readonly restoreFirst: ReadonlyArray<{ readonly namespace: string; readonly name: string }>;
}

/** While the extra replicas start, how often the Deployment is read besides its watch (should the watch fail). */
const READY_POLL_MS = 5_000;
const CONFLICT_RETRIES = 5;

export class SurgeRunner {
  private readonly started = new Map<string, Promise<boolean>>();
  /** Deployments this drain changed (or found changed), by namespace/name, with their record. */
  private readonly surged = new Map<string, SurgeRecord>();

  constructor(
    private readonly api: DrainApi,
    private readonly nodes: readonly string[],
    private readonly clock: Clock,
    private readonly emit: (event: DrainEvent) => void,
  ) {}

  /** Brings the surge of `work` up once (shared by its pods); resolves true when the extra replicas are Ready. */
  ready(work: SurgeWork, signal: AbortSignal): Promise<boolean> {
    const key = `${work.namespace}/${work.name}`;
    let started = this.started.get(key);
    if (!started) {
      started = this.bringUp(work, signal).catch((err: unknown) => {
        this.event(key, 'failed', `could not surge: ${this.reason(err, 'patch', 'deployments', work)}`);
        return false;
      });
      this.started.set(key, started);
    }
    return started;
  }

  /**
   * Returns a Deployment to its own replica count and removes the record, its autoscaler's bounds first;
   * retried on conflicts (someone else wrote in between: read again).
   */
  async restore(namespace: string, name: string, why = 'its surged pods are settled'): Promise<void> {
    const key = `${namespace}/${name}`;
    for (let attempt = 1; ; attempt++) {
      try {
        const deployment = await this.api.readDeployment(namespace, name);
        const record = surgeRecordOf(deployment) ?? this.surged.get(key);
        if (!record) return;
        const bounds = record.autoscaler ? await this.returnAutoscaler(namespace, name, record.autoscaler) : '';
        // An autoscaler that moved the count while its bounds were raised chose it: it is left as it is.
        const replicas = deployment.spec?.replicas;
        const restored = restoredReplicas(record, replicas);
        await this.api.patchSurge(deployment, restored, null);
        this.surged.delete(key);
        const count =
          restored !== null
            ? `back to its own ${plural(restored, 'replica')}`
            : `left at the ${plural(replicas ?? 0, 'replica')} its autoscaler chose`;
        this.event(key, 'restored', `${count}${bounds} (${why})`, record);
        return;
      } catch (err) {
        if (attempt >= CONFLICT_RETRIES) {
          this.event(
            key,
            'failed',
            `could not return it to its own replica count: ${this.reason(err, 'patch', 'deployments', { namespace, name })}; ` +
              `the next kubectl maint drain of ${this.nodes.join(' ')} does it`,
          );
          return;
        }
      }
    }
  }

  /** Every Deployment still surged by this drain goes back (the drain ended, failed or was interrupted). */
  async restoreAll(why: string): Promise<void> {
    for (const key of [...this.surged.keys()]) {
      const [namespace, name] = key.split('/') as [string, string];
      await this.restore(namespace, name, why);
    }
  }

  /** Deployments surged now, for the summary. */
  get active(): readonly string[] {
    return [...this.surged.keys()];
  }

  private async bringUp(work: SurgeWork, signal: AbortSignal): Promise<boolean> {
    const key = `${work.namespace}/${work.name}`;
    const record = (await this.scaleUpAsRead(work)) ?? (await this.scaleUp(work));
    const ready = await this.untilReady(work, record, signal);
    if (ready)
      this.event(key, 'ready', `${plural(ready.status?.readyReplicas ?? 0, 'Ready replica')}: evicting`, record);
    return ready !== null;
  }

  /**
   * The surge from the drain's own read of the Deployment, with no autoscaler and no record on it: the
   * record and the new count in one write guarded by that copy's resourceVersion. Null when there is no
   * such copy or it is out of date (the write conflicts): the caller starts again from a fresh read.
   */
  private async scaleUpAsRead(work: SurgeWork): Promise<SurgeRecord | null> {
    const read = work.read;
    if (!read || surgeRecordOf(read)) return null;
    const own = read.spec?.replicas ?? 1;
    const record: SurgeRecord = { replicas: own, surgedTo: own + work.extra, nodes: this.nodes };
    this.surged.set(`${work.namespace}/${work.name}`, record);
    try {
      await this.api.patchSurge(read, record.surgedTo, record);
    } catch (err) {
      // A conflict wrote nothing; any other failure may have written, and the record stays to undo it.
      if (classifyKubeError(err, undefined).kind !== 'conflict') throw err;
      this.surged.delete(`${work.namespace}/${work.name}`);
      return null;
    }
    this.event(`${work.namespace}/${work.name}`, 'scaling-up', scalingUpText(record), record);
    return record;
  }

  /** The surge from a fresh read: resumed from a record an interrupted drain left, or started, under its autoscaler if any. */
  private async scaleUp(work: SurgeWork): Promise<SurgeRecord> {
    const key = `${work.namespace}/${work.name}`;
    const deployment = await this.api.readDeployment(work.namespace, work.name);
    const previous = surgeRecordOf(deployment);
    let record: SurgeRecord;
    let message: string;
    if (previous) {
      record = previous;
      message = `resuming the surge an interrupted drain left (${record.replicas} → ${record.surgedTo})`;
    } else {
      const autoscaler = await this.api.autoscalerOf(work.namespace, work.name);
      const own = deployment.spec?.replicas ?? 1;
      const surgedTo = own + work.extra;
      const bounds = autoscaler
        ? {
            name: autoscaler.metadata?.name ?? '',
            ...raisedBounds(autoscaler.spec?.minReplicas, autoscaler.spec?.maxReplicas ?? 1, surgedTo),
          }
        : undefined;
      record = { replicas: own, surgedTo, nodes: this.nodes, ...(bounds ? { autoscaler: bounds } : {}) };
      message = scalingUpText(record);
      // Under an autoscaler the record goes first, alone: a process killed before the count changes
      // still leaves what the next drain needs to return the autoscaler's bounds.
      if (bounds) await this.patchDeployment(work, deployment, record, () => null);
    }
    this.surged.set(key, record);
    if (record.autoscaler) {
      message += `; ${await this.raiseAutoscaler(work.namespace, key, record.autoscaler)}`;
    }
    // The record and the new count go in one patch: a killed process leaves both or neither. Under an
    // autoscaler its controller has often raised the count itself by now (it reacts to raised bounds at
    // once): then only the record is there to keep, read again. Without one, the copy just read serves.
    await this.patchDeployment(work, record.autoscaler ? null : deployment, record, (replicas) =>
      replicas < record.surgedTo ? record.surgedTo : null,
    );
    this.event(key, 'scaling-up', message, record);
    return record;
  }

  /**
   * Writes the record, and the count `replicasFor` asks for given the current one (null: leave it), unless
   * both are there already; on a conflict (the Deployment or autoscaler controller wrote in between) reads
   * again and retries. `read` is a copy read just before, if any.
   */
  private async patchDeployment(
    work: SurgeWork,
    read: V1Deployment | null,
    record: SurgeRecord,
    replicasFor: (replicas: number) => number | null,
  ): Promise<void> {
    let deployment = read;
    for (let attempt = 1; ; attempt++) {
      deployment ??= await this.api.readDeployment(work.namespace, work.name);
      const replicas = replicasFor(deployment.spec?.replicas ?? 1);
      if (replicas === null && surgeRecordOf(deployment)) return;
      try {
        await this.api.patchSurge(deployment, replicas, record);
        return;
      } catch (err) {
        if (attempt >= CONFLICT_RETRIES || classifyKubeError(err, undefined).kind !== 'conflict') throw err;
        deployment = null;
      }
    }
  }

  /**
   * Resolves with the Deployment once as many replicas as the surge asks for are Ready, as its watch
   * reports (a read every few seconds covers a watch that fails); null when the drain stops first.
   */
  private async untilReady(work: SurgeWork, record: SurgeRecord, signal: AbortSignal): Promise<V1Deployment | null> {
    const done = new AbortController();
    const stop = AbortSignal.any([signal, done.signal]);
    let found: V1Deployment | null = null;
    const check = (deployment: V1Deployment) => {
      if (!found && isSurgeReady(deployment, record)) {
        found = deployment;
        done.abort();
      }
    };
    const watch = this.api.watchDeployment(work.namespace, work.name, { onUpsert: check, onDelete: () => {} });
    try {
      // The watch's first LIST reports the Deployment as it is now; the read covers a watch that fails.
      while (await this.clock.sleep(READY_POLL_MS, stop)) {
        check(await this.api.readDeployment(work.namespace, work.name));
      }
    } finally {
      watch.stop();
    }
    return found;
  }

  /** Raises the autoscaler's bounds to the record's (unless they already are); returns what it did, in words. */
  private async raiseAutoscaler(namespace: string, deployment: string, bounds: AutoscalerBounds): Promise<string> {
    const name = `HorizontalPodAutoscaler ${namespace}/${bounds.name}`;
    const autoscaler = await this.api.autoscalerOf(namespace, deployment.slice(deployment.indexOf('/') + 1));
    if (!autoscaler || autoscaler.metadata?.name !== bounds.name) return `${name} is gone: nothing to raise`;
    const min = autoscaler.spec?.minReplicas ?? 1;
    const max = autoscaler.spec?.maxReplicas ?? min;
    const raised = raisedTo(bounds, { minReplicas: min, maxReplicas: max });
    if (raised) await this.api.patchAutoscalerBounds(autoscaler, raised, { ...bounds, deployment, nodes: this.nodes });
    return `${name}: ${autoscalerChange(bounds)}, so that it keeps the extra replica`;
  }

  /**
   * Returns the autoscaler's bounds that are still the surge's to its own, and removes its record; bounds
   * someone else changed meanwhile are theirs and stay. Returns what it did, in words (with a leading "; ").
   */
  private async returnAutoscaler(namespace: string, deployment: string, bounds: AutoscalerBounds): Promise<string> {
    const name = `HorizontalPodAutoscaler ${namespace}/${bounds.name}`;
    const autoscaler = await this.api.autoscalerOf(namespace, deployment);
    if (!autoscaler || autoscaler.metadata?.name !== bounds.name) return `; ${name} is gone`;
    const min = autoscaler.spec?.minReplicas ?? 1;
    const max = autoscaler.spec?.maxReplicas ?? min;
    const { minReplicas, maxReplicas } = returnedTo(bounds, { minReplicas: min, maxReplicas: max });
    if (minReplicas !== min || maxReplicas !== max || hasAutoscalerRecord(autoscaler))
      await this.api.patchAutoscalerBounds(autoscaler, { minReplicas, maxReplicas }, null);
    return `; ${name} back to minReplicas ${minReplicas}, maxReplicas ${maxReplicas}`;
  }

  private event(deployment: string, step: SurgeStep, message: string, record?: SurgeRecord): void {
    this.emit({
      type: 'surge',
      atMs: this.clock.now(),
      deployment,
      step,
      message,
      ...(record ? { replicas: record.replicas, surgedTo: record.surgedTo } : {}),
    });
  }

  private reason(err: unknown, verb: string, resource: string, work: { namespace: string; name: string }): string {
    return classifyKubeError(err, undefined, { verb, resource, name: `${work.namespace}/${work.name}` }).message;
  }
}

export type SurgeStep = Extract<DrainEvent, { type: 'surge' }>['step'];

function scalingUpText(record: SurgeRecord): string {
  return `${record.replicas} → ${plural(record.surgedTo, 'replica')}, until the extra one is Ready`;
}
