import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiException, CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApi } from '../../../src/kube/client.js';
import { loadKubeTarget, type KubeTarget } from '../../../src/kube/config.js';
import { restNodeCalls } from '../../../src/kube/cordon.js';
import { createRest } from '../../../src/kube/rest.js';
import { classifyKubeError, KubeError, type KubeCall, type KubeTargetInfo } from '../../../src/kube/errors.js';
import { base64Of, makePki, type Pki } from '../../support/pki.js';

const target: KubeTargetInfo = {
  context: 'lab-alice',
  user: 'alice',
  server: 'https://127.0.0.1:6443',
  requestTimeoutMs: 0,
};
const listPods: KubeCall = { verb: 'list', resource: 'pods' };

/** The Status body the API server sends, as client-node 2.x hands it over: a JSON string. */
function statusBody(code: number, reason: string, message: string): string {
  return JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
}

interface StatusCase {
  name: string;
  code: number;
  body: unknown;
  call?: KubeCall;
  kind: KubeError['kind'];
  message: string;
}

describe('classifyKubeError: answers from the API server', () => {
  const cases: StatusCase[] = [
    {
      name: 'an RBAC denial at the cluster scope names the user, verb and resource',
      code: 403,
      body: statusBody(
        403,
        'Forbidden',
        'pods is forbidden: User "alice" cannot list resource "pods" in API group "" at the cluster scope',
      ),
      call: listPods,
      kind: 'forbidden',
      message: 'forbidden: user "alice" cannot list pods at the cluster scope',
    },
    {
      name: 'an RBAC denial on a grouped resource uses kubectl resource.group form',
      code: 403,
      body: statusBody(
        403,
        'Forbidden',
        'poddisruptionbudgets.policy is forbidden: User "alice" cannot list resource "poddisruptionbudgets" in API group "policy" at the cluster scope',
      ),
      kind: 'forbidden',
      message: 'forbidden: user "alice" cannot list poddisruptionbudgets.policy at the cluster scope',
    },
    {
      name: 'an RBAC denial in a namespace names the namespace',
      code: 403,
      body: statusBody(
        403,
        'Forbidden',
        'pods "hello-1" is forbidden: User "system:serviceaccount:ops:drainer" cannot create resource "pods/eviction" in API group "" in the namespace "demo"',
      ),
      kind: 'forbidden',
      message: 'forbidden: user "system:serviceaccount:ops:drainer" cannot create pods/eviction in namespace "demo"',
    },
    {
      name: 'a 403 that is not RBAC (admission) keeps the server message',
      code: 403,
      body: statusBody(
        403,
        'Forbidden',
        'pods "x" is forbidden: unable to create new content in namespace demo because it is being terminated',
      ),
      kind: 'forbidden',
      message:
        'forbidden: pods "x" is forbidden: unable to create new content in namespace demo because it is being terminated',
    },
    {
      name: 'a 403 without a body falls back to what the call was doing',
      code: 403,
      body: undefined,
      call: listPods,
      kind: 'forbidden',
      message: 'forbidden: user "alice" cannot list pods at the cluster scope',
    },
    {
      name: 'a 401 (client-node passes no body) points at the credentials of the context',
      code: 401,
      body: undefined,
      kind: 'unauthorized',
      message: 'unauthorized: check your credentials for context "lab-alice" (user "alice")',
    },
    {
      name: 'a 404 keeps the server message',
      code: 404,
      body: statusBody(404, 'NotFound', 'the server could not find the requested resource'),
      kind: 'not-found',
      message: 'not found: the server could not find the requested resource',
    },
    {
      name: 'a 410 on a continue token is "expired", so the pager can start over',
      code: 410,
      body: statusBody(
        410,
        'Expired',
        'The provided continue parameter is too old to display a consistent list result.',
      ),
      kind: 'expired',
      message: 'expired: The provided continue parameter is too old to display a consistent list result.',
    },
    {
      name: 'a 429 keeps the budget message the eviction API sends',
      code: 429,
      body: statusBody(429, 'TooManyRequests', "Cannot evict pod as it would violate the pod's disruption budget."),
      kind: 'too-many-requests',
      message: "too many requests: Cannot evict pod as it would violate the pod's disruption budget.",
    },
    {
      name: 'a 500 names the server, the call and the status code',
      code: 500,
      body: statusBody(500, 'InternalError', 'etcdserver: request timed out\nmore detail'),
      call: listPods,
      kind: 'server',
      message:
        'the server at https://127.0.0.1:6443 could not list pods at the cluster scope: etcdserver: request timed out (HTTP 500)',
    },
    {
      name: 'a body that is not JSON is used as the message, first line only',
      code: 502,
      body: 'Bad Gateway\n<html>…</html>',
      kind: 'server',
      message: 'the server at https://127.0.0.1:6443 failed the request: Bad Gateway (HTTP 502)',
    },
  ];

  it.each(cases)('$name', ({ code, body, call, kind, message }) => {
    const error = classifyKubeError(new ApiException(code, 'Unknown API Status Code!', body, {}), target, call);
    expect(error).toBeInstanceOf(KubeError);
    expect({ kind: error.kind, status: error.status, message: error.message }).toEqual({ kind, status: code, message });
  });
});

/** A target loaded by loadKubeTarget from a kubeconfig pointing at `server`, with the CA given (or none). */
function targetFor(server: string, options: { caData?: string; requestTimeoutMs?: number } = {}): KubeTarget {
  const dir = mkdtempSync(path.join(tmpdir(), 'maint-target-'));
  const file = path.join(dir, 'kubeconfig');
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: c',
      '  cluster:',
      `    server: ${server}`,
      ...(options.caData ? [`    certificate-authority-data: ${options.caData}`] : []),
      'users:',
      '- name: u',
      '  user: {token: token}',
      'contexts:',
      '- name: ctx',
      '  context: {cluster: c, user: u}',
      'current-context: ctx',
      '',
    ].join('\n'),
  );
  try {
    return loadKubeTarget({ kubeconfig: file, requestTimeoutMs: options.requestTimeoutMs ?? 0 }, { HOME: dir });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Lists nodes as the commands do: over client-node's typed API, or over plain requests (kube/rest.ts). */
const transports: Record<string, (t: KubeTarget) => Promise<readonly unknown[]>> = {
  "client-node's typed API (plan, drain, run)": async (t) => (await makeApi(t, CoreV1Api).listNode()).items,
  'plain requests of kube/rest.ts (cordon, uncordon, completion)': (t) =>
    restNodeCalls(createRest(t)).listNodeNames(''),
};

/** Makes a real request and classifies what it throws. */
async function failureOf(list: (t: KubeTarget) => Promise<unknown>, t: KubeTarget): Promise<KubeError> {
  try {
    await list(t);
  } catch (err) {
    return classifyKubeError(err, t, { verb: 'list', resource: 'nodes' });
  }
  throw new Error('the request unexpectedly succeeded');
}

function listen<S extends net.Server>(server: S): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
  );
}

describe.each(Object.entries(transports))('over %s', (_name, list) => {
  describe('classifyKubeError: failures before any answer (real sockets on loopback)', () => {
    const servers: net.Server[] = [];
    let workDir = '';
    afterAll(() => {
      for (const s of servers) s.close();
      if (workDir) rmSync(workDir, { recursive: true, force: true });
    });

    it('a closed port is kubectl\'s "connection … was refused" line', async () => {
      const probe = net.createServer();
      const port = await listen(probe);
      await new Promise((resolve) => probe.close(resolve));
      const error = await failureOf(list, targetFor(`https://127.0.0.1:${port}`));
      expect({ kind: error.kind, message: error.message }).toEqual({
        kind: 'unreachable',
        message: `The connection to the server 127.0.0.1:${port} was refused - did you specify the right host or port?`,
      });
    });

    it('a server that never answers hits --request-timeout', async () => {
      const silent = net.createServer(() => {});
      servers.push(silent);
      const port = await listen(silent);
      const error = await failureOf(list, targetFor(`https://127.0.0.1:${port}`, { requestTimeoutMs: 300 }));
      expect({ kind: error.kind, message: error.message }).toEqual({
        kind: 'timeout',
        message: 'Unable to connect to the server: timed out after 300ms (--request-timeout)',
      });
    });

    it('an https:// address served in plain HTTP is a TLS failure that says so', async () => {
      const plain = http.createServer((_req, res) => res.end('{}'));
      servers.push(plain);
      const port = await listen(plain);
      const error = await failureOf(list, targetFor(`https://127.0.0.1:${port}`));
      expect({ kind: error.kind, message: error.message }).toEqual({
        kind: 'tls',
        message: 'Unable to connect to the server: http: server gave HTTP response to HTTPS client',
      });
    });

    describe('with a server certificate from a CA the kubeconfig does not name', () => {
      let port = 0;
      let pki: Pki;
      beforeAll(async () => {
        workDir = mkdtempSync(path.join(tmpdir(), 'maint-tls-'));
        pki = makePki(workDir);
        const { key, cert } = pki.leaf('server', { cn: '127.0.0.1', san: 'IP:127.0.0.1' });
        const server = https.createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) => {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ kind: 'NodeList', apiVersion: 'v1', metadata: {}, items: [] }));
        });
        servers.push(server);
        port = await listen(server);
      });

      it('is "certificate signed by unknown authority", and verification is never skipped silently', async () => {
        const error = await failureOf(list, targetFor(`https://127.0.0.1:${port}`));
        expect({ kind: error.kind, message: error.message }).toEqual({
          kind: 'tls',
          message:
            'Unable to connect to the server: tls: failed to verify certificate: x509: certificate signed by unknown authority',
        });
      });

      it('succeeds once the kubeconfig names that CA', async () => {
        const caData = base64Of(pki.caFile);
        expect(await list(targetFor(`https://127.0.0.1:${port}`, { caData }))).toEqual([]);
      });
    });
  });
});

describe('classifyKubeError: local failures', () => {
  it('a fetch failure with an uncoded cause says what the cause says, never "fetch failed"', () => {
    const error = classifyKubeError(new TypeError('fetch failed', { cause: new Error('other side closed') }), target);
    expect({ kind: error.kind, message: error.message }).toEqual({
      kind: 'unreachable',
      message: 'Unable to connect to the server: other side closed',
    });
  });

  it('a KubeError passes through unchanged', () => {
    const original = new KubeError('config', 'no kubeconfig: set KUBECONFIG or --kubeconfig');
    expect(classifyKubeError(original, target)).toBe(original);
  });

  it('anything else becomes one line naming the server and the call', () => {
    const error = classifyKubeError(new RangeError('weird\nstack'), target, listPods);
    expect({ kind: error.kind, message: error.message }).toEqual({
      kind: 'unknown',
      message: 'request to https://127.0.0.1:6443 failed (list pods): weird',
    });
  });
});

describe('classifyKubeError: a server on a port fetch refuses to dial', () => {
  it('names the port, says nothing was sent, and what to change', async () => {
    const server = 'https://127.0.0.1:9';
    const err = await fetch(server).then(
      () => undefined,
      (e: unknown) => e,
    );
    const classified = classifyKubeError(err, { ...target, server });
    expect(classified.kind).toBe('unreachable');
    expect(classified.message).toBe(
      'Unable to connect to the server: 127.0.0.1:9: never dialled: port 9 is on the list of ports Node.js ' +
        "(like a browser) refuses to connect to (the Fetch standard's blocked ports); serve the API server on " +
        'another port, or reach it through kubectl proxy',
    );
  });
});
