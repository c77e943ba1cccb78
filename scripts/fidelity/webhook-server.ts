/**
 * The generated clusters' admission webhooks (generate-cluster.ts), served on loopback over TLS with a
 * throwaway CA whose certificate is each webhook's caBundle. Each webhook's URL path says how it answers
 * (`/NAME/MODE/TARGET/REFUSALS`, generate-cluster.ts's WebhookMode). The real calls (admission's `dryRun`
 * false: the drain's evictions, not the dry runs it asks first) are recorded per pod, for compare.ts to set
 * beside the webhooks the plan named; a dry run is answered as the next real call would be, and not counted.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type * as Pki from '../../test/support/pki.js';
import type { WebhookMode, WebhookServer } from './generate-cluster.js';

// Imported by URL: node runs these scripts from source and resolves a .ts file only by its own name.
const { base64Of, makePki } = (await import(new URL('../../test/support/pki.ts', import.meta.url).href)) as typeof Pki;

interface Review {
  readonly request: {
    readonly uid: string;
    readonly name: string;
    readonly namespace: string;
    readonly dryRun?: boolean;
  };
}

/** What a webhook answers the `call`-th real request for a pod (1 the first). */
export function webhookAnswer(
  mode: WebhookMode,
  target: string,
  refusals: number,
  pod: { readonly namespace: string; readonly name: string },
  call: number,
): { readonly allowed: true } | { readonly allowed: false; readonly code: number; readonly message: string } {
  const targeted = pod.name.startsWith(`${target}-`);
  switch (mode) {
    case 'deny':
      return { allowed: false, code: 403, message: `evictions of ${target} pods are refused by their operator` };
    case 'wait':
      return call <= refusals
        ? { allowed: false, code: 429, message: `pod ${pod.namespace}/${pod.name} is being moved by its operator` }
        : { allowed: true };
    case 'kubevirt':
      return targeted && call <= refusals
        ? { allowed: false, code: 429, message: `Eviction triggered evacuation of VMI "${pod.namespace}/${target}"` }
        : { allowed: true };
    case 'strimzi':
      return targeted
        ? { allowed: false, code: 500, message: 'The pod will be rolled by the Strimzi Cluster Operator' }
        : { allowed: true };
  }
}

/** The webhook a request's URL names, and how it answers (`/NAME/MODE/TARGET/REFUSALS`, any query left out). */
export function webhookOfUrl(url: string): { name: string; mode: WebhookMode; target: string; refusals: number } {
  // The API server adds the webhook's timeout as a query (`?timeout=5s`).
  const { pathname } = new URL(url, 'https://127.0.0.1');
  const [name = '', mode = 'deny', target = '', refusals = '0'] = pathname.split('/').slice(1).map(decodeURIComponent);
  return { name, mode: mode as WebhookMode, target, refusals: Number(refusals) };
}

export class EvictionWebhooks {
  /** Per pod name, per webhook name, the real calls it got. */
  private readonly calls = new Map<string, Map<string, number>>();

  private readonly server: Server;
  readonly endpoint: WebhookServer;

  private constructor(server: Server, endpoint: WebhookServer) {
    this.server = server;
    this.endpoint = endpoint;
  }

  /** Serves on a free loopback port; the server does not keep the process alive. */
  static async start(): Promise<EvictionWebhooks> {
    const dir = mkdtempSync(path.join(tmpdir(), 'kubectl-maint-fidelity-webhooks-'));
    const pki = makePki(dir);
    const leaf = pki.leaf('webhook', { cn: '127.0.0.1', san: 'IP:127.0.0.1' });
    const tls = { cert: readFileSync(leaf.cert), key: readFileSync(leaf.key) };
    const caBundle = base64Of(pki.caFile);
    rmSync(dir, { recursive: true, force: true });
    const server = createServer(tls);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    server.unref();
    const port = (server.address() as AddressInfo).port;
    const self = new EvictionWebhooks(server, { url: `https://127.0.0.1:${port}`, caBundle });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const response = self.answer(req.url ?? '', JSON.parse(body) as Review);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }));
      });
    });
    return self;
  }

  /** Forgets the calls: a new cluster. */
  reset(): void {
    this.calls.clear();
  }

  /** The webhooks that got a real call for each pod, by name. */
  called(): Record<string, string[]> {
    return Object.fromEntries([...this.calls].map(([pod, hooks]) => [pod, [...hooks.keys()].sort()]));
  }

  async close(): Promise<void> {
    await new Promise((resolve) => this.server.close(resolve));
  }

  private answer(url: string, review: Review): object {
    const { name, mode, target, refusals } = webhookOfUrl(url);
    const { uid, namespace, name: pod, dryRun } = review.request;
    const made = this.calls.get(pod)?.get(name) ?? 0;
    if (dryRun !== true) (this.calls.get(pod) ?? this.calls.set(pod, new Map()).get(pod)!).set(name, made + 1);
    const a = webhookAnswer(mode, target, refusals, { namespace, name: pod }, made + 1);
    return a.allowed ? { uid, allowed: true } : { uid, allowed: false, status: { code: a.code, message: a.message } };
  }
}
