import { beforeAll, describe, expect, it } from 'vitest';
import { auditMark, maintWritesSince, NOTHING_WRITTEN } from '../audit.js';
import { podsIn, runMaint, unschedulable } from '../drain-run.js';
import { seedScenario } from '../lab.js';
import { kubeconfigFor, theOneErrorLine, userName } from './faults.js';

// Users RBAC does not let drain: one who may only read (the cordon is refused), one who may cordon but not
// evict (every eviction is refused). Nothing may be written, nothing may claim success, and the first
// error line must say why. The API server's audit log says what was actually sent.

const drainArgs = ['drain', 'k8s-node-1', '--ignore-daemonsets'];
const cannotPatch = (user: string) =>
  `cannot cordon node "k8s-node-1": forbidden: user "${user}" cannot patch nodes at the cluster scope`;
// Drain asks the API server what it may do before its first write (SelfSubjectAccessReview).
const cannotPatchNodes =
  'cannot patch nodes (cordon and uncordon, and mark the nodes a drain works on): nothing was changed';

describe('a drain by a user RBAC does not allow to drain', () => {
  let reader: string;
  let cordoner: string;
  let podsBefore: string[];

  beforeAll(async () => {
    await seedScenario('hello');
    reader = await kubeconfigFor('reader');
    cordoner = await kubeconfigFor('cordoner');
    podsBefore = (await podsIn('demo')).map((p) => p.uid).sort();
  });

  /** Nothing changed: the node schedulable, every pod where it was. */
  async function expectClusterUnchanged(): Promise<void> {
    expect(await unschedulable('k8s-node-1')).toBe(false);
    expect((await podsIn('demo')).map((p) => p.uid).sort()).toEqual(podsBefore);
  }

  it('read-only, text: one line names the right it lacks, before the plan; nothing is sent', async () => {
    const mark = await auditMark();
    const run = await runMaint(drainArgs, { kubeconfig: reader });

    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.stderr).toBe(`error: ${cannotPatchNodes}`);
    expect(run.stdout).toBe('');
    await expectClusterUnchanged();
    const writes = await maintWritesSince(mark);
    expect(writes).toEqual(NOTHING_WRITTEN);
  });

  it('read-only, -o json: the same one line on stderr, and no event', async () => {
    const run = await runMaint([...drainArgs, '-o', 'json'], { kubeconfig: reader });

    expect(run.exitCode, run.stderr).toBe(1);
    expect(theOneErrorLine(run.stderr)).toBe(`error: ${cannotPatchNodes}`);
    expect(run.events).toEqual([]);
    await expectClusterUnchanged();
  });

  it('may cordon but not evict: refused before the cordon, so the node stays schedulable', async () => {
    const mark = await auditMark();
    const run = await runMaint(drainArgs, { kubeconfig: cordoner });

    expect(run.exitCode, run.stderr).toBe(1);
    expect(theOneErrorLine(run.stderr)).toBe(
      'error: cannot create pods/eviction (evict through the Eviction API, which honours budgets): nothing was changed',
    );
    await expectClusterUnchanged();
    expect(await maintWritesSince(mark)).toEqual(NOTHING_WRITTEN);
  });

  it('read-only, --dry-run=server: the refused cordon fails the dry run; no eviction is sent', async () => {
    const mark = await auditMark();
    const run = await runMaint([...drainArgs, '--dry-run=server', '-o', 'json'], { kubeconfig: reader });

    expect(run.exitCode, run.stderr).toBe(1);
    expect(theOneErrorLine(run.stderr)).toBe(
      `error: unable to drain node "k8s-node-1": ${cannotPatch(userName('reader'))}`,
    );
    expect(run.finished).toMatchObject({
      result: 'failed',
      clusterState: 'nothing was changed (server dry run: the API server refused the cordon, so no eviction was sent)',
    });
    await expectClusterUnchanged();
    const writes = await maintWritesSince(mark);
    expect(writes).toEqual({ ...NOTHING_WRITTEN, nodePatches: ['k8s-node-1 403 dry-run'] });
  });

  it('may cordon but not evict, --dry-run=server: the refused evictions fail the dry run, and say why', async () => {
    const mark = await auditMark();
    const run = await runMaint([...drainArgs, '--dry-run=server', '-o', 'json'], { kubeconfig: cordoner });

    expect(run.exitCode, run.stderr).toBe(1);
    const line = theOneErrorLine(run.stderr);
    expect(line).toMatch(
      /^error: unable to drain node "k8s-node-1": demo\/hello-\S+: forbidden: cannot create pods\/eviction in namespace "demo" \(.*\) \(and 1 more pod failed\)$/,
    );
    expect(line).toContain(`User "${userName('cordoner')}" cannot create resource "pods/eviction"`);
    expect(run.finished).toMatchObject({
      result: 'failed',
      clusterState: 'nothing was changed (server dry run: the API server accepted the cordon; evictions: 2 failed)',
    });
    await expectClusterUnchanged();
    const writes = await maintWritesSince(mark);
    expect(writes.evicted).toEqual({});
    expect(writes.deletes).toEqual([]);
    expect(writes.nodePatches).toEqual(['k8s-node-1 200 dry-run']);
    expect(writes.otherEvictions).toEqual([]);
    expect(writes.dryRunEvictions.map((w) => w.replace(/hello-\S+/, 'hello-x'))).toEqual([
      'demo/hello-x 403',
      'demo/hello-x 403',
    ]);
  });

  it('run by a user who may read only nodes and pods: the refusal is the one line, no warning it makes moot', async () => {
    const nodeReader = await kubeconfigFor('node-reader');
    const mark = await auditMark();
    const run = await runMaint(['run', 'k8s-node-1', '--ignore-daemonsets', '--', 'true'], { kubeconfig: nodeReader });

    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe(
      'error: cannot create leases.coordination.k8s.io in namespace "kubectl-maint" (the run\'s state, kept in a Lease): nothing was changed',
    );
    await expectClusterUnchanged();
    const writes = await maintWritesSince(mark);
    expect(writes).toEqual(NOTHING_WRITTEN);
  });

  it('read-only cordon: one error line naming the verb and resource, nothing changed', async () => {
    const run = await runMaint(['cordon', 'k8s-node-1'], { kubeconfig: reader });

    expect(run.exitCode).toBe(1);
    expect(theOneErrorLine(run.stderr)).toBe(
      `error: forbidden: user "${userName('reader')}" cannot patch nodes at the cluster scope`,
    );
    expect(run.stdout).toBe('');
    await expectClusterUnchanged();
  });
});
