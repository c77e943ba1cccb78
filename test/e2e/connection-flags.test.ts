import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { makePki } from '../support/pki.js';
import { bin, unschedulable } from './drain-run.js';
import { kubectl, labConnection, labEnv, labUserCertificate, seedScenario } from './lab.js';

// kubectl's connection flags against the lab's real kube-apiserver: the credentials and impersonation
// they send are judged by its authenticator and RBAC, and a refusal leaves the cluster unchanged.

const work = mkdtempSync(path.join(tmpdir(), 'maint-conn-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs the built binary with exactly this environment's KUBECONFIG (none: no kubeconfig at all). */
async function maint(args: string[], kubeconfig: string | undefined) {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: work, NO_COLOR: '1' };
  delete env.KUBECONFIG;
  if (kubeconfig) env.KUBECONFIG = kubeconfig;
  const r = await execa(process.execPath, [bin, ...args], { reject: false, env, extendEnv: false });
  return { exitCode: r.exitCode, stdout: String(r.stdout).trim(), stderr: String(r.stderr).trim() };
}

let lab: { server: string; caFile: string };
let admin: { cert: string; key: string };

beforeAll(async () => {
  await seedScenario('hello');
  lab = await labConnection();
  admin = {
    cert: path.join(path.dirname(lab.caFile), 'admin.crt'),
    key: path.join(path.dirname(lab.caFile), 'admin.key'),
  };
  await kubectl(['uncordon', 'k8s-node-2']);
});

describe('without a kubeconfig: --server with a client certificate or a token', () => {
  it('--server, --certificate-authority, --client-certificate and --client-key plan the live cluster', async () => {
    const r = await maint(
      [
        'plan',
        'k8s-node-1',
        '--ignore-daemonsets',
        '-o',
        'json',
        '-s',
        lab.server,
        '--certificate-authority',
        lab.caFile,
        '--client-certificate',
        admin.cert,
        '--client-key',
        admin.key,
      ],
      undefined,
    );
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    expect((JSON.parse(r.stdout) as { verdict: string }).verdict).toBe('slow');
  });

  it('--token: a service account with no rights is refused by name, and the node is not cordoned', async () => {
    await kubectl(['create', 'serviceaccount', 'maint-e2e-conn', '-n', 'default'], { reject: false });
    const token = String((await kubectl(['create', 'token', 'maint-e2e-conn', '-n', 'default'])).stdout).trim();
    const r = await maint(
      ['cordon', 'k8s-node-2', '--server', lab.server, '--certificate-authority', lab.caFile, '--token', token],
      undefined,
    );
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([
      1,
      '',
      'error: forbidden: user "system:serviceaccount:default:maint-e2e-conn" cannot get nodes at the cluster scope',
    ]);
    expect(await unschedulable('k8s-node-2')).toBe(false);
  });
});

describe("TLS: the lab's serving certificate (localhost, kubernetes…, 127.0.0.1)", () => {
  it('--tls-server-name checks it against that name: kubectl line for a wrong one, a cordon for a right one', async () => {
    const kubeconfig = (await labEnv()).KUBECONFIG;
    const wrong = await maint(['cordon', 'k8s-node-2', '--tls-server-name', 'wrong.example'], kubeconfig);
    expect([wrong.exitCode, wrong.stderr]).toEqual([
      1,
      'error: unable to connect to the server: tls: failed to verify certificate: x509: certificate is valid for localhost, kubernetes, kubernetes.default, kubernetes.default.svc, kubernetes.default.svc.cluster.local, not wrong.example',
    ]);
    const right = await maint(
      ['cordon', 'k8s-node-2', '--dry-run=server', '--tls-server-name', 'kubernetes'],
      kubeconfig,
    );
    expect([right.exitCode, right.stdout]).toEqual([0, 'node/k8s-node-2 cordoned (server dry run)']);
    expect(await unschedulable('k8s-node-2')).toBe(false);
  });

  it('a CA that did not sign it: x509 unknown authority, one line, exit 1', async () => {
    const other = makePki(mkdtempSync(path.join(work, 'other-ca-'))).caFile;
    const r = await maint(
      [
        'plan',
        'k8s-node-1',
        '-s',
        lab.server,
        '--certificate-authority',
        other,
        '--client-certificate',
        admin.cert,
        '--client-key',
        admin.key,
      ],
      undefined,
    );
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([
      1,
      '',
      'error: unable to connect to the server: tls: failed to verify certificate: x509: certificate signed by unknown authority',
    ]);
  });
});

describe('impersonation: the lab admin (system:masters) may impersonate anyone', () => {
  it('--as a user with no rights gets the forbidden line naming that user, and nothing is written', async () => {
    const r = await maint(['cordon', 'k8s-node-2', '--as', 'maint-nobody'], (await labEnv()).KUBECONFIG);
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([
      1,
      '',
      'error: forbidden: user "maint-nobody" cannot get nodes at the cluster scope',
    ]);
    expect(await unschedulable('k8s-node-2')).toBe(false);
  });

  it('--as-group is sent once per group: system:masters as the second of two groups grants', async () => {
    const r = await maint(
      [
        'cordon',
        'k8s-node-2',
        '--dry-run=server',
        '--as',
        'maint-nobody',
        '--as-group',
        'maint-e2e-none',
        '--as-group',
        'system:masters',
        '--as-uid',
        '1234',
      ],
      (await labEnv()).KUBECONFIG,
    );
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, 'node/k8s-node-2 cordoned (server dry run)', '']);
    expect(await unschedulable('k8s-node-2')).toBe(false);
  });
});

describe('--context, --cluster and --user choose from the kubeconfig', () => {
  let kubeconfig = '';
  let deadPort = 0;
  beforeAll(async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    deadPort = (probe.address() as net.AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const nobody = await labUserCertificate('maint-nobody', work);
    const b64 = (file: string) => readFileSync(file).toString('base64');
    const ca = b64(lab.caFile);
    kubeconfig = path.join(work, 'multi.kubeconfig');
    writeFileSync(
      kubeconfig,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          { name: 'lab', cluster: { server: lab.server, 'certificate-authority-data': ca } },
          { name: 'dead', cluster: { server: `https://127.0.0.1:${deadPort}`, 'certificate-authority-data': ca } },
        ],
        users: [
          { name: 'admin', user: { 'client-certificate-data': b64(admin.cert), 'client-key-data': b64(admin.key) } },
          { name: 'nobody', user: { 'client-certificate-data': b64(nobody.cert), 'client-key-data': b64(nobody.key) } },
        ],
        contexts: [
          { name: 'dead-admin', context: { cluster: 'dead', user: 'admin' } },
          { name: 'lab-nobody', context: { cluster: 'lab', user: 'nobody' } },
        ],
        'current-context': 'dead-admin',
      }),
    );
  });

  const plan = (...flags: string[]) =>
    maint(['plan', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json', ...flags], kubeconfig);

  it('the current context points at a closed port: kubectl line, exit 1', async () => {
    expect(await plan()).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: `error: the connection to the server 127.0.0.1:${deadPort} was refused - did you specify the right host or port?`,
    });
  });

  it('--cluster replaces the context cluster', async () => {
    expect((await plan('--cluster', 'lab')).exitCode).toBe(0);
  });

  it('--context picks another context (its user may not list nodes), --user replaces its user', async () => {
    expect(await plan('--context', 'lab-nobody')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'error: forbidden: user "maint-nobody" cannot list nodes at the cluster scope',
    });
    expect((await plan('--context', 'lab-nobody', '--user', 'admin')).exitCode).toBe(0);
  });
});
