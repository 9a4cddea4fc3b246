#!/usr/bin/env node
// `stepscope scores` over one run of 100,000 next-state predictions (10,000 items x 10 samples, the mix of
// bench/predictions-import.mjs). Prints, measured in this run, each as a ratio to parsing the predictions'
// JSONL alone (read, split, JSON.parse):
// - the score lines (runScores: the verdicts summed per item by SQL, then grouped) whole and --by action,
//   field and depth;
// - the command itself, `stepscope scores --by action` (a process: start, open, score, the bootstrap
//   intervals, print), against `stepscope --version` (the start alone).
// Each figure is the best of three.
// Usage: npm run build:core && node bench/scores.mjs [--items 10000] [--samples 10]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, predictionLines } from './_predictions-mix.mjs';

const ITEMS = arg('--items', 10_000);
const SAMPLES = arg('--samples', 10);
const root = new URL('..', import.meta.url).pathname;
const bin = join(root, 'bin/stepscope.js');
const { openCorpus } = await import(join(root, 'dist/store/corpus.js'));
const { createEvalSet } = await import(join(root, 'dist/predictions/create.js'));
const { importPredictions } = await import(join(root, 'dist/predictions/import.js'));
const { runScores } = await import(join(root, 'dist/predictions/views.js'));
const dir = mkdtempSync(join(tmpdir(), 'stepscope-bench-scores-'));
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
const time = (f) => {
  const t = process.hrtime.bigint();
  f();
  return ms(t);
};
const best = (f) => Math.min(time(f), time(f), time(f));
const run = (...args) => {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
};

try {
  const db = join(dir, 'demo.db');
  run('demo', '--db', db);
  const corpus = openCorpus(db);
  const { set } = createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: Math.ceil(ITEMS / 8), seed: 1 });
  const lines = predictionLines(corpus, set.id, SAMPLES);
  const file = join(dir, 'predictions.jsonl');
  writeFileSync(file, lines.join('\n') + '\n');
  const N = importPredictions(corpus, { file, set: 'ns', label: 'm' }).run.predictions;
  console.log(
    `run:                       ${N.toLocaleString('en')} predictions of ${set.items.toLocaleString('en')} items`,
  );
  const parseMs = best(() => {
    for (const l of readFileSync(file, 'utf8').split('\n')) if (l) JSON.parse(l);
  });
  console.log(`parse the JSONL alone:     ${parseMs.toFixed(0)} ms (baseline)`);
  for (const by of [undefined, 'action', 'field', 'depth']) {
    const t = best(() => runScores(corpus, 'ns', 'm', by));
    const what = by ? `--by ${by}` : 'whole';
    console.log(`score lines, ${what.padEnd(12)} ${t.toFixed(0)} ms (${(t / parseMs).toFixed(2)}x the parse)`);
  }
  corpus.close();
  const startMs = best(() => run('--version'));
  const cliMs = best(() => run('scores', '--db', db, '--set', 'ns', '--by', 'action'));
  console.log(`stepscope --version:       ${startMs.toFixed(0)} ms (a process's start)`);
  console.log(
    `stepscope scores --by action: ${cliMs.toFixed(0)} ms (${(cliMs / parseMs).toFixed(2)}x the parse; ` +
      `${(cliMs - startMs).toFixed(0)} ms more than the start)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
