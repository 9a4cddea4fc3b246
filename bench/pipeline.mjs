// `npm run bench pipeline`: stepscope pipeline on a synthetic corpus (CRUXEval's functions
// called on new inputs, bench/_pipeline-programs.py). Prints shards per second with 1 and 2
// local Dask workers (the speed-up as a ratio), the peak memory of each worker, and the
// Parquet of the 2-worker run read back by DuckDB against a single-process run (record-cruxeval,
// ingest, sample, dataset export over one corpus): the row counts per split must be equal.
//   node bench/pipeline.mjs [--programs N (default 400; the issue's figure is 100000)]
//                           [--shard-programs N (default 100)] [--workers 1,2 (the runs made)]
//                           [--single-programs K (default N)] [--dir DIR] [--keep]
// --single-programs K runs the single process over the first K programs only and compares it with
// the pipeline's rows of those programs (a program's rows do not depend on the others). --dir
// works in DIR and keeps it; run again there, the pipeline skips the shards already done.
// Skips (exit 0, saying why) where no Python has Dask's distributed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
const { values } = parseArgs({
  options: {
    programs: { type: 'string' },
    'shard-programs': { type: 'string' },
    workers: { type: 'string' },
    'single-programs': { type: 'string' },
    dir: { type: 'string' },
    keep: { type: 'boolean' },
  },
});
const N = Number(values.programs ?? 400);
const PER = Number(values['shard-programs'] ?? 100);
const WORKERS = (values.workers ?? '1,2').split(',').map(Number);
const K = Math.min(N, Number(values['single-programs'] ?? N));
if (!WORKERS.length || WORKERS.some((w) => !(w >= 1)) || !(K >= 1)) {
  console.error('bench/pipeline: --workers takes counts like 1,2 and --single-programs a count of at least 1');
  process.exit(2);
}
const py = [process.env.STEPSCOPE_DASK_PYTHON, '/usr/bin/python3', 'python3'].find(
  (p) => p && spawnSync(p, ['-c', 'import distributed'], { stdio: 'ignore' }).status === 0,
);
if (!py) {
  console.log('skipped: no Python with distributed (Debian: apt-get install python3-distributed)');
  process.exit(0);
}

const keep = values.keep || values.dir !== undefined;
const dir = values.dir ?? mkdtempSync(join(tmpdir(), 'stepscope-bench-pipeline-'));
mkdirSync(dir, { recursive: true });
const programs = join(dir, 'programs.jsonl');
const RECORD = '--timeout 10 --max-events 20000';
const SAMPLE = '--direction both --seed 1';
const EXPORT = '--split train=0.9,validation=0.1 --allow-overlap --format parquet --kind trajectories';
const stepscope = (args, opts = {}) => {
  const t = performance.now();
  const r = spawnSync(process.execPath, [join(root, 'bin/stepscope.js'), ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    ...opts,
  });
  if (r.status !== 0) throw new Error(`stepscope ${args[0]} failed (${r.status}): ${r.stderr}`);
  return { seconds: (performance.now() - t) / 1000, stdout: r.stdout };
};

try {
  spawnSync(py, [join(root, 'bench/_pipeline-programs.py'), String(N), programs], { stdio: 'inherit' });
  const shards = Math.ceil(N / PER);
  console.log(`${N} synthetic programs (CRUXEval's functions, new inputs), ${shards} shards of ${PER}`);
  const runs = {};
  for (const w of WORKERS) {
    const out = join(dir, `w${w}`);
    const r = stepscope([
      'pipeline',
      '--programs',
      programs,
      '--out',
      out,
      '--shard-programs',
      String(PER),
      '--local-workers',
      String(w),
      `--record=${RECORD}`,
      `--sample=${SAMPLE}`,
      `--export=${EXPORT}`,
    ]);
    runs[w] = r.seconds;
    // Shards skipped as done (a run resumed in --dir) make the rate meaningless: said, not hidden.
    const skipped = /(\d+) of \d+ shards already done/.exec(r.stdout);
    console.log(
      `${w} local worker${w > 1 ? 's' : ''}: ${r.seconds.toFixed(1)} s, ${(shards / r.seconds).toFixed(3)} shards/s` +
        (skipped ? ` (resumed: ${skipped[1]} shards were already done)` : ''),
    );
    for (const line of r.stdout.split('\n').filter((l) => l.startsWith('worker '))) console.log(`  ${line}`);
  }
  if (runs[1] && runs[2]) console.log(`speed-up, 2 workers over 1: ${(runs[1] / runs[2]).toFixed(2)}x`);
  const compared = `w${Math.max(...WORKERS)}`;

  // One process, one corpus, the same steps and options.
  const single = join(dir, 'single');
  const db = join(dir, 'single.db');
  const traces = join(dir, 'single.trace.jsonl');
  let singlePrograms = programs;
  if (K < N) {
    singlePrograms = join(dir, `programs-first-${K}.jsonl`);
    const lines = readFileSync(programs, 'utf8').split('\n').slice(0, K);
    writeFileSync(singlePrograms, lines.join('\n') + '\n');
  }
  const t0 = performance.now();
  stepscope(['record-cruxeval', singlePrograms, '-o', traces, '--jobs', '2', ...RECORD.split(' ')]);
  stepscope(['ingest', traces, '--db', db]);
  stepscope(['sample', '--db', db, ...SAMPLE.split(' ')]);
  stepscope(['dataset', 'export', '--db', db, '-o', single, ...EXPORT.split(' ')]);
  console.log(
    `single process${K < N ? ` over the first ${K} programs` : ''} (record-cruxeval --jobs 2, ingest, sample, ` +
      `export): ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const { DuckDBInstance } = await import('@duckdb/node-api');
  const conn = await (await DuckDBInstance.create(':memory:')).connect();
  // first: only the rows of the first K programs (task ids syn_<k>_..., bench/_pipeline-programs.py).
  const counts = async (d, first) => {
    const where = first ? `WHERE CAST(split_part(name, '_', 2) AS INTEGER) < ${first}` : '';
    const r = await conn.runAndReadAll(
      `SELECT regexp_extract(filename, '([a-z]+)-[^/]*$', 1) AS split, count(*) AS n, count(DISTINCT program) AS p,
              bit_xor(hash(name || chr(0) || text)) AS h
       FROM read_parquet('${d}/data/*.parquet', filename = true) ${where} GROUP BY 1 ORDER BY 1`,
    );
    const rows = r.getRowObjects();
    return { counts: rows.map((o) => `${o.split} ${o.n} rows ${o.p} programs`), texts: rows.map((o) => String(o.h)) };
  };
  const whole = await counts(join(dir, compared));
  const manifestRows = JSON.parse(readFileSync(join(dir, compared, 'stepscope-export.json'), 'utf8')).rows;
  console.log(`DuckDB, pipeline (${compared}): ${whole.counts.join(', ')} (manifest: ${manifestRows} rows)`);
  const [a, b] = [K < N ? await counts(join(dir, compared), K) : whole, await counts(single)];
  if (K < N) console.log(`DuckDB, pipeline, its rows of the first ${K} programs: ${a.counts.join(', ')}`);
  console.log(`DuckDB, single process${K < N ? ` (first ${K} programs)` : ''}: ${b.counts.join(', ')}`);
  const same = JSON.stringify(a.counts) === JSON.stringify(b.counts);
  console.log(same ? 'row counts per split: equal' : 'row counts per split: DIFFERENT');
  // The rows themselves, as a set (ids differ between corpora; trace name and text do not).
  const sameText = JSON.stringify(a.texts) === JSON.stringify(b.texts);
  console.log(sameText ? 'trace names and texts per split: the same' : 'trace names and texts: DIFFERENT');
  process.exitCode = same && sameText ? 0 : 1;
} finally {
  if (keep) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
