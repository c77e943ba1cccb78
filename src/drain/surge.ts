import type { V1Deployment } from '@kubernetes/client-node';
import type { DrainApi } from '../kube/drain-api.js';
import { surgeRecordOf, type SurgeRecord } from '../kube/surge-record.js';
import { classifyKubeError } from '../kube/errors.js';
import type { Clock } from './clock.js';
import type { DrainEvent } from './events.js';
import { plural } from '../wording.js';

/**
 * The drain's side of --surge (plan/surge.ts says why a scale-up and in which order): before a surged
 * pod's first eviction, its Deployment goes up by `extra` replicas with a record of its own count on it;
 * the eviction waits until the extra replicas are Ready; once the Deployment's surged pods are settled
 * (gone, failed) — or the drain stops, fails or is interrupted — the Deployment returns to its own count
 * and the record is removed. A process killed in between leaves the record: the next drain of those
 * nodes finishes the surge (with --surge) or undoes it (without).
 */
export interface SurgeWork {
  readonly namespace: string;
  readonly name: string;
  /** Extra replicas to bring up: the Deployment's pods on the drained nodes that wait for the surge. */
  readonly extra: number;
  /** uids of those pods. */
  readonly pods: readonly string[];
}

export interface SurgeRequest {
  readonly deployments: readonly SurgeWork[];
  /** Deployments an interrupted drain of these nodes left surged, that this drain does not surge: undone first. */
  readonly restoreFirst: ReadonlyArray<{ readonly namespace: string; readonly name: string }>;
}

/** How often the Deployment's status is read while the extra replicas start. */
const READY_POLL_MS = 500;
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
        this.event(key, 'failed', `could not surge: ${this.reason(err, 'patch', work)}`);
        return false;
      });
      this.started.set(key, started);
    }
    return started;
  }

  /** Returns a Deployment to its own replica count and removes the record; retried on conflicts. */
  async restore(namespace: string, name: string, why = 'its surged pods are settled'): Promise<void> {
    const key = `${namespace}/${name}`;
    for (let attempt = 1; ; attempt++) {
      try {
        const deployment = await this.api.readDeployment(namespace, name);
        const record = surgeRecordOf(deployment) ?? this.surged.get(key);
        if (!record) return;
        await this.api.patchSurge(deployment, record.replicas, null);
        this.surged.delete(key);
        this.event(key, 'restored', `back to its own ${plural(record.replicas, 'replica')} (${why})`, record);
        return;
      } catch (err) {
        if (attempt >= CONFLICT_RETRIES) {
          this.event(
            key,
            'failed',
            `could not return it to its own replica count: ${this.reason(err, 'patch', { namespace, name })}; ` +
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
    const deployment = await this.api.readDeployment(work.namespace, work.name);
    const previous = surgeRecordOf(deployment);
    let record: SurgeRecord;
    if (previous) {
      record = previous;
      this.surged.set(key, record);
      if ((deployment.spec?.replicas ?? 1) < record.surgedTo)
        await this.api.patchSurge(deployment, record.surgedTo, record);
      this.event(
        key,
        'scaling-up',
        `resuming the surge an interrupted drain left (${record.replicas} → ${record.surgedTo})`,
        record,
      );
    } else {
      const autoscaler = await this.api.autoscalerOf(work.namespace, work.name);
      if (autoscaler) {
        this.event(
          key,
          'not-surged',
          `HorizontalPodAutoscaler ${work.namespace}/${autoscaler} owns its replica count and would undo a scale-up ` +
            'at its next sync: not surged (raise the autoscaler’s minReplicas for the drain instead)',
        );
        return false;
      }
      const own = deployment.spec?.replicas ?? 1;
      record = { replicas: own, surgedTo: own + work.extra, nodes: this.nodes };
      // The record and the new count go in one patch: a killed process leaves both or neither.
      this.surged.set(key, record);
      await this.api.patchSurge(deployment, record.surgedTo, record);
      this.event(
        key,
        'scaling-up',
        `${own} → ${plural(record.surgedTo, 'replica')}, until the extra one is Ready`,
        record,
      );
    }
    while (!signal.aborted) {
      const current = await this.api.readDeployment(work.namespace, work.name);
      if (isSurgeReady(current, record)) {
        this.event(key, 'ready', `${plural(current.status?.readyReplicas ?? 0, 'Ready replica')}: evicting`, record);
        return true;
      }
      await this.clock.sleep(READY_POLL_MS, signal);
    }
    return false;
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

  private reason(err: unknown, verb: string, work: { namespace: string; name: string }): string {
    return classifyKubeError(err, undefined, { verb, resource: 'deployments', name: `${work.namespace}/${work.name}` })
      .message;
  }
}

export type SurgeStep = Extract<DrainEvent, { type: 'surge' }>['step'];

/** The Deployment controller has seen the new count and as many replicas as it asks for are Ready. */
function isSurgeReady(deployment: V1Deployment, record: SurgeRecord): boolean {
  const observed = (deployment.status?.observedGeneration ?? 0) >= (deployment.metadata?.generation ?? 0);
  return observed && (deployment.status?.readyReplicas ?? 0) >= record.surgedTo;
}
