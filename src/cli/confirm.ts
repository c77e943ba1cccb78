import { createInterface } from 'node:readline/promises';
import type { KubeClient } from '../kube/client.js';
import { safeLines } from '../safe-text.js';
import type { ClusterTarget } from '../ui/proceed-question.js';

export type Answer = 'yes' | 'no' | 'interrupted';

/**
 * Whether to ask before changing the cluster: only with a person at a terminal (stdin and stderr, where
 * the question goes). kubectl drain never asks, and scripts (no terminal on stdin) rely on that.
 */
export function canAsk(): boolean {
  return Boolean(process.stdin.isTTY && process.stderr.isTTY);
}

/** Where the question is asked: the terminal's stdin and stderr. */
export interface AskStreams {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
}

/**
 * Asks `question` on stderr, without control sequences (it names the cluster's objects, as the sink's
 * lines do); y or yes goes ahead. Ctrl-C at the prompt answers 'interrupted'.
 */
export async function ask(
  question: string,
  streams: AskStreams = { input: process.stdin, output: process.stderr },
): Promise<Answer> {
  const rl = createInterface(streams);
  const interrupted = new Promise<'interrupted'>((resolve) => rl.once('SIGINT', () => resolve('interrupted')));
  try {
    const pending = rl.question(safeLines(question));
    pending.catch(() => undefined); // closing the prompt after Ctrl-C rejects the pending question
    const answer = await Promise.race([pending, interrupted]);
    if (answer === 'interrupted') return answer;
    return /^y(es)?$/i.test(answer.trim()) ? 'yes' : 'no';
  } finally {
    rl.close();
  }
}

/** The context and server a client talks to, as the question names them. */
export function clusterTarget(client: KubeClient): ClusterTarget {
  return { context: client.target.context || '(none)', server: client.target.server };
}
