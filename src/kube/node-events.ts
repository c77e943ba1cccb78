import { EventsV1Api, PatchStrategy, V1MicroTime, setHeaderOptions } from '@kubernetes/client-node';
import { makeApi, type KubeClient } from './client.js';
import { EVENT_NAMESPACE, nodeEventRecorder, type EventCalls, type NodeEventRecorder } from './node-event-recorder.js';

/** The event calls of drain and run, over their client-node client. */
export function eventCalls(client: KubeClient): EventCalls {
  const events = makeApi(client.target, EventsV1Api);
  const strategic = setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);
  return {
    async create(event) {
      const body = { ...event, eventTime: new V1MicroTime(Date.parse(event.eventTime)) };
      await events.createNamespacedEvent({ namespace: EVENT_NAMESPACE, body });
    },
    async patchSeries(name, series) {
      await events.patchNamespacedEvent({ namespace: EVENT_NAMESPACE, name, body: { series } }, strategic);
    },
    nodeUid: async (node) => (await client.core.readNode({ name: node })).metadata?.uid ?? '',
  };
}

/** A recorder of node events over `client` (node-event-recorder.ts). */
export function recordNodeEvents(client: KubeClient, warn: (message: string) => void): NodeEventRecorder {
  return nodeEventRecorder(eventCalls(client), warn);
}
