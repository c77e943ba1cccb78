import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { loadKubeConnection } from '../../../src/kube/kubeconfig.js';

/**
 * src/kube/kubeconfig.ts reads the kubeconfig itself (the short commands do not load client-node) and
 * claims client-node's shapes. Every fixture in test/fixtures/kubeconfig, each of its contexts, loaded
 * through both: the same cluster (server, CA, TLS settings, proxy), the same user (certificates, keys,
 * token, exec and auth-provider stanzas, basic auth, impersonation) and the same context.
 *
 * Deliberate differences, each checked below so that the list stays true:
 * - kubectl's own user fields client-node does not read: `tokenFile` (resolved against the kubeconfig's
 *   directory), `as-groups`, `as-uid`, `as-user-extra`; they are honoured, as kubectl honours them.
 * - A cluster with both a CA and `insecure-skip-tls-verify` is refused, as client-go's transport refuses it;
 *   client-node loads it.
 * - Several files (KUBECONFIG=a:b) merge as kubectl merges them, the first file to set a value winning;
 *   client-node throws on a name defined twice (test/unit/kube/config.test.ts).
 */
const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/kubeconfig');
const fixtures = readdirSync(FIXTURES).filter((file) => file.endsWith('.yaml'));
/** No ~/.kube/config, no proxy from the environment: only the file speaks. */
const ENV = { HOME: '/nonexistent' };

/** Absent and null are the same to both readers' callers; the comparison ignores the difference. */
function present(object: object | null | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object ?? {}).filter(([, value]) => value !== null && value !== undefined));
}

function clientNode(file: string, context: string): KubeConfig {
  const config = new KubeConfig();
  config.loadFromFile(file);
  config.setCurrentContext(context);
  return config;
}

const cases = fixtures.flatMap((fixture) => {
  const file = path.join(FIXTURES, fixture);
  return clientNode(file, '')
    .getContexts()
    .map((context) => [fixture, context.name, file] as const);
});

describe('the kubeconfig loader against client-node', () => {
  it('has fixtures to compare', () => {
    expect(cases.length).toBeGreaterThanOrEqual(fixtures.length);
    expect(fixtures.length).toBeGreaterThanOrEqual(7);
  });

  it.each(cases)('%s, context %s: same cluster, user and context', (_fixture, context, file) => {
    const ours = loadKubeConnection({ kubeconfig: file, context }, ENV).effective;
    const theirs = clientNode(file, context);
    expect(present(ours.cluster)).toEqual(present(theirs.getCurrentCluster()));
    const theirUser = theirs.getCurrentUser();
    // A context without a user: client-node has none, ours is an empty one named as client-go names it.
    if (theirUser === null) expect(present(ours.user)).toEqual({ name: 'user' });
    else expect(present(ours.user)).toEqual(present(theirUser));
    expect(present(ours.context)).toEqual(present({ ...theirs.getContextObject(context), user: ours.user.name }));
  });

  it('reads the exec and auth-provider stanzas as client-node does, field for field', () => {
    const exec = loadKubeConnection({ kubeconfig: path.join(FIXTURES, 'exec.yaml') }, ENV).effective.user.exec;
    expect(exec).toEqual(clientNode(path.join(FIXTURES, 'exec.yaml'), 'eks').getCurrentUser()?.exec);
    expect(exec).toMatchObject({ command: 'aws', provideClusterInfo: true, interactiveMode: 'IfAvailable' });
    const file = path.join(FIXTURES, 'auth-provider.yaml');
    const provider = loadKubeConnection({ kubeconfig: file }, ENV).effective.user.authProvider;
    expect(provider).toEqual(clientNode(file, 'oidc').getCurrentUser()?.authProvider);
    expect(provider).toMatchObject({ name: 'oidc', config: { 'client-id': 'kubectl' } });
  });

  describe('deliberate differences', () => {
    it("kubectl's tokenFile, as-groups and as-uid: honoured here, unknown to client-node", () => {
      const file = path.join(FIXTURES, 'kubectl-only-fields.yaml');
      const ours = loadKubeConnection({ kubeconfig: file }, ENV).connection;
      expect(ours).toMatchObject({
        tokenFile: path.join(FIXTURES, 'robot.token'),
        impersonate: { user: 'deployer', groups: ['system:masters', 'ops'], uid: '1234' },
      });
      const theirs = present(clientNode(file, 'lab').getCurrentUser());
      expect(theirs).toEqual({ name: 'robot', impersonateUser: 'deployer' });
    });

    it('a CA with insecure-skip-tls-verify: refused here, loaded by client-node', () => {
      const config = new KubeConfig();
      const yaml = [
        'clusters: [{name: c, cluster: {server: "https://c", certificate-authority-data: Q0E=, insecure-skip-tls-verify: true}}]',
        'contexts: [{name: c, context: {cluster: c}}]',
        'current-context: c',
      ].join('\n');
      config.loadFromString(yaml);
      expect(config.getCurrentCluster()).toMatchObject({ caData: 'Q0E=', skipTLSVerify: true });
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'kubeconfig-')), 'config');
      writeFileSync(file, yaml);
      expect(() => loadKubeConnection({ kubeconfig: file }, ENV)).toThrow(
        /specifying a root certificates file with the insecure flag is not allowed/,
      );
    });
  });
});
