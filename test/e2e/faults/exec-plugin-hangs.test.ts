import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { bin, unschedulable } from '../drain-run.js';
import { alive } from '../../support/pki.js';
import { eventually, labConnection, seedScenario } from '../lab.js';

// A kubeconfig whose exec credential plugin never answers: the drain must not hang with it. It gives up
// at --request-timeout with one line, stops the plugin, and the cluster is left as it was.

const work = mkdtempSync(path.join(tmpdir(), 'maint-exec-hang-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a drain whose exec credential plugin hangs', () => {
  let kubeconfig = '';
  let plugin = '';
  const pidFile = path.join(work, 'plugin.pid');

  beforeAll(async () => {
    await seedScenario('hello');
    const lab = await labConnection();
    plugin = path.join(work, 'hang-credentials.sh');
    writeFileSync(plugin, `#!/bin/sh\necho $$ > ${pidFile}\nexec sleep 600\n`);
    chmodSync(plugin, 0o755);
    kubeconfig = path.join(work, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'lab', cluster: { server: lab.server, 'certificate-authority': lab.caFile } }],
        users: [
          {
            name: 'sso',
            user: {
              exec: { apiVersion: 'client.authentication.k8s.io/v1', command: plugin, interactiveMode: 'Never' },
            },
          },
        ],
        contexts: [{ name: 'lab', context: { cluster: 'lab', user: 'sso' } }],
        'current-context': 'lab',
      }),
    );
  });

  it('gives up at --request-timeout with one line, exit 1, the plugin stopped and the node not cordoned', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, KUBECONFIG: kubeconfig, NO_COLOR: '1' };
    const r = await execa(
      process.execPath,
      [bin, 'drain', 'k8s-node-1', '--ignore-daemonsets', '--yes', '--request-timeout', '2s'],
      { reject: false, env },
    );
    expect([r.exitCode, String(r.stdout), String(r.stderr)]).toEqual([
      1,
      '',
      `error: cannot get credentials for user "sso" from "${plugin}": did not finish within 2s (--request-timeout) and was stopped`,
    ]);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await eventually(async () => !alive(pid), 10_000, `the plugin (pid ${pid}) to be stopped`);
    expect(await unschedulable('k8s-node-1')).toBe(false);
  });
});
