import { hostname } from 'node:os';
import { classifyKubeError } from './errors.js';

/**
 * Kubernetes Events on the nodes a drain, a run or an uncordon works on, so that `kubectl describe node`, k9s and
 * anything that watches events see the maintenance: events.k8s.io/v1 Events, reported by controller
 * `kubectl-maint`, in namespace "default" (where client-go's recorder puts the events of cluster-scoped
 * objects). One Event per step and node; the same step on the same node again is one series, its count
 * raised, as client-go's recorder does (an isomorphic event: same type, reason, action, reporter and
 * node). Recording is best effort: a user who may not create events, or an API that fails, costs one
 * warning at most and never the drain. This module loads no Kubernetes client: `uncordon` records its
 * event over plain requests (rest-node-events.ts), drain and run over client-node (node-events.ts).
 */
export const REPORTING_CONTROLLER = 'kubectl-maint';
/** The namespace of the events of cluster-scoped objects (client-go: metav1.NamespaceDefault). */
export const EVENT_NAMESPACE = 'default';
/** The API's limit on an event's note (events.k8s.io/v1: 1 kB). */
const NOTE_LIMIT = 1024;

export interface NodeEvent {
  readonly node: string;
  readonly type: 'Normal' | 'Warning';
  /** Why, in CamelCase: `Cordoned`, `Drained`, `CommandFailed`… */
  readonly reason: string;
  /** What was done, in CamelCase: `Cordon`, `Drain`, `Command`… */
  readonly action: string;
  /** One line for the person who reads it. */
  readonly note: string;
}

/** An events.k8s.io/v1 Event as sent: plain JSON, its time in MicroTime's form (microTime). */
export interface NodeEventObject {
  readonly apiVersion: 'events.k8s.io/v1';
  readonly kind: 'Event';
  readonly metadata: { readonly name: string; readonly namespace: string };
  readonly eventTime: string;
  readonly reportingController: string;
  readonly reportingInstance: string;
  readonly action: string;
  readonly reason: string;
  readonly regarding: { readonly apiVersion: 'v1'; readonly kind: 'Node'; readonly name: string; readonly uid: string };
  readonly note: string;
  readonly type: NodeEvent['type'];
}

/** The writes a recorder sends: an Event created, an Event's series patched, a node's uid read. */
export interface EventCalls {
  create(event: NodeEventObject): Promise<void>;
  /** Strategic-merge-patches `series`; throws on failure (a 404 when the event is gone: expired, deleted). */
  patchSeries(name: string, series: { count: number; lastObservedTime: string }): Promise<void>;
  nodeUid(node: string): Promise<string>;
}

/** A time as metav1.MicroTime writes it (RFC 3339, six digits of fraction): what the API server parses. */
export function microTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, -1)}000Z`;
}

export interface NodeEventRecorder {
  /** Records the event in the background; `flush` waits for every write started. */
  record(event: NodeEvent): void;
  /**
   * Waits for the writes started, at most `boundMs`: the drain or run is over by then, and an API that
   * does not answer must not keep it from exiting (the events still unwritten are given up).
   */
  flush(boundMs?: number): Promise<void>;
}

/** How long the end of a drain or run waits for its last events. */
const FLUSH_BOUND_MS = 5000;

/**
 * Records node events through `calls`. `warn` is told once, on the first failure (and after a refusal
 * nothing more is sent: the user may not write events); `now` gives each event its time.
 */
export function nodeEventRecorder(
  calls: EventCalls,
  warn: (message: string) => void,
  now = Date.now,
): NodeEventRecorder {
  const series = new Map<string, { name: string; count: number }>();
  const uids = new Map<string, Promise<string>>();
  // One chain of writes: a step's event is written after the one before it, and a series after its event.
  let chain: Promise<void> = Promise.resolve();
  let forbidden = false;
  let warned = false;
  let sequence = 0;
  const fail = (err: unknown) => {
    const error = classifyKubeError(err, undefined, { verb: 'create', resource: 'events.events.k8s.io' });
    if (error.kind === 'forbidden' || error.kind === 'unauthorized') forbidden = true;
    if (warned) return;
    warned = true;
    warn(`cannot record events on the nodes (${error.message}): going on without them`);
  };
  const uidOf = (node: string) => {
    const known = uids.get(node);
    if (known) return known;
    const uid = calls.nodeUid(node).catch(() => '');
    uids.set(node, uid);
    return uid;
  };
  const write = async (event: NodeEvent, atMs: number) => {
    const key = JSON.stringify([event.node, event.type, event.reason, event.action]);
    const known = series.get(key);
    if (known) {
      known.count += 1;
      try {
        await calls.patchSeries(known.name, { count: known.count, lastObservedTime: microTime(atMs) });
        return;
      } catch (err) {
        // Gone (the API server expires events after an hour): a new event, as client-go creates one.
        if (classifyKubeError(err, undefined).kind !== 'not-found') throw err;
      }
    }
    const regarding = { apiVersion: 'v1', kind: 'Node', name: event.node, uid: await uidOf(event.node) } as const;
    // client-go's name: the object's, then the time in nanoseconds, in hex (a counter keeps two apart).
    const name = `${event.node}.${(BigInt(atMs) * 1_000_000n + BigInt(sequence++ % 1_000_000)).toString(16)}`;
    await calls.create({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name, namespace: EVENT_NAMESPACE },
      eventTime: microTime(atMs),
      reportingController: REPORTING_CONTROLLER,
      reportingInstance: `${REPORTING_CONTROLLER}-${hostname()}`.slice(0, 128),
      action: event.action,
      reason: event.reason,
      regarding,
      note: truncate(event.note),
      type: event.type,
    });
    series.set(key, { name, count: 1 });
  };
  return {
    record(event) {
      if (forbidden) return;
      const atMs = now();
      chain = chain.then(() => (forbidden ? undefined : write(event, atMs).catch(fail)));
    },
    flush: (boundMs = FLUSH_BOUND_MS) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, boundMs);
        timer.unref();
        void chain.then(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}

/** The note within the API's limit, in bytes of UTF-8. */
function truncate(note: string): string {
  if (Buffer.byteLength(note) <= NOTE_LIMIT) return note;
  let text = note.slice(0, NOTE_LIMIT);
  while (Buffer.byteLength(`${text}…`) > NOTE_LIMIT) text = text.slice(0, -1);
  return `${text}…`;
}
