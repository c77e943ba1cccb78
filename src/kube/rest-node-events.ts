import { EVENT_NAMESPACE, nodeEventRecorder, type NodeEventRecorder } from './node-event-recorder.js';
import type { KubeRest } from './rest.js';

const EVENTS = `/apis/events.k8s.io/v1/namespaces/${EVENT_NAMESPACE}/events`;

/**
 * A recorder of node events over plain requests (kube/rest.ts), for `uncordon`, which loads no Kubernetes
 * client. `uids`: each node's uid, as the command read the node (the event names the node by it).
 */
export function recordNodeEventsOverRest(
  rest: KubeRest,
  uids: ReadonlyMap<string, string>,
  warn: (message: string) => void,
): NodeEventRecorder {
  return nodeEventRecorder(
    {
      async create(event) {
        await rest.request({ method: 'POST', path: EVENTS, body: event, contentType: 'application/json' });
      },
      async patchSeries(name, series) {
        await rest.request({
          method: 'PATCH',
          path: `${EVENTS}/${encodeURIComponent(name)}`,
          body: { series },
          contentType: 'application/strategic-merge-patch+json',
        });
      },
      nodeUid: (node) => Promise.resolve(uids.get(node) ?? ''),
    },
    warn,
  );
}
