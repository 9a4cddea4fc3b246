// Programs are counted and guarded by their source text (docs/export.md, "Splits, by
// program" and "The leakage guard"): the same function recorded from another file is
// another program row in the corpus but the same program for the export. A corpus of four
// CRUXEval tasks (a benchmark set over them) and the same four functions recorded again
// from another file (`again_*`, in no set).
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportDataset, previewExport, type WriteOptions } from '../../src/export/run.js';
import { createEvalSet } from '../../src/predictions/create.js';
import type { Corpus } from '../../src/store/corpus.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, cruxevalTraces } from '../predictions/helpers.js';
import { dataFiles, jsonlRead } from './helpers.js';

const IDS = ['sample_0', 'sample_1', 'sample_2', 'sample_3'];
let corpus: Corpus;
let db: string;
let dir: string;
let n = 0;

beforeAll(async () => {
  const tasks = cruxevalTraces(IDS);
  const again = tasks.map((t) => ({
    ...t,
    header: { ...t.header, name: t.header.name.replace('sample', 'again'), filename: 'again.py' },
  }));
  ({ corpus, path: db, dir } = await corpusOf([...tasks, ...again], 'stepscope-export-programs-'));
  const ids = [...corpus.query("SELECT id FROM traces WHERE name LIKE 'sample_%' ORDER BY id")].map(
    (r) => r.id as number,
  );
  createEvalSet(corpus, { name: 'crux-out', task: 'cruxeval-output', traceIds: ids });
}, 300_000);
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

const run = (opts: Partial<WriteOptions>) =>
  exportDataset(db, join(dir, `out${n++}`), { kind: 'traces', select: [], ...opts }).then((m) => ({
    m,
    out: join(dir, `out${n - 1}`),
  }));
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('programs by source', () => {
  it('the layout: eight program rows in the corpus, four sources', () => {
    const [r] = [...corpus.query('SELECT count(*) AS rows, count(DISTINCT source) AS sources FROM programs')];
    expect(r).toEqual({ rows: 8, sources: 4 });
  });

  it('a function recorded from two files counts once, in one split; the totals add up the splits', async () => {
    const { m, out } = await run({ split: 'train=0.5,test=0.5', seed: 5, allowOverlap: true });
    const sources = new Set([...corpus.query('SELECT source FROM programs')].map((p) => sha(p.source as string)));
    let seen = 0;
    for (const [split, files] of Object.entries(dataFiles(out))) {
      const programs = new Set(jsonlRead(files).map((r) => r.program as string));
      expect(m.splits[split].programs, split).toBe(programs.size);
      seen += programs.size;
    }
    expect(seen).toBe(sources.size);
    expect(Object.values(m.splits).every((s) => s.programs > 0)).toBe(true);
    expect(m.programs).toBe(sources.size);
    expect(m.rows).toBe(m.splits.train.rows + m.splits.test.rows);
    expect(m.excluded_sets).toEqual([]);
    expect(m.overlap_programs).toBe(m.splits.train.programs); // every program is a benchmark's
  });

  it("a benchmark function recorded again is left out of training even when the filter leaves out the benchmark's own traces", async () => {
    // Every `again_*` program is a benchmark's by its source, so the training split would be
    // empty: the plan counts them, and the export is refused rather than written empty.
    const opts = { kind: 'traces' as const, select: ['name=again_*'] };
    const plan = previewExport(db, opts);
    expect(plan.splits.map((s) => [s.name, s.rows, s.programs])).toEqual([['train', 0, 0]]);
    expect(plan.excluded).toEqual({
      programs: 4,
      rows: [...corpus.query("SELECT sum(events) AS n FROM traces WHERE name LIKE 'again_%'")][0].n,
      sets: ['cruxeval', 'crux-out'],
    });
    expect(plan.guard.benchmarks).toEqual([
      { name: 'cruxeval', from: 'traces', programs: 4 },
      { name: 'crux-out', from: 'evalset', programs: 4 },
    ]);
    const out = join(dir, `out${n++}`);
    await expect(exportDataset(db, out, { ...opts })).rejects.toThrow(
      'the leakage guard would leave training split train empty, as all 4 of its programs belong to cruxeval (recorded from it) or crux-out (evaluation set)',
    );
    expect(existsSync(out)).toBe(false);
  });

  it('programs of the benchmark that no selected row has are not counted (with --allow-overlap)', async () => {
    const { m, out } = await run({ select: ['name=again_0'], allowOverlap: true });
    const rows = jsonlRead(dataFiles(out).train);
    expect(new Set(rows.map((r) => r.program)).size).toBe(1);
    expect(m).toMatchObject({ rows: rows.length, programs: 1, splits: { train: { rows: rows.length, programs: 1 } } });
  });
});
