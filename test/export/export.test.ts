// Curated export (docs/export.md): every kind in both formats read back by DuckDB and
// hyparquet with their column types; rows checked against the corpus itself and against
// the semantics' own prompt/target cut; splits by program, the leakage guard on CRUXEval,
// byte-identical reruns, the dataset card's YAML and counts, and a failed export's leftovers.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { exportDataset, previewExport, type WriteOptions } from '../../src/export/run.js';
import type { Manifest } from '../../src/export/manifest.js';
import { contextFor, promptTarget, textParts, type Trajectory } from '../../src/semantics/index.js';
import type { Corpus } from '../../src/store/corpus.js';
import { loadTrace } from '../../src/trajectories/load.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { dataFiles, duckRead, exportCorpus, hyparquetRead, jsonlRead, type ReadRow } from './helpers.js';

let corpus: Corpus;
let db: string;
let dir: string;
let n = 0;

beforeAll(async () => {
  ({ corpus, path: db, dir } = await exportCorpus());
}, 900_000);
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

async function run(opts: Partial<WriteOptions> & Pick<WriteOptions, 'kind'>): Promise<{ out: string; m: Manifest }> {
  const out = join(dir, `out${n++}`);
  const m = await exportDataset(db, out, { select: [], ...opts });
  return { out, m };
}

const sql = <T = Record<string, unknown>>(q: string) => [...corpus.query(q)] as T[];
const one = (q: string) => Object.values(sql(q)[0])[0] as number;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
/** Program id -> sha256 of its source, computed here from the programs table. */
const programHash = () => new Map(sql<{ id: number; source: string }>('SELECT id, source FROM programs').map((p) => [p.id, sha(p.source)]));

describe('every kind in both formats reads back with an independent reader', () => {
  const TYPES: Record<string, Record<string, string>> = {
    trajectories: { name: 'VARCHAR', trace: 'INTEGER', program: 'VARCHAR', labels: 'VARCHAR[]', id: 'INTEGER', text: 'VARCHAR', direction: 'VARCHAR', entry: 'INTEGER', actions: 'VARCHAR[]', exit: 'VARCHAR' },
    'prompt-target': { name: 'VARCHAR', trace: 'INTEGER', program: 'VARCHAR', labels: 'VARCHAR[]', source: 'VARCHAR', id: 'INTEGER', set: 'VARCHAR', key: 'VARCHAR', step: 'INTEGER', direction: 'VARCHAR', entry: 'INTEGER', actions: 'VARCHAR[]', action: 'VARCHAR', prompt: 'VARCHAR', target: 'VARCHAR' },
    corrections: { name: 'VARCHAR', trace: 'INTEGER', program: 'VARCHAR', labels: 'VARCHAR[]', prediction: 'INTEGER', item: 'INTEGER', set: 'VARCHAR', key: 'VARCHAR', model: 'VARCHAR', sample: 'INTEGER', direction: 'VARCHAR', action: 'VARCHAR', prompt: 'VARCHAR', chosen: 'VARCHAR', rejected: 'VARCHAR', wrong: 'VARCHAR[]' },
    traces: { name: 'VARCHAR', trace: 'INTEGER', program: 'VARCHAR', labels: 'VARCHAR[]', seq: 'INTEGER', event: 'VARCHAR', frame: 'INTEGER', func: 'VARCHAR', line: 'INTEGER', src: 'VARCHAR', locals: 'VARCHAR', arg: 'VARCHAR', parent: 'INTEGER' },
  };
  const EXPECTED_ROWS: Record<string, string> = {
    trajectories: 'SELECT count(*) FROM trajectories',
    'prompt-target': 'SELECT (SELECT count(*) FROM evalset_items) + (SELECT count(*) FROM trajectory_steps)',
    corrections: "SELECT count(*) FROM predictions WHERE correct = 0",
    traces: 'SELECT count(*) FROM events',
  };

  for (const kind of ['trajectories', 'prompt-target', 'corrections', 'traces'] as const) {
    it(`${kind}: Parquet (DuckDB, hyparquet) and JSONL (DuckDB, JSON.parse) hold the same rows, typed, as many as the corpus has`, async () => {
      const pq = await run({ kind, format: 'parquet', allowOverlap: true, shardRows: 700 });
      const js = await run({ kind, format: 'jsonl', allowOverlap: true, shardRows: 700 });
      const files = { pq: dataFiles(pq.out).train, js: dataFiles(js.out).train };
      const fromParquet = await duckRead(files.pq, 'parquet');
      const fromJson = await duckRead(files.js, 'jsonl');
      const parsed = jsonlRead(files.js);
      const hyp = (await Promise.all(files.pq.map(hyparquetRead))).flat();
      expect(fromParquet.types).toEqual(TYPES[kind]);
      expect(Object.keys(parsed[0])).toEqual(Object.keys(TYPES[kind]));
      expect(parsed.length).toBe(one(EXPECTED_ROWS[kind]));
      expect(parsed.length).toBeGreaterThan(10);
      expect(fromParquet.rows).toEqual(parsed);
      expect(hyp).toEqual(parsed);
      // DuckDB's JSON reader types columns by sampling; the values are what matter there.
      expect(fromJson.rows.map((r) => r.program)).toEqual(parsed.map((r) => r.program));
      expect(pq.m.splits.train.files.length).toBe(Math.ceil(parsed.length / 700));
      expect(files.pq.length).toBe(pq.m.splits.train.files.length);
      for (const f of files.js) expect(readFileSync(f, 'utf8').split('\n').filter(Boolean).length).toBeLessThanOrEqual(700);
      const hashes = programHash();
      const traceProgram = new Map(sql<{ id: number; program_id: number }>('SELECT id, program_id FROM traces').map((t) => [t.id, t.program_id]));
      for (const r of parsed) {
        expect(r.program).toBe(hashes.get(traceProgram.get(r.trace as number)!));
        expect(r.labels).toEqual([]);
      }
    });
  }

  it('trajectories rows carry the stored text, direction, entry, actions and exit', async () => {
    const { out } = await run({ kind: 'trajectories', allowOverlap: true });
    const rows = jsonlRead(dataFiles(out).train);
    for (const r of rows) {
      const t = corpus.getTrajectory(r.id as number)!;
      expect(r).toMatchObject({ name: t.name, trace: t.traceId, text: t.text, direction: t.direction, entry: t.entry, exit: t.exit });
      expect(r.actions).toEqual(t.actions.map((a) => (a.action === 'breakpoint' ? `breakpoint ${a.src}` : a.action)));
    }
  });

  it('prompt-target: trajectory steps equal the semantics\' prompt and target of that step; items equal the stored items', async () => {
    const { out } = await run({ kind: 'prompt-target', allowOverlap: true });
    const rows = jsonlRead(dataFiles(out).train);
    const steps = rows.filter((r) => r.source === 'trajectory');
    const items = rows.filter((r) => r.source === 'item');
    expect(steps.length).toBe(one('SELECT count(*) FROM trajectory_steps'));
    for (const r of steps) {
      const t = corpus.getTrajectory(r.id as number)!;
      const tr = loadTrace(corpus, t.traceId);
      const walked: Trajectory = { direction: t.direction, entry: t.entry, actions: t.actions, states: stateNodes(t), exit: t.exit } as Trajectory;
      const want = promptTarget(textParts(tr.index, walked, contextFor(t.direction, tr.record)), r.step as number);
      expect({ prompt: r.prompt, target: r.target }).toEqual(want);
    }
    for (const r of items) {
      const it = corpus.getItem(r.id as number)!;
      expect(r).toMatchObject({ prompt: it.prompt, target: it.target, key: it.key, action: it.action, step: it.actions.length - 1 });
    }
  });

  it('corrections: prompt, chosen = the item\'s target, rejected = the wrong completion, the model and the fields it got wrong', async () => {
    const { out } = await run({ kind: 'corrections', allowOverlap: true });
    const rows = jsonlRead(dataFiles(out).train);
    const truth = new Map(
      sql<{ id: number; prompt: string; target: string; completion: string; label: string; em_locals: number | null; format_error: number | null }>(
        'SELECT p.id, i.prompt, i.target, p.completion, r.label, p.em_locals, p.format_error FROM predictions p JOIN evalset_items i ON i.id = p.item_id JOIN runs r ON r.id = p.run_id WHERE p.correct = 0',
      ).map((p) => [p.id, p]),
    );
    expect(rows.length).toBe(truth.size);
    for (const r of rows) {
      const p = truth.get(r.prediction as number)!;
      expect(r).toMatchObject({ prompt: p.prompt, chosen: p.target, rejected: p.completion, model: p.label });
      expect(r.chosen).not.toBe(r.rejected);
      if (p.format_error) expect(r.wrong).toEqual(['format']);
      else expect((r.wrong as string[]).includes('locals')).toBe(p.em_locals === 0);
    }
  });
});

/** The tree nodes of a stored trajectory's states (inverse: 2*seq, +1 for an inv_line_call). */
function stateNodes(t: { direction: string; states: number[]; lineCalls: number[] }): number[] {
  return t.states.map((seq, j) => (t.direction === 'forward' ? seq : 2 * seq + (t.lineCalls.includes(j) ? 1 : 0)));
}
