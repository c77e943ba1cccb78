/**
 * Loaded into a measured Node process (`node --expose-gc --import ./gc-probe.ts …`, scripts/bench/fleet-run.ts)
 * so that its memory can be read without the garbage collector's saw: at each SIGUSR2 it runs a full
 * collection, then appends `epoch-ms rss-KiB heap-used-KiB` to the file BENCH_GC_PROBE names. What a
 * process keeps is then told apart from what it has not collected yet.
 */
import { appendFileSync } from 'node:fs';

const file = process.env.BENCH_GC_PROBE;
const gc = (globalThis as { gc?: () => void }).gc;
if (file && gc) {
  process.on('SIGUSR2', () => {
    gc();
    const { rss, heapUsed } = process.memoryUsage();
    appendFileSync(file, `${Date.now()} ${Math.round(rss / 1024)} ${Math.round(heapUsed / 1024)}\n`);
  });
}
