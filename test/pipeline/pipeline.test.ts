// `stepscope pipeline` on Dask (docs/pipeline.md): the same programs give the same split per
// program however they are sharded, a re-run skips the shards done, a lost worker or a shard
// that fails once costs only that shard, and a scheduler address works as the local cluster.
// Skipped, saying why, where no Python has Dask's distributed (Debian: python3-distributed).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanTempDirs, tempDir } from '../store/fixtures.js';
import { cli, ensureBuilt, repoRoot } from '../cli/helpers.js';

function findDaskPython(): string | undefined {
  const given = process.env.STEPSCOPE_DASK_PYTHON;
  for (const py of given ? [given] : ['/usr/bin/python3', 'python3'])
    if (spawnSync(py, ['-c', 'import distributed'], { stdio: 'ignore' }).status === 0) return py;
  return undefined;
}

const py = findDaskPython();
const title = py
  ? 'stepscope pipeline on Dask'
  : 'stepscope pipeline on Dask (SKIPPED: no Python with distributed; apt-get install python3-distributed)';

interface Manifest {
  rows: number;
  splits: Record<string, { rows: number; programs: number; files: string[]; program_hashes: string[] }>;
  shards: { shard: number }[];
}

const SPLIT = ['--sample=--direction both', '--export=--allow-overlap --split train=0.5,validation=0.5 --seed 3'];
let dir: string;
let programs: string;

const run = (out: string, args: string[], env: NodeJS.ProcessEnv = {}) =>
  cli(['pipeline', '--programs', programs, '--out', join(dir, out), ...SPLIT, ...args], {
    env: { ...process.env, ...env },
    timeout: 420_000,
  });
const manifest = (out: string) => JSON.parse(readFileSync(join(dir, out, 'stepscope-export.json'), 'utf8')) as Manifest;
/** Each program hash with its split. */
const splitOf = (m: Manifest) =>
  Object.fromEntries(Object.entries(m.splits).flatMap(([name, s]) => s.program_hashes.map((h) => [h, name])));

describe.skipIf(!py)(title, () => {
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir('stepscope-pipeline-');
    programs = join(dir, 'tasks.jsonl');
    const lines = readFileSync(join(repoRoot, 'resources/cruxeval/cruxeval.jsonl'), 'utf8').split('\n');
    writeFileSync(programs, lines.slice(0, 6).join('\n') + '\n');
  });
  afterAll(cleanTempDirs);

  it('gives every program the same split with 1 shard as with 3, and one card over the shards', async () => {
    const one = run('one', ['--shard-programs', '6', '--local-workers', '1']);
    expect(one.status, one.stderr).toBe(0);
    const three = run('three', ['--shard-programs', '2', '--local-workers', '2']);
    expect(three.status, three.stderr).toBe(0);
    expect(three.stdout).toMatch(/3 shards, \d+ rows/);
    const [a, b] = [manifest('one'), manifest('three')];
    expect(Object.keys(splitOf(a))).toHaveLength(6);
    expect(splitOf(b)).toEqual(splitOf(a));
    expect(b.rows).toBe(a.rows);
    expect(b.shards.map((s) => s.shard)).toEqual([0, 1, 2]);
    for (const name of Object.keys(a.splits)) expect(b.splits[name].rows).toBe(a.splits[name].rows);
    // The files listed are there, in data/, and hold the rows counted.
    let rows = 0;
    for (const s of Object.values(b.splits))
      for (const f of s.files) {
        expect(f).toMatch(/^data\/(train|validation)-s000\d-\d{5}-of-\d{5}\.parquet$/);
        const buf = readFileSync(join(dir, 'three', f));
        rows += (await parquetReadObjects({ file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length) }))
          .length;
      }
    expect(rows).toBe(b.rows);
    const card = readFileSync(join(dir, 'three', 'README.md'), 'utf8');
    expect(card).toContain('path: "data/train-*.parquet"');
    expect(card).toContain(`num_examples: ${b.splits.train.rows}`);
    expect(card).toContain('in 3 shards, each recorded into its own corpus');
  }, 900_000);

  it('skips the shards already done when run again', () => {
    const before = statSync(join(dir, 'three', 'shards', '0001', 'shard.json')).mtimeMs;
    const again = run('three', ['--shard-programs', '2', '--local-workers', '2']);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('3 of 3 shards already done, skipped');
    expect(statSync(join(dir, 'three', 'shards', '0001', 'shard.json')).mtimeMs).toBe(before);
    expect(manifest('three').rows).toBe(manifest('one').rows);
  }, 600_000);

  it('redoes only the shard of a worker killed mid-shard', () => {
    const r = run('killed', ['--shard-programs', '2', '--local-workers', '2'], {
      STEPSCOPE_PIPELINE_CRASH_ONCE: '0001:kill',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(join(dir, 'killed', '.crashed-0001'))).toBe(true); // the worker did die there
    expect(splitOf(manifest('killed'))).toEqual(splitOf(manifest('one')));
    expect(manifest('killed').rows).toBe(manifest('one').rows);
  }, 600_000);

  it('retries a failing shard once, and reports one that fails again while the others finish', () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, readFileSync(programs, 'utf8') + '{"id": "broken"}\n');
    const r = cli(['pipeline', '--programs', bad, '--out', join(dir, 'bad'), ...SPLIT, '--shard-programs', '2'], {
      env: { ...process.env, STEPSCOPE_PIPELINE_CRASH_ONCE: '0000:raise' },
      timeout: 420_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/shard 0003 failed \(after one retry\): RuntimeError: record-cruxeval exited with 2/);
    expect(r.stderr).toContain('expected an object with string fields id, code, input, output');
    expect(r.stderr).toContain('1 of 4 shards failed');
    expect(r.stderr).not.toContain('shard 0000 failed'); // it crashed once, and its retry went through
    for (const k of ['0000', '0001', '0002'])
      expect(existsSync(join(dir, 'bad', 'shards', k, 'shard.json'))).toBe(true);
    expect(existsSync(join(dir, 'bad', 'stepscope-export.json'))).toBe(false);
  }, 600_000);

  // Dask's profiler kept a profile a second for an hour in each worker: its RSS grew by about
  // 1 MB a minute through the first hour of the 100,000-program run (docs/pipeline.md).
  it("starts the local cluster's workers without Dask's statistical profiler", () => {
    const code = [
      'import argparse',
      'from stepscope_pipeline import driver',
      'if __name__ == "__main__":',
      '    c, cl = driver.client_for(argparse.Namespace(scheduler=None, local_workers=1))',
      '    print(*c.run(lambda dask_worker: sorted(dask_worker.periodic_callbacks)).values())',
      '    c.close(); cl.close()',
    ].join('\n');
    const script = join(dir, 'callbacks.py');
    writeFileSync(script, code);
    const r = spawnSync(py!, [script], {
      encoding: 'utf8',
      env: { ...process.env, PYTHONPATH: join(repoRoot, 'python') },
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("'heartbeat'"); // the worker's callbacks were read
    expect(r.stdout).not.toContain('profile');
  }, 180_000);

  describe('with a scheduler address', () => {
    const started: ChildProcess[] = [];
    afterAll(() => {
      for (const p of started) if (p.pid) process.kill(p.pid, 'SIGTERM');
    });

    it('runs the shards on its workers, with the same result as local workers', async () => {
      const file = join(dir, 'scheduler.json');
      const start = (args: string[]) => {
        const p = spawn(py!, args, { stdio: 'ignore' });
        started.push(p);
      };
      start([
        '-m',
        'distributed.cli.dask_scheduler',
        '--host',
        '127.0.0.1',
        '--port',
        '0',
        '--no-dashboard',
        '--scheduler-file',
        file,
      ]);
      for (let k = 0; k < 200 && !existsSync(file); k++) await new Promise((r) => setTimeout(r, 100));
      const address = (JSON.parse(readFileSync(file, 'utf8')) as { address: string }).address;
      start(['-m', 'distributed.cli.dask_worker', address, '--nworkers', '1', '--nthreads', '1', '--no-dashboard']);
      const r = run('remote', ['--shard-programs', '2', '--scheduler', address]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain(`3 shards to run on`);
      expect(r.stdout).toContain(address);
      expect(splitOf(manifest('remote'))).toEqual(splitOf(manifest('one')));
      expect(manifest('remote').rows).toBe(manifest('one').rows);
    }, 600_000);
  });
});

describe('stepscope pipeline without Dask', () => {
  beforeAll(ensureBuilt);

  it('says which interpreters it tried and which package to install', () => {
    const r = cli(
      ['pipeline', '--programs', join(repoRoot, 'resources/cruxeval/cruxeval.jsonl'), '--out', '/nowhere'],
      {
        env: { ...process.env, STEPSCOPE_DASK_PYTHON: '/bin/false' },
      },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("no Python with Dask's distributed (tried /bin/false)");
    expect(r.stderr).toContain('apt-get install python3-distributed');
    expect(existsSync('/nowhere')).toBe(false);
  });
});
