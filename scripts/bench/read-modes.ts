/**
 * A consistent read of every pod and node of the lab (KUBECONFIG), made each way the cache can make it
 * (dist/kube/cluster-cache.js), in turn, `rounds` times, the order reversed every other round:
 *   one-list   one LIST without a resourceVersion or pages (a drain's and a run's read from 1.34 on)
 *   streaming  the streaming list (a watch with sendInitialEvents; an older server's, or with --chunk-size)
 *   pages      LISTs without a resourceVersion in pages of 500 (where the streaming list is not served)
 *   cache      a plan's LIST at resourceVersion=0, the watch cache as it is (not consistent: for scale)
 * Prints each read's wall and CPU seconds and the load, then each way's median wall time.
 * `node scripts/bench/read-modes.ts [ROUNDS]`, after `npm run build`.
 */
import { loadavg } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Stats from './stats.js';

const root = path.resolve(import.meta.dirname, '../..');
const load = async <T>(file: string) => (await import(pathToFileURL(path.join(root, 'dist', file)).href)) as T;

interface Cache {
  objects(): ReadonlyMap<string, readonly object[]>;
  stop(): void;
}
const { median } = (await import(new URL('./stats.ts', import.meta.url).href)) as typeof Stats;
const [{ connect }, { ClusterCache }] = await Promise.all([
  load<{ connect: (values: object) => Promise<unknown> }>('cli/kube-connect.js'),
  load<{ ClusterCache: { open(client: unknown, options: object): Promise<Cache> } }>('kube/cluster-cache.js'),
]);

const WAYS: Record<string, object> = {
  'one-list': { freshness: 'consistent', consistentListFromCache: true },
  streaming: { freshness: 'consistent', chunkSize: 500 },
  pages: { freshness: 'consistent', streaming: false, chunkSize: 500 },
  cache: { freshness: 'cache' },
};
const rounds = Number(process.argv[2] ?? 3);
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

const walls = new Map<string, number[]>(Object.keys(WAYS).map((way) => [way, []]));
for (let round = 1; round <= rounds; round++) {
  const ways = Object.keys(WAYS);
  for (const way of round % 2 === 0 ? ways.reverse() : ways) {
    const client = await connect({});
    const load = loadavg()[0]!.toFixed(2);
    const started = performance.now();
    const cpu = cpuSeconds();
    const cache = await ClusterCache.open(client, {
      kinds: ['Node', 'Pod'],
      required: ['Node', 'Pod'],
      watch: false,
      ...WAYS[way],
    });
    const wall = (performance.now() - started) / 1000;
    const pods = cache.objects().get('Pod')?.length ?? 0;
    cache.stop();
    walls.get(way)!.push(wall);
    console.log(
      `round ${round} ${way}: ${wall.toFixed(2)} s, CPU ${(cpuSeconds() - cpu).toFixed(2)} s, ${pods} pods, load ${load}`,
    );
  }
}
for (const [way, seconds] of walls) console.log(`${way}: median ${median(seconds).toFixed(2)} s`);
// The clients' keep-alive connections would hold the process open.
process.exit(0);
