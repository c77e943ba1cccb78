import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { kubectl, seedScenario } from './lab.js';
import { bin, runMaint, planRun } from './drain-run.js';
import { Terminal } from './terminal.js';

// The plan's estimate against the measured drain: three replicas on k8s-node-1 under a maxUnavailable 1
// budget (three waves), whose replacements become Ready 2 s, 5 s or 10 s after they start (the lab's KWOK
// honours lab.kubectl-maint.io/ready-delay; scripts/lab/workloads/eta.yaml, shared with the benchmark).
// The estimate comes from the pods' own history (their Ready transition against their creation) and
// their grace period; the drain is measured from its first eviction to its end, as the estimate counts.

const workload = (readySeconds: number) =>
  readFileSync(path.resolve(import.meta.dirname, '../../scripts/lab/workloads/eta.yaml'), 'utf8').replaceAll(
    'READY_SECONDS',
    String(readySeconds),
  );

const ONLY_ETA = ['k8s-node-1', '--ignore-daemonsets', '--pod-selector', 'app=eta'];

/** Seeds hello, then puts the three replicas on k8s-node-1 (k8s-node-2 cordoned meanwhile) and waits for the budget. */
async function seedEta(readySeconds: number): Promise<void> {
  await seedScenario('hello');
  await kubectl(['cordon', 'k8s-node-2']);
  await kubectl(['apply', '-f', '-'], { input: workload(readySeconds) });
  await kubectl(['rollout', 'status', '-n', 'demo', 'deployment/eta', '--timeout=120s']);
  await kubectl(['uncordon', 'k8s-node-2']);
  await kubectl(['wait', '-n', 'demo', 'pdb/eta', '--for=jsonpath={.status.disruptionsAllowed}=1', '--timeout=60s']);
}

describe.each([2, 5, 10])(
  'the plan estimates a drain whose replacements are Ready %i s after start',
  (readySeconds) => {
    beforeEach(async () => {
      await seedEta(readySeconds);
    });

    it("within 25 % of the measured drain (and the basis timestamps' second a paced wave), with its basis named", async () => {
      const plan = await planRun([...ONLY_ETA, '-o', 'json']);
      expect(plan.exitCode, plan.stderr).toBe(0);
      const planned = JSON.parse(plan.stdout) as {
        eta: { totalSeconds: number; waves: unknown[]; basis: string[] };
      };
      expect(planned.eta.waves).toHaveLength(3);
      expect(planned.eta.basis).toEqual([
        expect.stringMatching(/^observed start-to-Ready of 3 pods of Deployment demo\/eta: [\d.]+ s \(mean\)$/),
      ]);

      const run = await runMaint(['drain', ...ONLY_ETA, '-o', 'json']);
      expect(run.exitCode, run.stderr).toBe(0);
      const firstEviction = Math.min(
        ...run.events.flatMap((e) => (e.type === 'pod' && e.state.phase === 'evicting' ? [e.atMs] : [])),
      );
      const measured = (run.finished!.atMs - firstEviction) / 1000;
      const error = (planned.eta.totalSeconds - measured) / measured;
      console.log(
        `ETA ${readySeconds} s scenario: estimate ${planned.eta.totalSeconds} s, measured ${measured.toFixed(1)} s, ` +
          `error ${(error * 100).toFixed(1)} %`,
      );
      // The basis is each pod's start-to-Ready read from Kubernetes timestamps, whole seconds: a 2 s ready
      // delay reads 2 or 3 s (a loaded lab makes the later reading likely), so each wave it paces is known
      // to within a second. The estimate is held to 25 % of the drain plus that second per paced wave.
      const pacedWaves = planned.eta.waves.length - 1;
      expect(Math.abs(planned.eta.totalSeconds - measured)).toBeLessThanOrEqual(0.25 * measured + pacedWaves);
    });
  },
);

describe('the live time left in a terminal', () => {
  const terminal = new Terminal('drain-eta');
  afterEach(() => terminal.close());

  it('never reads "past the estimate" before the elapsed clock passes the plan\'s estimate', async () => {
    await seedEta(5);
    const plan = await planRun([...ONLY_ETA, '-o', 'json']);
    expect(plan.exitCode, plan.stderr).toBe(0);
    const total = (JSON.parse(plan.stdout) as { eta: { totalSeconds: number } }).eta.totalSeconds;
    await terminal.open(
      `env -u CI -u CONTINUOUS_INTEGRATION ${process.execPath} ${bin} drain ${ONLY_ETA.join(' ')} --yes; echo "EXIT=$?"; sleep 600`,
    );
    // Every header the view drew while it ran: "Draining k8s-node-1 · 0:07 · about 5s left".
    const headers: string[] = [];
    await terminal.eventually(
      async () => {
        const rows = await terminal.rows();
        headers.push(...rows.filter((row) => row.startsWith('Draining k8s-node-1 · ')));
        return rows.some((row) => row.includes('EXIT=')) ? true : undefined;
      },
      120_000,
      'the drain to finish',
    );
    expect((await terminal.history(500)).includes('EXIT=0')).toBe(true);
    const read = headers.flatMap((header) => {
      const m = /· (\d+):(\d\d) · (?:about (\d+)s left|past the estimate by (\d+)s)/.exec(header);
      return m ? [{ elapsedS: Number(m[1]) * 60 + Number(m[2]), past: m[4] !== undefined, header }] : [];
    });
    expect(read.length, headers.join('\n')).toBeGreaterThan(3);
    // The clock counts from the drain's start, the estimate from its first eviction: a second apart at most.
    for (const r of read) if (r.past) expect(r.elapsedS, r.header).toBeGreaterThan(total - 1);
  });
});
