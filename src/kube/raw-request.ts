import type { KubeTarget } from './config.js';
import { ApiError } from './rest.js';
import { USER_AGENT, loadUndici } from './transport.js';
import { timeoutSignal } from '../timers.js';

/**
 * Lists and watches as raw HTTP through the target's credentials, TLS and proxy (TargetKubeConfig), without
 * client-node's typed APIs: a list of 45,000 pods spends most of its time in client-node's ObjectSerializer
 * (a walk of every field of every object against the models, and a Date per timestamp), which nothing
 * downstream needs (snapshot/types.ts: objects keep the API's JSON shape). Objects are parsed with JSON.parse
 * alone; a watch's events one line at a time.
 */

export type Query = Readonly<Record<string, string | undefined>>;

export interface RawResponse {
  readonly headers: Headers;
  readonly body: ReadableStream<Uint8Array> | null;
  text(): Promise<string>;
}

/**
 * GETs `path` with `query`; a non-2xx answer is thrown as an ApiError (code, body, headers), which
 * kube/errors.ts and read-retry.ts read. `timeout`: --request-timeout applies (a list page); a watch
 * is a long request and goes without.
 */
export async function getRaw(
  target: KubeTarget,
  path: string,
  query: Query,
  options: { readonly timeout: boolean; readonly signal?: AbortSignal | undefined },
): Promise<RawResponse> {
  const [{ fetch }, prepared] = await Promise.all([loadUndici(), target.kubeConfig.prepare()]);
  const url = new URL(target.server.replace(/\/$/, '') + path);
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
  const signals = [
    ...(options.signal ? [options.signal] : []),
    ...(options.timeout && target.requestTimeoutMs > 0 ? [timeoutSignal(target.requestTimeoutMs)] : []),
  ];
  const response = await fetch(url, {
    headers: { Accept: 'application/json', 'User-Agent': USER_AGENT, ...prepared.headers },
    dispatcher: prepared.dispatcher,
    ...(signals.length > 0 ? { signal: AbortSignal.any(signals) } : {}),
  });
  if (response.status < 200 || response.status > 299) {
    throw new ApiError(response.status, await response.text(), Object.fromEntries(response.headers));
  }
  return response as unknown as RawResponse;
}

/** Calls `onLine` with each non-empty line of `body` (a watch: one JSON event per line) as it arrives. */
export async function forEachLine(body: AsyncIterable<Uint8Array>, onLine: (line: string) => void): Promise<void> {
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of body) {
    const data: Buffer = rest.length > 0 ? Buffer.concat([rest, chunk]) : Buffer.from(chunk);
    let start = 0;
    for (let end = data.indexOf(0x0a, start); end >= 0; end = data.indexOf(0x0a, start)) {
      if (end > start) onLine(data.toString('utf8', start, end));
      start = end + 1;
    }
    // Copied: a view would keep the whole chunk alive for the piece of a line it holds.
    rest = Buffer.from(data.subarray(start));
  }
  if (rest.length > 0) onLine(rest.toString('utf8'));
}
