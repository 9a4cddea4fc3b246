#!/usr/bin/env node
// Import and score of next-state predictions. Prints, all measured in this run:
// - predictions/s of `predictions import` (read and check the whole file, parse each
//   completion into fields, score it against its target, insert in one transaction) over
//   100,000 predictions (10,000 items x 10 samples: right, one field wrong, another event,
//   format errors), and its ratio to parsing the same JSONL alone (read, split, JSON.parse);
// - the share of that time spent reading completions and scoring them (no database), and the share
//   spent storing the same predictions, scored beforehand (the run and its rows written in one
//   transaction, the commit and its checkpoint included), with the bytes the corpus grew by;
// - the floor under any store of one SQL row per prediction: the same rows, stored by the same code, into a table of
//   the same columns with no index, key, check or generated column, in one transaction; and that added to reading and
//   scoring (the ratio 0.3 allows the whole import 3.3x the parse);
// - `scores` over the run (the verdicts read back and aggregated, by action).
// Each figure is the best of three; the import's ratio is also given by CPU time (user + system of this
// process), which a busy machine disturbs less than wall time. Execution checks (the valid-alternative runs of inverse
// calls) are not part of it: bench/exec-scoring.mjs measures execution.
// Usage: npm run build:core && node bench/predictions-import.mjs [--items 10000] [--samples 10]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { arg, predictionLines } from './_predictions-mix.mjs';

const ITEMS = arg('--items', 10_000);
const SAMPLES = arg('--samples', 10);
const root = new URL('..', import.meta.url).pathname;
const { openCorpus } = await import(join(root, 'dist/store/corpus.js'));
const { createEvalSet } = await import(join(root, 'dist/predictions/create.js'));
const { importPredictions } = await import(join(root, 'dist/predictions/import.js'));
const { runScores } = await import(join(root, 'dist/predictions/views.js'));
const { scoreCompletion } = await import(join(root, 'dist/semantics/index.js'));
const { newPrediction } = await import(join(root, 'dist/predictions/verdicts.js'));
const { insertPredictions } = await import(join(root, 'dist/store/queries/predictions.js'));
const dir = mkdtempSync(join(tmpdir(), 'stepscope-bench-pred-'));
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
/** The least wall time of three runs of `f` (which returns it); the least CPU time of the three goes in `cpu`. */
const cpu = {};
const best = (f, key) => {
  let wall = Infinity;
  for (let i = 0; i < 3; i++) {
    const c0 = process.cpuUsage();
    wall = Math.min(wall, f());
    const c = process.cpuUsage(c0);
    if (key) cpu[key] = Math.min(cpu[key] ?? Infinity, (c.user + c.system) / 1000);
  }
  return wall;
};

try {
  const db = join(dir, 'demo.db');
  const demo = spawnSync(process.execPath, [join(root, 'bin/stepscope.js'), 'demo', '--db', db], { encoding: 'utf8' });
  if (demo.status !== 0) throw new Error(demo.stderr);
  const corpus = openCorpus(db);
  let t0 = process.hrtime.bigint();
  const { set } = createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: Math.ceil(ITEMS / 8), seed: 1 });
  console.log(
    `evaluation set:            ${set.items.toLocaleString('en')} next-state items over ${corpus.traceIds().length} demo traces, made in ${(ms(t0) / 1000).toFixed(1)} s`,
  );

  const lines = predictionLines(corpus, set.id, SAMPLES);
  const file = join(dir, 'predictions.jsonl');
  writeFileSync(file, lines.join('\n') + '\n');
  const N = lines.length;
  console.log(
    `predictions per run:       ${N.toLocaleString('en')} (${(readFileSync(file).length / N).toFixed(0)} bytes per line)`,
  );

  const parseMs = best(() => {
    const t = process.hrtime.bigint();
    let n = 0;
    for (const l of readFileSync(file, 'utf8').split('\n'))
      if (l) {
        JSON.parse(l);
        n++;
      }
    if (n !== N) throw new Error('lost lines');
    return ms(t);
  }, 'parse');
  const items = new Map([...corpus.iterateItems(set.id)].map((it) => [it.id, it]));
  const scoreMs = best(() => {
    const t = process.hrtime.bigint();
    for (const l of lines) {
      const r = JSON.parse(l);
      scoreCompletion(items.get(r.id).truth, r.completion);
    }
    return ms(t);
  });
  let k = 0;
  const importMs = best(() => {
    const t = process.hrtime.bigint();
    const r = importPredictions(corpus, { file, set: 'ns', label: `run${k++}` });
    if (r.run.predictions !== N) throw new Error('lost predictions');
    return ms(t);
  }, 'import');
  // The rows the import stores, scored here (each sample alone: the verdicts are the same), then stored alone.
  const stored = lines.map((l, i) => {
    const r = JSON.parse(l);
    return newPrediction(items.get(r.id), 'next-state', 'state', i % SAMPLES, r.completion);
  });
  // The file and its write-ahead log (which keeps its largest size, reached by the imports before).
  const size = () => statSync(db).size + (statSync(`${db}-wal`, { throwIfNoEntry: false })?.size ?? 0);
  const before = size();
  let j = 0;
  const storeMs = best(() => {
    const t = process.hrtime.bigint();
    corpus.saveRun(
      {
        setId: set.id,
        label: `store${j}`,
        format: 'state',
        params: {},
        source: file,
        sourceHash: `h${j++}`,
        hashseed: 0,
      },
      stored,
    );
    return ms(t);
  }, 'store');
  const grew = (size() - before) / 3 / N;
  const rate = (x) => Math.round((N / x) * 1000).toLocaleString('en');
  console.log(`parse the JSONL alone:     ${rate(parseMs)} lines/s (baseline)`);
  console.log(`predictions import:        ${rate(importMs)} predictions/s (${(importMs / 1000).toFixed(2)} s)`);
  console.log(
    `ratio import / parse:      ${(parseMs / importMs).toFixed(3)} (import takes ${(importMs / parseMs).toFixed(1)}x the parse)`,
  );
  console.log(
    `  by CPU time:             ${(cpu.parse / cpu.import).toFixed(3)} (parse ${cpu.parse.toFixed(0)} ms, import ` +
      `${cpu.import.toFixed(0)} ms, of which store alone ${((cpu.store / cpu.import) * 100).toFixed(0)}%)`,
  );
  console.log(
    `  of which read + score:   ${rate(scoreMs)} predictions/s without the database (${((scoreMs / importMs) * 100).toFixed(0)}% of the import)`,
  );
  console.log(
    `  of which store:          ${rate(storeMs)} predictions/s, SQLite alone ` +
      `(${((storeMs / importMs) * 100).toFixed(0)}% of the import; ${(storeMs / parseMs).toFixed(1)}x the parse; ` +
      `the corpus grows about ${grew.toFixed(0)} bytes per prediction)`,
  );
  // The floor: the store's own code (insertPredictions) over a table of the same name and columns with no index, key,
  // check or generated column, in a database of its own opened as a corpus is (WAL, synchronous NORMAL).
  const bare = new Database(join(dir, 'bare.db'));
  bare.pragma('journal_mode = WAL');
  bare.pragma('synchronous = NORMAL');
  bare.exec(`CREATE TABLE predictions (id INTEGER PRIMARY KEY, run_id INT, created TEXT, item_id INT, sample INT,
    completion TEXT, finish TEXT, format_error INT, parse_error TEXT, em_event INT, em_src INT, em_locals INT, em_arg INT,
    em_all INT, exec_status TEXT, alt_status TEXT)`);
  let r = 0;
  const bareMs = best(() => {
    const t = process.hrtime.bigint();
    bare.transaction(() => insertPredictions(bare, ++r, stored)).immediate();
    return ms(t);
  });
  bare.close();
  console.log(
    `  floor, a bare table:     ${(bareMs / parseMs).toFixed(1)}x the parse to store the same rows with no index, key or check; ` +
      `with reading and scoring ${((bareMs + scoreMs) / parseMs).toFixed(1)}x (0.3 allows 3.3x)`,
  );
  const scoresMs = best(() => {
    const t = process.hrtime.bigint();
    runScores(corpus, 'ns', 'run0', 'action');
    return ms(t);
  });
  console.log(
    `scores --by action:        ${scoresMs.toFixed(0)} ms over ${N.toLocaleString('en')} predictions (${(scoresMs / parseMs).toFixed(2)}x the parse)`,
  );
  corpus.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
