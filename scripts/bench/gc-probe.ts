/**
 * Loaded into a measured Node process (`node --expose-gc --import ./gc-probe.ts …`, scripts/bench/fleet-run.ts)
 * so that its memory can be read without the garbage collector's saw: at each SIGUSR2 it runs a full
 * collection, then appends `epoch-ms rss-KiB heap-used-KiB loop-delay-max-ms loop-delay-p99-ms
 * heap-total-KiB external-KiB` to the file BENCH_GC_PROBE names. What a process keeps is then told apart
 * from what it has not collected yet. The event loop's delays since the signal before tell whether the
 * process's own work (a plan made on the main thread) held back its other steps (a node's next write, a
 * watch's events) in that span. The heap V8 holds and the memory outside it (Buffers, zlib's) tell where
 * RSS beyond the heap used sits.
 */
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.BENCH_GC_PROBE;
const gc = (globalThis as { gc?: () => void }).gc;
if (file && gc) {
  const delays = monitorEventLoopDelay({ resolution: 20 });
  delays.enable();
  process.on('SIGUSR2', () => {
    const maxMs = Math.round(delays.max / 1e6);
    const p99Ms = Math.round(delays.percentile(99) / 1e6);
    delays.reset();
    gc();
    const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
    const kib = (bytes: number) => Math.round(bytes / 1024);
    appendFileSync(
      file,
      `${Date.now()} ${kib(rss)} ${kib(heapUsed)} ${maxMs} ${p99Ms} ${kib(heapTotal)} ${kib(external)}\n`,
    );
  });
}
