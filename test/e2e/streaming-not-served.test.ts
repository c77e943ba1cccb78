import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DrainRun, runMaint } from './drain-run.js';
import { kubectl, labProcessEnv, labScript, seedScenario } from './lab.js';

// A drain reads the cluster as etcd holds it now: in one LIST where the server answers that from its watch
// cache (1.34 on), else (or when pages are asked for with --chunk-size) through the streaming list, a watch
// with sendInitialEvents. Kubernetes 1.33 ships the API server's WatchList feature off, so its answer to that
// request is 422: this worker's lab API server is started again with the feature off, and the drain that
// asks for it must fall back to LIST requests, find the same pods, and say so once.

const DRAIN = ['drain', 'k8s-node-1', '--ignore-daemonsets', '--dry-run=client', '-o', 'json'];
const NOTE = /^note: the API server does not serve streaming lists \(its WatchList feature is off\): /;

async function restartApiServer(featureGates: string): Promise<void> {
  const env = { ...labProcessEnv(), LAB_APISERVER_FEATURE_GATES: featureGates };
  await execa('bash', [labScript, 'stop-component', 'kube-apiserver'], { env });
  await execa('bash', [labScript, 'start-component', 'kube-apiserver'], { env });
}

/** The pods the dry run names, as namespace/name, and its exit code. */
const drained = (r: DrainRun) => ({
  exitCode: r.exitCode,
  pods: [...new Set(r.events.flatMap((e) => ('pod' in e && e.pod ? [`${e.pod.namespace}/${e.pod.name}`] : [])))].sort(),
});

describe('a drain on an API server that does not serve streaming lists', () => {
  let served: DrainRun;

  beforeAll(async () => {
    await seedScenario('hello');
    served = await runMaint(DRAIN);
  });

  afterAll(async () => {
    await restartApiServer('');
  });

  it('reads with LIST instead: the same pods, and one note saying so where it asked for the streaming list', async () => {
    expect(served.stderr.split('\n').filter((line) => NOTE.test(line))).toEqual([]);
    await restartApiServer('WatchList=false');
    // The server really refuses the streaming list now (what the drain meets).
    const refused = await kubectl(
      [
        'get',
        '--raw',
        '/api/v1/pods?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
      ],
      { reject: false },
    );
    expect(String(refused.stderr)).toMatch(/sendInitialEvents is forbidden|Unprocessable|422/i);

    // Pages asked for: the streaming list first, refused, then pages of LIST requests.
    const fallen = await runMaint([...DRAIN, '--chunk-size', '500']);
    expect(drained(fallen), fallen.stderr).toEqual(drained(served));
    expect(drained(fallen).pods.length).toBeGreaterThan(0);
    const notes = fallen.stderr.split('\n').filter((line) => NOTE.test(line));
    expect(notes, fallen.stderr).toHaveLength(1);
    expect(notes[0]).toMatch(/every kind read with LIST requests instead$/);
    // Without: one LIST per kind, which this server answers from its watch cache; no streaming list asked for.
    const listed = await runMaint(DRAIN);
    expect(drained(listed), listed.stderr).toEqual(drained(served));
    expect(listed.stderr.split('\n').filter((line) => NOTE.test(line))).toEqual([]);
  });
});
