#!/usr/bin/env node
// CRUXEval execution scoring: generations per second over 8,000 generations (CodeLlama-7B,
// temperature 0.2, output prediction; every generation run, no de-duplication), against
// one fresh `python3` per generation (how the benchmark's own harness runs each check),
// both measured in this run with the same parallelism (one process per CPU). The fresh-
// interpreter baseline runs an evenly spaced sample (every 20th generation, 400); our
// pool runs that same sample too, so the ratio compares the same generations.
// Also printed: the rate with de-duplication (scoreCruxeval's default).
// Also: the time to take one very long job line (a 20 MB generation) against one ten
// times shorter; reading a line is linear, so the ratio stays near 10 (it was about 30x
// that when the worker re-split its whole buffer on every read: 100 MB took 131 s).
// Usage: npm run build:core && node bench/exec-scoring.mjs [--sample-every 20] [--long-lines-only]
// Exits 1 when the ratio is below 5, or when the long-line ratio is above 30.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const data = join(root, 'test/data/cruxeval');
const { ExecPool, readCruxevalTasks, readGenerations, scoreCruxeval, cruxevalJob } = await import(
  join(root, 'dist/scoring/index.js')
);
const every = (() => {
  const i = process.argv.indexOf('--sample-every');
  return i >= 0 ? Number(process.argv[i + 1]) : 20;
})();
const cpus = availableParallelism();

/** Seconds for one job whose generation is a string literal of `mb` MB (a wrong answer). */
async function longLine(pool, mb) {
  const t0 = process.hrtime.bigint();
  const v = await pool.submit({
    id: `long-${mb}`,
    kind: 'cruxeval-output',
    code: 'def f(x):\n    return x',
    output: "'a'",
    generation: `'${'a'.repeat(mb << 20)}'`,
    timeout: 120,
    memory_mb: 4096,
  });
  if (v.status !== 'fail') throw new Error(`a long line gave ${v.status}: ${v.error ?? ''}`);
  return seconds(t0);
}

async function longLines() {
  const pool = new ExecPool({ hashseed: 0, workers: 1 });
  await pool.start();
  await longLine(pool, 1); // warm
  const short = await longLine(pool, 2);
  const long = await longLine(pool, 20);
  await pool.close();
  const r = long / short;
  console.log(
    `one job line: 2 MB ${short.toFixed(2)} s, 20 MB ${long.toFixed(2)} s: ratio ${r.toFixed(1)} (linear ~10)`,
  );
  return r;
}
const tasks = readCruxevalTasks(join(root, 'resources/cruxeval/cruxeval.jsonl'));
const { generations } = readGenerations(join(data, 'generations/sample_scored_codellama-7b_temp0.2_output.json'));
const all = tasks.flatMap((t) => generations[t.id].map((g, j) => cruxevalJob('output', t, g, `${t.id}#${j}`)));
const sample = all.filter((_, i) => i % every === 0);
const seconds = (t0) => Number(process.hrtime.bigint() - t0) / 1e9;
if (process.argv.includes('--long-lines-only')) process.exit((await longLines()) <= 30 ? 0 : 1);

async function pooled(jobs) {
  const pool = new ExecPool({ hashseed: 0 });
  await pool.start(); // interpreter start-up is paid once per worker, not per generation
  const t0 = process.hrtime.bigint();
  const verdicts = new Map();
  for await (const v of pool.run(jobs, { ordered: false })) verdicts.set(v.id, v.status === 'pass');
  const s = seconds(t0);
  await pool.close();
  return { s, verdicts };
}

/**
 * One `python3 -c <check>` per generation, `cpus` at a time. As in the harness, the 3 s
 * limit covers the check, not the interpreter's start-up (a timer set first thing); the
 * outer kill is only a safety net.
 */
async function fresh(jobs) {
  const t0 = process.hrtime.bigint();
  const verdicts = new Map();
  let next = 0;
  const one = (job) =>
    new Promise((resolve) => {
      const program = `import signal; signal.setitimer(signal.ITIMER_REAL, 3)\n${job.code}\nassert ${job.output} == ${job.generation}`;
      const child = spawn('python3', ['-c', program], {
        stdio: 'ignore',
        env: { ...process.env, PYTHONHASHSEED: '0' },
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        verdicts.set(job.id, code === 0);
        resolve();
      });
    });
  await Promise.all(
    Array.from({ length: cpus }, async () => {
      while (next < jobs.length) await one(jobs[next++]);
    }),
  );
  return { s: seconds(t0), verdicts };
}

// Interleaved: pool on the sample, fresh on the sample, then the pool on all 8,000.
const ours = await pooled(sample);
const base = await fresh(sample);
const full = await pooled(all);
const pool = new ExecPool({ hashseed: 0 });
await pool.start();
const t1 = process.hrtime.bigint();
const deduped = await scoreCruxeval(pool, tasks, generations, { mode: 'output' });
const dedupS = seconds(t1);
await pool.close();

const agree = sample.filter((j) => ours.verdicts.get(j.id) === base.verdicts.get(j.id)).length;
const rate = (n, s) => n / s;
const ratio = rate(sample.length, ours.s) / rate(sample.length, base.s);
console.log(`${cpus} processes at a time; sample: every ${every}th generation (${sample.length})`);
console.log(`fresh python3 per generation (sample): ${rate(sample.length, base.s).toFixed(1)} generations/s`);
console.log(`pool, fork per generation (sample):    ${rate(sample.length, ours.s).toFixed(1)} generations/s`);
console.log(
  `pool on all ${all.length}:                  ${rate(all.length, full.s).toFixed(1)} generations/s (${full.s.toFixed(1)} s)`,
);
console.log(
  `scoreCruxeval with de-duplication:     ${rate(all.length, dedupS).toFixed(1)} generations/s (${deduped.counts.pass} pass)`,
);
console.log(`ratio pool / fresh python3 (same sample): ${ratio.toFixed(1)}x (target >= 5x)`);
console.log(`verdicts agree on the sample: ${agree}/${sample.length}`);
const lines = await longLines();
process.exit(ratio >= 5 && lines <= 30 ? 0 : 1);
