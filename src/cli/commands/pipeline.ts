/**
 * `stepscope pipeline`: record, ingest, sample and export many programs in shards scheduled by
 * Dask (docs/pipeline.md). The scheduling is Python's (python/stepscope_pipeline, run with an
 * interpreter that has `distributed`); each shard runs this CLI's own commands; the combined
 * manifest and card are written here, by the export's code.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { int } from '../../contract/validate.js';
import { combineShards } from '../../export/combine.js';
import { recorderEnv } from '../../recorder/python.js';
import { CliError, intOption, requireString, usage, type Command } from '../command.js';

const HELP = `Usage: stepscope pipeline --programs FILE... --out DIR [--shard-programs N]
           [--local-workers W | --scheduler ADDRESS] [--record ARGS] [--sample ARGS] [--export ARGS]

Splits the programs into shards of N and runs one Dask task per shard: it records the shard's
programs, ingests them into DIR/shards/NNNN/corpus.db, samples trajectories and exports them
(DIR/shards/NNNN/export). Then DIR/data/ holds every shard's files, with one dataset card
(DIR/README.md) and one manifest (DIR/stepscope-export.json) over all of them. A program's
split depends on its source's hash and the seed only, never on its shard.

Run again, it skips the shards already done (with the same programs and options); a shard that
fails is retried once, then reported with its error, and the others go on (exit 1).

Options:
  --programs FILE...    CRUXEval-style tasks (.jsonl: id, code, input, output a line) or Python
                        files (.py, recorded as scripts); several may be given
  --out DIR             the output folder (created; reused when run again)
  --shard-programs N    programs per shard (default 1000)
  --local-workers W     start a local Dask cluster of W worker processes (default: one per CPU)
  --scheduler ADDRESS   use a running Dask scheduler instead (tcp://host:8786); its workers must
                        see DIR, the programs' files and this Stepscope folder at the same paths
                        (a task says where its shard's programs are; the worker reads them)
  --record ARGS         more arguments of 'stepscope record-cruxeval' / 'record' (limits), e.g. '--timeout 5'
  --sample ARGS         arguments of 'stepscope sample', e.g. '--per-entry 2 --direction both --seed 1'
  --export ARGS         arguments of 'stepscope dataset export' (default '--kind trajectories
                        --format parquet'), e.g. '--split train=0.9,validation=0.1 --allow-overlap'
                        (write these three with '=': --export='--seed 3', as their values start with dashes)
  --license ID          the combined card's license (default other)

Needs a Python with Dask's distributed (Debian: apt-get install python3-distributed): tried in
turn $STEPSCOPE_DASK_PYTHON (alone when set), /usr/bin/python3, python3.`;

const RESULT_PREFIX = 'STEPSCOPE-PIPELINE-RESULT ';

interface DriverResult {
  shards: number;
  done: number[];
  failed: { shard: number; error: string }[];
  seconds: number;
  workers: { worker: string; self_kb: number; children_kb: number }[];
}

/** The first interpreter that imports `distributed`, or an error saying what was tried. */
export function daskPython(env: NodeJS.ProcessEnv = process.env): string {
  const given = env.STEPSCOPE_DASK_PYTHON;
  const tried = given ? [given] : ['/usr/bin/python3', 'python3'];
  for (const py of tried) {
    const r = spawnSync(py, ['-c', 'import distributed'], { stdio: 'ignore' });
    if (r.status === 0) return py;
  }
  throw new CliError(
    `pipeline: no Python with Dask's distributed (tried ${tried.join(', ')}); install it ` +
      '(Debian: apt-get install python3-distributed) or set STEPSCOPE_DASK_PYTHON to an interpreter that has it',
    1,
    'unavailable',
  );
}

const cliPath = () => fileURLToPath(new URL('../../../bin/stepscope.js', import.meta.url));

export const command: Command = {
  name: 'pipeline',
  summary: 'Record, sample and export many programs in shards on Dask (local workers or a scheduler)',
  help: HELP,
  options: {
    programs: { type: 'string', multiple: true },
    out: { type: 'string' },
    'shard-programs': { type: 'string' },
    'local-workers': { type: 'string' },
    scheduler: { type: 'string' },
    record: { type: 'string' },
    sample: { type: 'string' },
    export: { type: 'string' },
    license: { type: 'string' },
  },
  positionals: true,
  async run(values, positionals) {
    // `--programs a.jsonl b.jsonl`: parseArgs takes the first; the rest arrive as positionals.
    const programs = [...((values.programs as string[] | undefined) ?? []), ...positionals];
    if (!programs.length) throw usage("pipeline: --programs is required. Try 'stepscope pipeline --help'.");
    const out = resolve(requireString(values, 'out', 'pipeline'));
    const perShard = intOption(values, 'shard-programs', 'pipeline', 1000, int(1));
    if (values.scheduler !== undefined && values['local-workers'] !== undefined)
      throw usage('pipeline: give --scheduler or --local-workers, not both');
    const workers =
      values['local-workers'] === undefined ? undefined : intOption(values, 'local-workers', 'pipeline', 1, int(1));
    for (const p of programs) if (!existsSync(p)) throw usage(`pipeline: ${p}: no such file`);
    const py = daskPython();
    const args = ['-m', 'stepscope_pipeline', '--programs', ...programs.map((p) => resolve(p))];
    args.push('--out', out, '--shard-programs', String(perShard), '--node', process.execPath, '--cli', cliPath());
    if (workers !== undefined) args.push('--local-workers', String(workers));
    for (const k of ['scheduler', 'record', 'sample', 'export'])
      if (typeof values[k] === 'string') args.push(`--${k}=${values[k] as string}`);
    const result = await runDriver(py, args);
    if (!result) throw new CliError('pipeline: the Dask driver ended without a result (see above)', 1, 'unavailable');
    for (const w of result.workers)
      console.log(
        `worker ${w.worker}: peak RSS ${(w.self_kb / 1024).toFixed(0)} MB, largest step ${(w.children_kb / 1024).toFixed(0)} MB`,
      );
    if (result.failed.length) {
      console.error(
        `pipeline: ${result.failed.length} of ${result.shards} shards failed (run again to retry them; ` +
          `each shard's log is ${join(out, 'shards', 'NNNN', 'steps.log')}); no combined export was written`,
      );
      return 1;
    }
    const parts = readdirSync(join(out, 'shards'))
      .filter((d) => /^\d{4,}$/.test(d) && result.done.includes(Number(d)))
      .map((d) => ({ shard: Number(d), dir: join(out, 'shards', d) }))
      .sort((a, b) => a.shard - b.shard);
    const m = combineShards(out, parts, values.license as string | undefined);
    for (const [name, s] of Object.entries(m.splits))
      console.log(`${name}: ${s.rows} rows, ${s.programs} programs, ${s.files.length} files`);
    console.log(
      `${out}: ${result.shards} shards, ${m.rows} rows (${m.kind}, ${m.format}), README.md, stepscope-export.json`,
    );
    return 0;
  },
};

/** Runs the driver, passing its lines through; resolves to its result line (null when none came). */
function runDriver(py: string, args: string[]): Promise<DriverResult | null> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(py, args, { stdio: ['ignore', 'pipe', 'inherit'], env: recorderEnv() });
    let result: DriverResult | null = null;
    let buf = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buf += chunk;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.startsWith(RESULT_PREFIX)) result = JSON.parse(line.slice(RESULT_PREFIX.length)) as DriverResult;
        else console.log(line);
      }
    });
    child.on('error', (e) => reject(new CliError(`pipeline: cannot start ${py}: ${e.message}`, 1, 'unavailable')));
    child.on('close', (code) => {
      if (code === 2 && !result) return reject(new CliError('pipeline: the programs could not be read (see above)', 2));
      resolvePromise(result);
    });
  });
}
