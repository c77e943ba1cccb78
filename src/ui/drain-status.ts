import { elapsedAt, type DrainProgress } from './drain-progress.js';
import { budgetWaitText } from './drain-wording.js';
import { formatClock } from './format.js';
import { plural } from '../wording.js';

/**
 * The drain in one line, for a spinner: nodes, pods done, what holds it up (the longest budget wait
 * first), elapsed time.
 *
 *   draining k8s-node-1 · 2/3 done · demo/hello-b waiting for budget demo/hello: needs 3 healthy, has 3, allowed 0 · 0:14
 */
export function drainStatusLine(progress: DrainProgress, nowMs: number): string {
  if (progress.startedAtMs === null) return 'starting the drain';
  const parts = [`draining ${progress.nodes.join(', ')}`, `${progress.counts.done}/${progress.counts.total} done`];
  const longestWait = progress.pods
    .flatMap((p) => (p.state.phase === 'waiting-for-budget' ? [{ pod: p.pod, wait: p.state }] : []))
    .sort((a, b) => a.wait.sinceMs - b.wait.sinceMs)[0];
  if (longestWait) {
    const others = progress.counts.waiting - 1;
    parts.push(
      `${longestWait.pod.namespace}/${longestWait.pod.name} waiting for ${budgetWaitText(longestWait.pod, longestWait.wait, 'short')}` +
        (others > 0 ? ` (+${plural(others, 'other')})` : ''),
    );
  } else if (progress.counts.terminating > 0) {
    parts.push(`${progress.counts.terminating} terminating`);
  }
  parts.push(formatClock(elapsedAt(progress, nowMs)));
  return parts.join(' · ');
}
