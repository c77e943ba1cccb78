/**
 * The lab's `hello` scenario as fixtures: a tainted control-plane node, two workers, DaemonSet pods that
 * tolerate everything, and the `demo/hello` Deployment spread one per hostname (maxSkew 1,
 * DoNotSchedule, matchLabelKeys [pod-template-hash]) with two replicas on each worker.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { makeNode, makePod } from '../../builders.js';

export const HELLO_LABELS = { app: 'hello', 'pod-template-hash': '5d9c7b' } as const;

export const helloNodes = () => [
  makeNode().name('k8s-master-1').controlPlane().obj(),
  makeNode().name('k8s-node-1').obj(),
  makeNode().name('k8s-node-2').obj(),
];

/** A hello replica; `nodeTaintsPolicy` undefined leaves the default (Ignore), as in `hello-ignore`. */
export function helloPod(name: string, node: string, nodeTaintsPolicy?: 'Honor' | 'Ignore'): V1Pod {
  return makePod()
    .name(name)
    .ns('demo')
    .node(node)
    .label('app', 'hello')
    .spread(1, 'kubernetes.io/hostname', {
      matchLabelKeys: ['pod-template-hash'],
      ...(nodeTaintsPolicy ? { nodeTaintsPolicy } : {}),
    })
    .labels(HELLO_LABELS)
    .owner('ReplicaSet', 'hello-5d9c7b')
    .requests('100m', '64Mi')
    .defaultTolerations(60)
    .obj();
}

/** kube-proxy and a CNI agent on every node, tolerating every taint. */
export const daemonPods = (nodes: readonly string[]) =>
  nodes.flatMap((node) =>
    ['kube-proxy', 'cni-agent'].map((app) =>
      makePod()
        .name(`${app}-${node}`)
        .ns('kube-system')
        .node(node)
        .label('app', app)
        .owner('DaemonSet', app)
        .tolerateEverything()
        .requests('100m', '50Mi')
        .obj(),
    ),
  );

export function helloPods(nodeTaintsPolicy?: 'Honor' | 'Ignore'): V1Pod[] {
  return [
    helloPod('hello-a', 'k8s-node-1', nodeTaintsPolicy),
    helloPod('hello-b', 'k8s-node-1', nodeTaintsPolicy),
    helloPod('hello-c', 'k8s-node-2', nodeTaintsPolicy),
    helloPod('hello-d', 'k8s-node-2', nodeTaintsPolicy),
  ];
}
