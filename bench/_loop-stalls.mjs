// Loaded into `stepscope serve` by bench/server.mjs (node --import): records where the
// server's own request loop (its main thread) stalls, to tell a stall there from a wait in a
// worker or for the CPU. A 2 ms timer notes every gap over 20 ms, and the main thread's GC
// pauses; on SIGTERM both go, as JSON, to the file named by STEPSCOPE_BENCH_STALLS.
import { writeFileSync } from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';

const file = process.env.STEPSCOPE_BENCH_STALLS;
if (file) {
  const stalls = [];
  const gc = [];
  let last = performance.now();
  setInterval(() => {
    const t = performance.now();
    if (t - last > 20) stalls.push({ at: last, ms: t - last });
    last = t;
  }, 2).unref();
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) gc.push({ at: e.startTime, ms: e.duration, kind: e.detail?.kind });
  }).observe({ entryTypes: ['gc'] });
  process.on('SIGTERM', () => {
    writeFileSync(file, JSON.stringify({ origin: performance.timeOrigin, stalls, gc }));
    process.exit(0);
  });
}
