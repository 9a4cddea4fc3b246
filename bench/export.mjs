#!/usr/bin/env node
// Curated export benchmark (docs/export.md). One corpus holding a 1,000,000-event trace;
// `--kind traces` gives one row per event. Prints, all measured in this run, best of three,
// each run in a fresh process, interleaved:
// - JSONL export rows/s vs the baseline: the same rows read with one plain SELECT and written
//   with JSON.stringify to a file (target: ratio >= 0.5);
// - the peak RSS of the export process (target < 500 MB), JSONL and Parquet;
// - Parquet export rows/s, as a ratio to the same baseline (no target: it encodes columns);
// - JSONL export of a copy of the corpus where 1,000 of the states carry labels of two
//   annotators (every row then reads its labels from the annotations table), same baseline.
// Usage: npm run build:core && node bench/export.mjs [--rows 1000000]. Exits 1 when a target is missed.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTrace } from './_ingest-data.mjs';

const i = process.argv.indexOf('--rows');
const N = i >= 0 ? Number(process.argv[i + 1]) : 1_000_000;
const root = new URL('..', import.meta.url).pathname;
const { openCorpus } = await import(join(root, 'dist/store/corpus.js'));
const dir = mkdtempSync(join(tmpdir(), 'stepscope-bench-export-'));
try {
  const trace = join(dir, 't.jsonl');
  await writeTrace(trace, N);
  const db = join(dir, 'c.db');
  const c = openCorpus(db, { create: true });
  await c.ingest(trace);
  c.close();
  rmSync(trace);
  // The labelled copy: 1,000 states, each labelled by two annotators.
  const labelled = join(dir, 'labelled.db');
  copyFileSync(db, labelled);
  const { setLabels } = await import(join(root, 'dist/labeling/write.js'));
  const lc = openCorpus(labelled);
  for (let s = 0; s < 1000; s++) {
    const target = { trace: 1, seq: Math.floor((s * N) / 1000) };
    setLabels(lc, { target, labels: ['truth.value_cut'], annotator: 'ada' });
    setLabels(lc, { target, labels: [s % 2 ? 'truth.value_cut' : 'truth.nondeterminism'], annotator: 'bo' });
  }
  lc.close();

  let k = 0;
  const child = (...args) => {
    const out = join(dir, `out${k++}`);
    const r = spawnSync(
      process.execPath,
      [
        join(root, 'bench/_export-child.mjs'),
        ...args.map((a) => (a === 'OUT' ? (args[0] === 'baseline' ? `${out}.jsonl` : out) : a)),
      ],
      { encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(r.stderr);
    rmSync(out, { recursive: true, force: true });
    rmSync(`${out}.jsonl`, { force: true });
    const res = JSON.parse(r.stdout);
    if (res.rows !== N) throw new Error(`expected ${N} rows, got ${res.rows}`);
    return res;
  };
  const runs = { baseline: [], jsonl: [], parquet: [], labelled: [] };
  for (let r = 0; r < 3; r++) {
    runs.baseline.push(child('baseline', db, 'OUT'));
    runs.jsonl.push(child('export', 'jsonl', db, 'OUT'));
    runs.parquet.push(child('export', 'parquet', db, 'OUT'));
    runs.labelled.push(child('export', 'jsonl', labelled, 'OUT'));
  }
  const best = (xs) => xs.reduce((a, b) => (b.ms < a.ms ? b : a));
  const peak = (xs) => Math.max(...xs.map((x) => x.rssMb));
  const rate = (x) => Math.round((N / x.ms) * 1000);
  const [b, j, p, l] = [best(runs.baseline), best(runs.jsonl), best(runs.parquet), best(runs.labelled)];
  const ratio = rate(j) / rate(b);
  console.log(`rows:                          ${N.toLocaleString('en')} (kind traces: one row per event)`);
  console.log(
    `baseline SELECT + JSON.stringify: ${rate(b).toLocaleString('en')} rows/s, peak RSS ${peak(runs.baseline).toFixed(0)} MB`,
  );
  console.log(
    `export JSONL:                  ${rate(j).toLocaleString('en')} rows/s, ratio to baseline ${ratio.toFixed(2)} (target >= 0.50), peak RSS ${peak(runs.jsonl).toFixed(0)} MB (target < 500)`,
  );
  console.log(
    `export Parquet:                ${rate(p).toLocaleString('en')} rows/s, ratio to baseline ${(rate(p) / rate(b)).toFixed(2)}, peak RSS ${peak(runs.parquet).toFixed(0)} MB (target < 500)`,
  );
  console.log(
    `export JSONL, 1,000 labelled states: ${rate(l).toLocaleString('en')} rows/s, ratio to baseline ${(rate(l) / rate(b)).toFixed(2)} (target >= 0.50), peak RSS ${peak(runs.labelled).toFixed(0)} MB`,
  );
  const missed = ratio < 0.5 || rate(l) / rate(b) < 0.5 || peak(runs.jsonl) >= 500 || peak(runs.parquet) >= 500;
  if (missed) console.log('TARGET MISSED');
  process.exitCode = missed ? 1 : 0;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
