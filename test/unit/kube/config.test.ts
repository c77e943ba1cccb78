import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadKubeTarget, type KubeConfigEnv, type KubeConfigFlags } from '../../../src/kube/config.js';
import { KubeError } from '../../../src/kube/errors.js';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'maint-kubeconfig-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

interface FileSpec {
  clusters?: Array<{ name: string; server: string; ca?: string; insecure?: boolean }>;
  users?: Array<{ name: string; token?: string; exec?: string }>;
  contexts?: Array<{ name: string; cluster: string; user: string; namespace?: string }>;
  current?: string;
}

/** Writes a kubeconfig as kubectl would (YAML, kebab-case keys) and returns its path. */
function kubeconfig(name: string, spec: FileSpec): string {
  const lines = ['apiVersion: v1', 'kind: Config', 'clusters:'];
  for (const c of spec.clusters ?? []) {
    lines.push(`- name: ${c.name}`, '  cluster:', `    server: ${c.server}`);
    if (c.ca) lines.push(`    certificate-authority: ${c.ca}`);
    if (c.insecure) lines.push('    insecure-skip-tls-verify: true');
  }
  lines.push('users:');
  for (const u of spec.users ?? []) {
    lines.push(`- name: ${u.name}`, '  user:');
    if (u.token) lines.push(`    token: ${u.token}`);
    if (u.exec)
      lines.push('    exec:', '      apiVersion: client.authentication.k8s.io/v1', `      command: ${u.exec}`);
  }
  lines.push('contexts:');
  for (const c of spec.contexts ?? []) {
    lines.push(`- name: ${c.name}`, '  context:', `    cluster: ${c.cluster}`, `    user: ${c.user}`);
    if (c.namespace) lines.push(`    namespace: ${c.namespace}`);
  }
  if (spec.current) lines.push(`current-context: ${spec.current}`);
  const file = path.join(dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const lab: FileSpec = {
  clusters: [{ name: 'lab', server: 'https://127.0.0.1:6443', ca: 'pki/ca.crt' }],
  users: [{ name: 'admin', token: 'admin-token' }],
  contexts: [{ name: 'lab', cluster: 'lab', user: 'admin' }],
  current: 'lab',
};

/** An environment with nothing in it but what the case sets: no KUBECONFIG, a HOME without ~/.kube. */
function env(extra: KubeConfigEnv = {}): KubeConfigEnv {
  return { HOME: dir, ...extra };
}

function failure(flags: KubeConfigFlags, environment: KubeConfigEnv): KubeError {
  try {
    loadKubeTarget(flags, environment);
  } catch (err) {
    if (err instanceof KubeError) return err;
    throw err;
  }
  throw new Error('loadKubeTarget unexpectedly succeeded');
}

describe('loadKubeTarget: which files, like kubectl', () => {
  it('reads ~/.kube/config when neither --kubeconfig nor KUBECONFIG is set', () => {
    mkdirSync(path.join(dir, '.kube'));
    kubeconfig('.kube/config', lab);
    const target = loadKubeTarget({}, env());
    expect([target.context, target.server, target.namespace]).toEqual(['lab', 'https://127.0.0.1:6443', 'default']);
  });

  it('with nothing to read, says how to fix it instead of trying localhost:8080', () => {
    const error = failure({}, env());
    expect([error.kind, error.message]).toEqual(['config', 'no kubeconfig: set KUBECONFIG or --kubeconfig']);
  });

  it('--kubeconfig replaces KUBECONFIG', () => {
    const explicit = kubeconfig('explicit.yaml', lab);
    const other = kubeconfig('other.yaml', { ...lab, clusters: [{ name: 'lab', server: 'https://10.0.0.1:6443' }] });
    expect(loadKubeTarget({ kubeconfig: explicit }, env({ KUBECONFIG: other })).server).toBe('https://127.0.0.1:6443');
  });

  it('a --kubeconfig that does not exist is an error naming it', () => {
    const missing = path.join(dir, 'nope.yaml');
    expect(failure({ kubeconfig: missing }, env()).message).toBe(
      `cannot read kubeconfig "${missing}" (--kubeconfig): no such file`,
    );
  });

  it('several KUBECONFIG files with the same cluster name merge (first file wins) instead of throwing "Duplicate cluster"', () => {
    const first = kubeconfig('a.yaml', lab);
    const second = kubeconfig('b.yaml', {
      clusters: [
        { name: 'lab', server: 'https://10.9.9.9:6443' },
        { name: 'prod', server: 'https://prod:6443' },
      ],
      users: [{ name: 'admin', token: 'other' }],
      contexts: [{ name: 'prod', cluster: 'prod', user: 'admin' }],
      current: 'prod',
    });
    const target = loadKubeTarget({}, env({ KUBECONFIG: [first, second].join(path.delimiter) }));
    expect([target.context, target.server]).toEqual(['lab', 'https://127.0.0.1:6443']);
    expect(loadKubeTarget({ context: 'prod' }, env({ KUBECONFIG: [first, second].join(path.delimiter) })).server).toBe(
      'https://prod:6443',
    );
  });

  it('current-context comes from the first file that sets one', () => {
    const first = kubeconfig('a.yaml', { ...lab, current: undefined });
    const second = kubeconfig('b.yaml', { current: 'lab' });
    expect(loadKubeTarget({}, env({ KUBECONFIG: `${first}${path.delimiter}${second}` })).context).toBe('lab');
  });

  it('files in KUBECONFIG that do not exist are skipped, as kubectl skips them', () => {
    const real = kubeconfig('a.yaml', lab);
    const target = loadKubeTarget({}, env({ KUBECONFIG: [path.join(dir, 'gone.yaml'), real].join(path.delimiter) }));
    expect(target.files).toEqual([real]);
  });

  it('KUBECONFIG naming only missing files is the no-kubeconfig error, listing them', () => {
    const gone = path.join(dir, 'gone.yaml');
    expect(failure({}, env({ KUBECONFIG: gone })).message).toBe(
      `no kubeconfig: set KUBECONFIG or --kubeconfig (none of the files in KUBECONFIG exist: ${gone})`,
    );
  });

  it('an empty file is an empty config, not a crash', () => {
    const empty = path.join(dir, 'empty.yaml');
    writeFileSync(empty, '\n');
    const real = kubeconfig('a.yaml', lab);
    expect(loadKubeTarget({}, env({ KUBECONFIG: [empty, real].join(path.delimiter) })).context).toBe('lab');
  });

  it('a file that is not YAML is one line naming the file', () => {
    const broken = path.join(dir, 'broken.yaml');
    writeFileSync(broken, 'clusters: [\n  - name: x\n');
    const error = failure({ kubeconfig: broken }, env());
    expect(error.message).toMatch(new RegExp(`^cannot read kubeconfig "${broken}": .+$`));
    expect(error.message).not.toContain('\n');
  });

  it('certificate paths are relative to the file that names them', () => {
    const file = kubeconfig('a.yaml', lab);
    const target = loadKubeTarget({ kubeconfig: file }, env());
    expect(target.kubeConfig.getCurrentCluster()?.caFile).toBe(path.join(dir, 'pki/ca.crt'));
  });
});

describe('loadKubeTarget: --context, --cluster, --user, --namespace, --insecure-skip-tls-verify', () => {
  const multi: FileSpec = {
    clusters: [
      { name: 'lab', server: 'https://127.0.0.1:6443', ca: '/pki/ca.crt' },
      { name: 'staging', server: 'https://staging:6443' },
    ],
    users: [
      { name: 'admin', token: 't' },
      { name: 'alice', exec: 'kubelogin' },
    ],
    contexts: [
      { name: 'lab', cluster: 'lab', user: 'admin', namespace: 'demo' },
      { name: 'alice', cluster: 'lab', user: 'alice' },
    ],
    current: 'lab',
  };

  it('--context replaces current-context and takes its namespace', () => {
    const file = kubeconfig('k.yaml', multi);
    const t = loadKubeTarget({ kubeconfig: file, context: 'alice' }, env());
    expect([t.context, t.user, t.namespace, t.execCommand]).toEqual(['alice', 'alice', 'default', 'kubelogin']);
  });

  it('--cluster and --user override the fields of the selected context', () => {
    const file = kubeconfig('k.yaml', multi);
    const t = loadKubeTarget({ kubeconfig: file, cluster: 'staging', user: 'alice' }, env());
    expect([t.context, t.cluster, t.user, t.server]).toEqual(['lab', 'staging', 'alice', 'https://staging:6443']);
    expect(t.kubeConfig.getCurrentCluster()?.server).toBe('https://staging:6443');
    expect(t.kubeConfig.getCurrentUser()?.name).toBe('alice');
  });

  it('--namespace overrides the context namespace', () => {
    const file = kubeconfig('k.yaml', multi);
    expect(loadKubeTarget({ kubeconfig: file }, env()).namespace).toBe('demo');
    expect(loadKubeTarget({ kubeconfig: file, namespace: 'ops' }, env()).namespace).toBe('ops');
  });

  it.each([
    { name: 'an unknown --context', flags: { context: 'nope' }, message: 'context "nope" not found in' },
    {
      name: 'an unknown --cluster',
      flags: { cluster: 'nope' },
      message: 'cluster "nope" of context "lab" not found in',
    },
    { name: 'an unknown --user', flags: { user: 'nope' }, message: 'user "nope" of context "lab" not found in' },
  ])('$name is a config error naming it', ({ flags, message }) => {
    const file = kubeconfig('k.yaml', multi);
    const error = failure({ kubeconfig: file, ...flags }, env());
    expect([error.kind, error.message]).toEqual(['config', `${message} "${file}"`]);
  });

  it('a kubeconfig without current-context asks for --context', () => {
    const file = kubeconfig('k.yaml', { ...multi, current: undefined });
    expect(failure({ kubeconfig: file }, env()).message).toBe(
      `no current context in "${file}": pass --context or run kubectl config use-context`,
    );
  });

  it('TLS verification stays on by default', () => {
    const file = kubeconfig('k.yaml', multi);
    const cluster = loadKubeTarget({ kubeconfig: file }, env()).kubeConfig.getCurrentCluster();
    expect([cluster?.skipTLSVerify, cluster?.caFile]).toEqual([false, '/pki/ca.crt']);
  });

  it('--insecure-skip-tls-verify turns verification off and drops the CA, as client-go does', () => {
    const file = kubeconfig('k.yaml', multi);
    const cluster = loadKubeTarget(
      { kubeconfig: file, insecureSkipTlsVerify: true },
      env(),
    ).kubeConfig.getCurrentCluster();
    expect([cluster?.skipTLSVerify, cluster?.caFile]).toEqual([true, undefined]);
  });

  it("the kubeconfig's own insecure-skip-tls-verify is honoured, as kubectl honours it", () => {
    const file = kubeconfig('k.yaml', {
      ...lab,
      clusters: [{ name: 'lab', server: 'https://127.0.0.1:6443', insecure: true }],
    });
    expect(loadKubeTarget({ kubeconfig: file }, env()).kubeConfig.getCurrentCluster()?.skipTLSVerify).toBe(true);
  });

  it('--request-timeout is carried to the target in milliseconds', () => {
    const file = kubeconfig('k.yaml', multi);
    expect(loadKubeTarget({ kubeconfig: file, requestTimeoutMs: 5000 }, env()).requestTimeoutMs).toBe(5000);
  });
});
