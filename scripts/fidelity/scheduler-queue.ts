/**
 * What the lab's kube-scheduler has left to do, from its /metrics: the pods in its active and backoff
 * queues (about to be tried), the one it is trying (`scheduler_inflight_events{event="PodPopped"}`), the
 * bindings under way, and its counts of attempts and of pods moved between queues (which change whenever
 * it does anything). The harness waits on it: a replacement left unschedulable stays so only once the
 * scheduler has nothing left to try.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Agent, fetch } from 'undici';

export interface SchedulerQueue {
  /** Pods it is about to try or trying, bindings under way: 0 when it waits for the cluster to change. */
  readonly busy: number;
  /** Its attempt and queue-move counters, as printed: the same in two reads when it did nothing between. */
  readonly activity: string;
  /** How it says so, for a message. */
  readonly text: string;
}

/** The queues that hold pods about to be tried (unschedulable and gated pods wait for a change). */
const WAITING_TO_RUN = /^scheduler_pending_pods\{queue="(active|backoff|incomplete|pending)"\} (\d+)/;
const IN_FLIGHT = /^scheduler_inflight_events\{event="PodPopped"\} (\d+)/;
const BINDING = /^scheduler_goroutines\{operation="binding"\} (\d+)/;
const ACTIVITY = /^(scheduler_schedule_attempts_total|scheduler_queue_incoming_entities_total)\{/;

/** Reads the scheduler's queue (the lab's kube-scheduler, on SCHED_PORT of ports.env beside the kubeconfig). */
export class SchedulerMetrics {
  private readonly url: string;
  private readonly dispatcher: Agent;

  constructor(kubeconfig: string, client: { readonly ca: Buffer; readonly cert: Buffer; readonly key: Buffer }) {
    const ports = readFileSync(path.join(path.dirname(kubeconfig), 'ports.env'), 'utf8');
    const port = /^SCHED_PORT=(\d+)/m.exec(ports)?.[1];
    if (!port) throw new Error(`no SCHED_PORT in the lab's ports.env beside ${kubeconfig}`);
    this.url = `https://127.0.0.1:${port}/metrics`;
    // The lab's scheduler serves a certificate of the lab CA (scripts/lab/components.sh), checked as such.
    this.dispatcher = new Agent({ connect: client });
  }

  async read(): Promise<SchedulerQueue> {
    const response = await fetch(this.url, { dispatcher: this.dispatcher });
    if (!response.ok) throw new Error(`kube-scheduler /metrics: HTTP ${response.status}`);
    const lines = (await response.text()).split('\n');
    const queued = new Map<string, number>();
    let inFlight = 0;
    let binding = 0;
    for (const line of lines) {
      const waiting = WAITING_TO_RUN.exec(line);
      if (waiting) queued.set(waiting[1]!, Number(waiting[2]));
      inFlight = Number(IN_FLIGHT.exec(line)?.[1] ?? inFlight);
      binding = Number(BINDING.exec(line)?.[1] ?? binding);
    }
    const busy = [...queued.values()].reduce((a, b) => a + b, 0) + inFlight + binding;
    return {
      busy,
      activity: lines.filter((l) => ACTIVITY.test(l)).join('\n'),
      text: `${[...queued].map(([q, n]) => `${n} ${q}`).join(', ')}, ${inFlight} being tried, ${binding} binding`,
    };
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }
}
