import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http2 from 'node:http2';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createKubeClient, resolveCredentials } from '../../../src/kube/client.js';
import { loadKubeTarget, type KubeConfigFlags } from '../../../src/kube/config.js';
import { restNodeCalls } from '../../../src/kube/cordon.js';
import { loadKubeConnection } from '../../../src/kube/kubeconfig.js';
import { createRest } from '../../../src/kube/rest.js';
import { classifyKubeError } from '../../../src/kube/errors.js';
import { alive, base64Of, makePki, type Pki } from '../../support/pki.js';

// kubectl's connection flags and the kubeconfig fields behind them, against real TLS servers on loopback
// with a PKI made by openssl: what reaches the server (credentials, impersonation headers, client
// certificate), and the one line each failure gives. No request may leave when the configuration is bad.

const dir = mkdtempSync(path.join(tmpdir(), 'maint-connection-'));
let pki: Pki;
/** Serves 127.0.0.1 with a certificate valid for IP 127.0.0.1. */
let byIp: ApiServer;
/** Serves 127.0.0.1 with a certificate valid only for the name maint.example. */
let byName: ApiServer;
let client: { cert: string; key: string };
let other: { cert: string; key: string };

interface ApiServer {
  readonly url: string;
  /** Each request's raw header lines and the client certificate's CN, in arrival order. */
  readonly seen: Array<{ headers: string[]; clientCn: string | undefined }>;
  close(): void;
}

async function apiServer(cert: string, key: string): Promise<ApiServer> {
  const seen: ApiServer['seen'] = [];
  // HTTP/2 first, as kube-apiserver offers it: repeated headers must survive it too.
  const server = http2.createSecureServer(
    {
      cert: readFileSync(cert),
      key: readFileSync(key),
      ca: readFileSync(pki.caFile),
      requestCert: true,
      rejectUnauthorized: false,
      allowHTTP1: true,
    },
    (req, res) => {
      const cn = (req.socket as TLSSocket).getPeerCertificate().subject?.CN;
      seen.push({ headers: req.rawHeaders, clientCn: Array.isArray(cn) ? cn.join(',') : cn });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ kind: 'NodeList', apiVersion: 'v1', metadata: {}, items: [] }));
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    seen,
    close: () => server.close(),
  };
}

beforeAll(async () => {
  pki = makePki(dir);
  const ip = pki.leaf('ip', { cn: 'ip', san: 'IP:127.0.0.1' });
  const name = pki.leaf('name', { cn: 'name', san: 'DNS:maint.example' });
  client = pki.leaf('client', { cn: 'maint-client', clientAuth: true });
  other = pki.leaf('other', { cn: 'maint-other', clientAuth: true });
  byIp = await apiServer(ip.cert, ip.key);
  byName = await apiServer(name.cert, name.key);
});
afterAll(() => {
  byIp?.close();
  byName?.close();
  rmSync(dir, { recursive: true, force: true });
});

let files = 0;
/** Writes a kubeconfig with one context `ctx` for cluster `c` and user `u`. */
function kubeconfig(cluster: Record<string, unknown>, user: Record<string, unknown>): string {
  const file = path.join(dir, `kubeconfig-${++files}`);
  writeFileSync(
    file,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster }],
      users: [{ name: 'u', user }],
      contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'ctx',
    }),
  );
  return file;
}

/** One way the commands reach the API server: client-node's typed API, or plain requests (kube/rest.ts). */
interface Transport {
  /** Lists nodes, `times` of them at once, as the commands do; the error line if it fails. */
  listNodes(flags: KubeConfigFlags, times?: number): Promise<{ error?: string; kind?: string }>;
}

const transports: Record<string, Transport> = {
  "client-node's typed API (plan, drain, run)": {
    async listNodes(flags, times = 1) {
      let target;
      try {
        target = loadKubeTarget(flags, { HOME: dir });
        await resolveCredentials(target);
        const api = createKubeClient(target).core;
        await Promise.all(Array.from({ length: times }, () => api.listNode()));
        return {};
      } catch (err) {
        const error = classifyKubeError(err, target);
        return { error: error.message, kind: error.kind };
      }
    },
  },
  'plain requests of kube/rest.ts (cordon, uncordon, completion)': {
    async listNodes(flags, times = 1) {
      let target;
      try {
        target = loadKubeConnection(flags, { HOME: dir });
        const rest = createRest(target);
        await Promise.all(Array.from({ length: times }, () => restNodeCalls(rest).listNodeNames('')));
        return {};
      } catch (err) {
        const error = classifyKubeError(err, target);
        return { error: error.message, kind: error.kind };
      }
    },
  },
};

/** The values of one header in the last request a server saw, one entry per header line. */
function headerLines(server: ApiServer, name: string): string[] {
  const raw = server.seen.at(-1)?.headers ?? [];
  const values: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === name.toLowerCase()) values.push(raw[i + 1]!);
  return values;
}

describe.each(Object.entries(transports))('over %s', (_name, { listNodes }) => {
  describe('--request-timeout covers connect, TLS handshake and answer', () => {
    it('a server that accepts and never answers fails at the timeout, and the connection is closed then', async () => {
      let closed: Promise<number> | undefined;
      const blackHole = net.createServer((socket) => {
        closed = new Promise((resolve) => socket.on('close', () => resolve(Date.now())));
        socket.on('error', () => {});
        socket.resume(); // read, so that the client's close is seen
      });
      await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
      try {
        const server = `https://127.0.0.1:${(blackHole.address() as net.AddressInfo).port}`;
        const file = kubeconfig({ server, 'certificate-authority': pki.caFile }, { token: 't' });
        const start = Date.now();
        const result = await listNodes({ kubeconfig: file, requestTimeoutMs: 1000 });
        expect(result).toEqual({
          kind: 'timeout',
          error: 'Unable to connect to the server: timed out after 1s (--request-timeout)',
        });
        // Before: the handshake's socket stayed open until undici's own 10 s connect timeout and held the
        // process (10.9 s for a 1 s --request-timeout). Now it is closed with the request.
        const closedAt = await closed!;
        expect(closedAt - start).toBeLessThan(5000);
      } finally {
        blackHole.close();
      }
    });
  });

  describe('the exec credential plugin', () => {
    function plugin(name: string, body: string): string {
      const file = path.join(dir, name);
      writeFileSync(file, `#!/bin/sh\n${body}\n`);
      chmodSync(file, 0o755);
      return file;
    }
    const execUser = (command: string) => ({
      exec: { apiVersion: 'client.authentication.k8s.io/v1', command, interactiveMode: 'Never' },
    });

    it('that hangs is stopped at --request-timeout, with one line saying so', async () => {
      const pidFile = path.join(dir, 'hang.pid');
      const hang = plugin('hang.sh', `echo $$ > ${pidFile}\nexec sleep 600`);
      const file = kubeconfig({ server: byIp.url, 'certificate-authority': pki.caFile }, execUser(hang));
      const before = byIp.seen.length;
      const result = await listNodes({ kubeconfig: file, requestTimeoutMs: 1000 });
      expect(result).toEqual({
        kind: 'unauthorized',
        error: `cannot get credentials for user "u" from "${hang}": did not finish within 1s (--request-timeout) and was stopped`,
      });
      expect(byIp.seen.length).toBe(before);
      const pid = Number(readFileSync(pidFile, 'utf8'));
      await until(() => !alive(pid));
    });

    it('that is not installed, or fails, is one line naming it (with the first line it wrote)', async () => {
      const missing = path.join(dir, 'no-such-plugin');
      const failing = plugin('fail.sh', 'echo "error: token expired, run login" >&2\necho more >&2\nexit 3');
      const file = (command: string) =>
        kubeconfig({ server: byIp.url, 'certificate-authority': pki.caFile }, execUser(command));
      expect(await listNodes({ kubeconfig: file(missing) })).toEqual({
        kind: 'unauthorized',
        error: `cannot get credentials for user "u": command "${missing}" not found (check users[].exec in the kubeconfig)`,
      });
      expect(await listNodes({ kubeconfig: file(failing) })).toEqual({
        kind: 'unauthorized',
        error: `cannot get credentials for user "u" from "${failing}": error: token expired, run login (exit code 3)`,
      });
    });

    it('runs once for parallel requests, and its token is sent', async () => {
      const count = path.join(mkdtempSync(path.join(dir, 'runs-')), 'runs'); // one per transport
      const ok = plugin(
        'ok.sh',
        `echo run >> ${count}\necho '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"from-plugin"}}'`,
      );
      const file = kubeconfig({ server: byIp.url, 'certificate-authority': pki.caFile }, execUser(ok));
      expect(await listNodes({ kubeconfig: file }, 3)).toEqual({});
      expect(readFileSync(count, 'utf8').trim().split('\n')).toHaveLength(1);
      expect(headerLines(byIp, 'Authorization')).toEqual(['Bearer from-plugin']);
    });

    it('answering another apiVersion is refused with client-go message', async () => {
      const v1beta1 = plugin(
        'beta.sh',
        `echo '{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"x"}}'`,
      );
      const file = kubeconfig({ server: byIp.url, 'certificate-authority': pki.caFile }, execUser(v1beta1));
      expect((await listNodes({ kubeconfig: file })).error).toBe(
        `cannot get credentials for user "u" from "${v1beta1}": exec plugin is configured to use API version client.authentication.k8s.io/v1, plugin returned version client.authentication.k8s.io/v1beta1`,
      );
    });

    it('is not run when --token is given (client-go runs it only without token, basic auth or certificate)', async () => {
      const never = plugin('never.sh', 'exit 1');
      const file = kubeconfig({ server: byIp.url, 'certificate-authority': pki.caFile }, execUser(never));
      expect(await listNodes({ kubeconfig: file, token: 'flag-token' })).toEqual({});
      expect(headerLines(byIp, 'Authorization')).toEqual(['Bearer flag-token']);
    });
  });

  describe('credentials and TLS material from the kubeconfig', () => {
    it('tokenFile is read (relative to the kubeconfig) and sent', async () => {
      writeFileSync(path.join(dir, 'token'), 'from-file\n');
      const file = kubeconfig({ server: byIp.url, 'certificate-authority': pki.caFile }, { tokenFile: 'token' });
      expect(await listNodes({ kubeconfig: file })).toEqual({});
      expect(headerLines(byIp, 'Authorization')).toEqual(['Bearer from-file']);
    });

    it('a missing tokenFile is an error naming the file, and no anonymous request is sent', async () => {
      const missing = path.join(dir, 'no-such-token');
      const file = kubeconfig({ server: byIp.url, 'certificate-authority': pki.caFile }, { tokenFile: missing });
      const before = byIp.seen.length;
      expect(await listNodes({ kubeconfig: file })).toEqual({
        kind: 'config',
        error: `cannot read tokenFile "${missing}" of user "u": no such file or directory`,
      });
      expect(byIp.seen.length).toBe(before);
    });

    it.each([
      {
        name: 'client-key-data that is not PEM',
        key: () => Buffer.from('not a key').toString('base64'),
        error: 'client-key-data of user "u": tls: failed to find any PEM data in key input',
      },
      {
        name: 'client-key-data of another certificate',
        key: () => base64Of(other.key),
        error: 'client-key-data of user "u": tls: private key does not match public key',
      },
      {
        name: 'client-key-data that is not base64',
        key: () => 'LS0t*LS1C',
        error: 'client-key-data of user "u": illegal base64 data at input byte 4',
      },
    ])('$name says what kubectl says, and sends nothing', async ({ key, error }) => {
      const file = kubeconfig(
        { server: byIp.url, 'certificate-authority': pki.caFile },
        { 'client-certificate-data': base64Of(client.cert), 'client-key-data': key() },
      );
      const before = byIp.seen.length;
      expect(await listNodes({ kubeconfig: file })).toEqual({ kind: 'config', error });
      expect(byIp.seen.length).toBe(before);
    });

    it('a cluster with both a CA and insecure-skip-tls-verify is refused with client-go message', async () => {
      const file = kubeconfig(
        { server: byIp.url, 'certificate-authority-data': base64Of(pki.caFile), 'insecure-skip-tls-verify': true },
        { token: 't' },
      );
      expect(await listNodes({ kubeconfig: file })).toEqual({
        kind: 'config',
        error: `specifying a root certificates file with the insecure flag is not allowed (cluster "c" in "${file}" sets certificate-authority and insecure-skip-tls-verify)`,
      });
    });

    it("a server certificate for other names is Go's x509 hostname error", async () => {
      const file = kubeconfig({ server: byName.url, 'certificate-authority': pki.caFile }, { token: 't' });
      expect(await listNodes({ kubeconfig: file })).toEqual({
        kind: 'tls',
        error:
          "Unable to connect to the server: tls: failed to verify certificate: x509: cannot validate certificate for 127.0.0.1 because it doesn't contain any IP SANs",
      });
    });
  });

  describe("kubectl's connection flags over the kubeconfig", () => {
    it('--server, --token and --certificate-authority need no kubeconfig at all', async () => {
      expect(existsSync(path.join(dir, '.kube'))).toBe(false);
      expect(await listNodes({ server: byIp.url, token: 'flag-token', certificateAuthority: pki.caFile })).toEqual({});
      expect(headerLines(byIp, 'Authorization')).toEqual(['Bearer flag-token']);
    });

    it('--token replaces the kubeconfig token and its tokenFile (which is then not read)', async () => {
      const file = kubeconfig(
        { server: byIp.url, 'certificate-authority': pki.caFile },
        { token: 'file-token', tokenFile: path.join(dir, 'absent') },
      );
      expect(await listNodes({ kubeconfig: file, token: 'flag-token' })).toEqual({});
      expect(headerLines(byIp, 'Authorization')).toEqual(['Bearer flag-token']);
    });

    it('--client-certificate and --client-key replace the kubeconfig certificate data', async () => {
      const file = kubeconfig(
        { server: byIp.url, 'certificate-authority': pki.caFile },
        { 'client-certificate-data': base64Of(other.cert), 'client-key-data': base64Of(other.key) },
      );
      expect(await listNodes({ kubeconfig: file })).toEqual({});
      expect(byIp.seen.at(-1)?.clientCn).toBe('maint-other');
      expect(await listNodes({ kubeconfig: file, clientCertificate: client.cert, clientKey: client.key })).toEqual({});
      expect(byIp.seen.at(-1)?.clientCn).toBe('maint-client');
    });

    it('--as, --as-group (one header line per group) and --as-uid send the impersonation headers', async () => {
      const file = kubeconfig({ server: byIp.url, 'certificate-authority': pki.caFile }, { token: 't' });
      const flags = { kubeconfig: file, as: 'alice', asGroups: ['ops', 'on call'], asUid: '42' };
      expect(await listNodes(flags)).toEqual({});
      expect(headerLines(byIp, 'Impersonate-User')).toEqual(['alice']);
      expect(headerLines(byIp, 'Impersonate-Group')).toEqual(['ops', 'on call']);
      expect(headerLines(byIp, 'Impersonate-Uid')).toEqual(['42']);
    });

    it("the kubeconfig's as and as-groups are honoured, and --as-group without --as is refused as by client-go", async () => {
      const file = kubeconfig(
        { server: byIp.url, 'certificate-authority': pki.caFile },
        { token: 't', as: 'bob', 'as-groups': ['devs'] },
      );
      expect(await listNodes({ kubeconfig: file })).toEqual({});
      expect([headerLines(byIp, 'Impersonate-User'), headerLines(byIp, 'Impersonate-Group')]).toEqual([
        ['bob'],
        ['devs'],
      ]);
      const plain = kubeconfig({ server: byIp.url, 'certificate-authority': pki.caFile }, { token: 't' });
      expect(await listNodes({ kubeconfig: plain, asGroups: ['ops'] })).toEqual({
        kind: 'config',
        error: 'requesting uid, groups or user-extra for u without impersonating a user (add --as)',
      });
    });

    it('--tls-server-name verifies the certificate against that name', async () => {
      const file = kubeconfig({ server: byName.url, 'certificate-authority': pki.caFile }, { token: 't' });
      expect(await listNodes({ kubeconfig: file, tlsServerName: 'maint.example' })).toEqual({});
      expect((await listNodes({ kubeconfig: file, tlsServerName: 'other.example' })).error).toBe(
        'Unable to connect to the server: tls: failed to verify certificate: x509: certificate is valid for maint.example, not other.example',
      );
    });

    it('--certificate-authority replaces the CA, --insecure-skip-tls-verify drops it', async () => {
      const unknownCa = makePki(mkdtempSync(path.join(dir, 'other-ca-'))).caFile;
      const file = kubeconfig({ server: byIp.url, 'certificate-authority': unknownCa }, { token: 't' });
      expect((await listNodes({ kubeconfig: file })).error).toBe(
        'Unable to connect to the server: tls: failed to verify certificate: x509: certificate signed by unknown authority',
      );
      expect(await listNodes({ kubeconfig: file, certificateAuthority: pki.caFile })).toEqual({});
      expect(await listNodes({ kubeconfig: file, insecureSkipTlsVerify: true })).toEqual({});
    });
  });
});

/** Waits for a condition on state, polling; the test's own timeout bounds it. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 50));
}
