// `stepscope dataset export` from the command line: what it prints, its exit codes, and a
// Parquet export read back by DuckDB.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCorpus } from '../../src/store/corpus.js';
import { cli, ensureBuilt, repoRoot } from '../cli/helpers.js';
import { cleanTempDirs, tempDir, writeTraces } from '../store/fixtures.js';
import { dataFiles, duckRead } from './helpers.js';

let db: string;
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  dir = tempDir('stepscope-dataset-cli-');
  db = join(dir, 'c.db');
  const c = openCorpus(db, { create: true });
  await c.ingest(
    writeTraces(dir, 't.jsonl', [
      { name: 'sum_3', n: 3 },
      { name: 'sum_5', n: 5 },
    ]),
  );
  c.close();
}, 300_000);
afterAll(cleanTempDirs);

describe('stepscope dataset export', () => {
  it('writes the rows, the card and the manifest, and says what it wrote', async () => {
    const out = join(dir, 'ds');
    const r = cli([
      'dataset',
      'export',
      '--db',
      db,
      '-o',
      out,
      '--kind',
      'traces',
      '--format',
      'parquet',
      '--select',
      'name=sum_*',
    ]);
    // The guard says what it did even when it had nothing to do (these traces are no benchmark's).
    expect(r.stderr).toBe(
      "leakage guard: this corpus knows no benchmark programs ('stepscope benchmark add' marks some)\n",
    );
    expect(r.status).toBe(0);
    const m = JSON.parse(readFileSync(join(out, 'stepscope-export.json'), 'utf8'));
    const { rows } = await duckRead(dataFiles(out).train, 'parquet');
    const c = openCorpus(db, { readonly: true });
    const events = [
      ...c.query('SELECT t.name, e.seq FROM events e JOIN traces t ON t.id = e.trace_id ORDER BY t.id, e.seq'),
    ];
    const sources = [...c.query('SELECT DISTINCT source FROM programs')].length;
    expect(rows.map((x) => ({ name: x.name, seq: x.seq }))).toEqual(events);
    c.close();
    expect(sources).toBe(1); // both fixtures run one program with other arguments
    expect(r.stdout).toContain(`train: ${events.length} rows, 1 program, 1 file\n`);
    expect(m.filter).toEqual(['name=sum_*']);
  });

  it('refuses a non-empty output folder (exit 1), a wrong option (exit 2) and a bad filter, naming it', () => {
    const again = cli(['dataset', 'export', '--db', db, '-o', join(dir, 'ds'), '--kind', 'traces']);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/^stepscope: dataset export: .*ds is not empty: give --force/);
    const kind = cli(['dataset', 'export', '--db', db, '-o', join(dir, 'x'), '--kind', 'rows']);
    expect(kind.status).toBe(2);
    expect(kind.stderr).toContain("--kind expects trajectories, prompt-target, corrections or traces, got 'rows'");
    const sel = cli([
      'dataset',
      'export',
      '--db',
      db,
      '-o',
      join(dir, 'x'),
      '--kind',
      'traces',
      '--select',
      'labels-any=wrong-branch',
    ]);
    expect(sel.status).toBe(1);
    expect(sel.stderr).toContain('there are no annotations in this corpus');
    const split = cli([
      'dataset',
      'export',
      '--db',
      db,
      '-o',
      join(dir, 'x'),
      '--kind',
      'traces',
      '--split',
      'train=0.9,test=0.2',
    ]);
    expect(split.stderr).toContain('expected positive fractions adding up to 1');
  });

  it('Ctrl+C while writing removes the temporary folder and writes nothing (exit 130)', async () => {
    const bigDir = tempDir('stepscope-dataset-int-');
    const big = join(bigDir, 'big.db');
    const c = openCorpus(big, { create: true });
    await c.ingest(writeTraces(bigDir, 'big.jsonl', [{ name: 'long', n: 40_000 }]));
    c.close();
    const out = join(bigDir, 'ds');
    const child = spawn(
      process.execPath,
      [
        join(repoRoot, 'bin/stepscope.js'),
        'dataset',
        'export',
        '--db',
        big,
        '-o',
        out,
        '--kind',
        'traces',
        '--shard-rows',
        '10000',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const partial = () => readdirSync(bigDir).filter((f) => f.startsWith('.ds.partial-'));
    // Wait until data is being written, then interrupt.
    let exited = false;
    child.on('exit', () => (exited = true));
    const writing = () =>
      partial().some((f) => existsSync(join(bigDir, f, 'data')) && readdirSync(join(bigDir, f, 'data')).length > 0);
    while (!writing() && !exited) await new Promise((r) => setTimeout(r, 5));
    expect(exited, 'the export ended before it could be interrupted').toBe(false);
    child.kill('SIGINT');
    const code = await new Promise((r) => child.on('exit', (c, sig) => r(c ?? sig)));
    expect(code).toBe(130);
    expect(stderr).toContain('interrupted');
    expect(partial()).toEqual([]);
    expect(existsSync(out)).toBe(false);
  }, 120_000);
});
