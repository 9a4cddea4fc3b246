// Export through the API (what the app's dialog calls): the preview (rows per split, the
// leakage guard's counts and refusal, where the files go), a background export polled to the
// end, and the folder rules (a name inside stepscope-exports/, or an absolute path outside
// hidden folders).
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApi, dispatch } from '../../src/api/handlers/index.js';
import { sourceHash } from '../../src/export/benchmarks.js';
import { openCorpus, type ReadCorpus } from '../../src/store/corpus.js';
import { cleanTempDirs, tempDir, writeTraces } from '../store/fixtures.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';

let db: string;
let corpus: ReadCorpus;
let api: ReturnType<typeof createApi>;

beforeAllOrFail(async () => {
  const dir = tempDir('stepscope-export-api-');
  db = join(dir, 'c.db');
  const c = openCorpus(db, { create: true });
  await c.ingest(
    writeTraces(dir, 't.jsonl', [
      { name: 'a', n: 3 },
      { name: 'b', n: 4, exit: 'error' },
    ]),
  );
  c.close();
  corpus = openCorpus(db, { readonly: true });
  api = createApi(corpus);
});
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

const events = (exit?: string) =>
  [
    ...corpus.query(
      `SELECT count(*) AS n FROM events e JOIN traces t ON t.id = e.trace_id ${exit ? `WHERE t.exit = '${exit}'` : ''}`,
    ),
  ][0].n as number;

describe('export over the API', () => {
  it('previews the rows per split, then exports in the background into stepscope-exports/FOLDER', async () => {
    const preview = await api.previewExport({ kind: 'traces', select: ['exit=error'] });
    expect(preview.splits).toEqual([{ name: 'train', rows: events('error'), programs: 1 }]);
    const { job, path } = await api.startExport({
      kind: 'traces',
      select: ['exit=error'],
      format: 'parquet',
      folder: 'errors',
    });
    expect(path).toBe(join(dirname(db), 'stepscope-exports', 'errors'));
    let s = await api.exportProgress({ job });
    while (s.state === 'running') {
      await new Promise((r) => setTimeout(r, 20));
      s = await api.exportProgress({ job });
    }
    expect(s).toMatchObject({
      state: 'done',
      done: events('error'),
      total: events('error'),
      splits: [{ name: 'train', rows: events('error'), files: 1 }],
    });
    expect(readdirSync(join(path, 'data'))).toEqual(['train-00000-of-00001.parquet']);
    expect(JSON.parse(readFileSync(join(path, 'stepscope-export.json'), 'utf8')).rows).toBe(events('error'));
  });

  it("a job started by one instance of the API is polled from another on the same worker (the pool's job worker), to the end; an unknown job is not found", async () => {
    const other = openCorpus(db, { readonly: true });
    try {
      const second = createApi(other);
      const { job, path } = await api.startExport({ kind: 'traces', select: [], folder: 'pooled' });
      let s = await second.exportProgress({ job });
      expect(s.path).toBe(path);
      while (s.state === 'running') {
        await new Promise((r) => setTimeout(r, 20));
        s = await second.exportProgress({ job });
      }
      expect(s).toMatchObject({ state: 'done', done: events(), total: events() });
      const next = await second.startExport({ kind: 'traces', select: ['exit=error'], folder: 'pooled2' });
      expect(next.job).toBe(job + 1);
      while ((await api.exportProgress({ job: next.job })).state === 'running')
        await new Promise((r) => setTimeout(r, 20));
      expect(await dispatch(second, 'exportProgress', { job: job + 50 })).toMatchObject({
        ok: false,
        error: { code: 'not-found' },
      });
    } finally {
      other.close();
    }
  });

  it('refuses a path for a folder, a folder in use, and a wrong filter before starting', async () => {
    for (const folder of ['../x', '/tmp/x', '.hidden', 'a/b', '']) {
      const r = await dispatch(api, 'startExport', { kind: 'traces', select: [], folder });
      expect(r.ok, folder).toBe(false);
      if (!r.ok) expect(r.error.message).toContain('folder: expected a folder name of letters, digits');
    }
    expect(existsSync(join(dirname(db), 'x'))).toBe(false);
    const used = await dispatch(api, 'startExport', { kind: 'traces', select: [], folder: 'errors' });
    expect(used).toMatchObject({ ok: false, error: { code: 'bad-input' } });
    if (!used.ok)
      expect(used.error.message).toMatch(/errors is not empty: tick "replace an earlier export" to replace/);
    const bad = await dispatch(api, 'startExport', {
      kind: 'traces',
      select: ['sql=1; DROP TABLE traces'],
      folder: 'new',
    });
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad-input' } });
    expect(existsSync(join(dirname(db), 'stepscope-exports', 'new'))).toBe(false);
    expect(events()).toBeGreaterThan(0);
  });
});

describe("the dialog's preview: where the files go", () => {
  it('a folder name goes into stepscope-exports/ beside the corpus; an absolute path goes there', async () => {
    const root = join(dirname(db), 'stepscope-exports');
    const named = await api.previewExport({ kind: 'traces', select: [], folder: 'mine' });
    expect(named.destination).toEqual({ root, path: join(root, 'mine'), problem: null });
    expect((await api.previewExport({ kind: 'traces', select: [] })).destination).toEqual({
      root,
      path: null,
      problem: null,
    });
    const elsewhere = join(tempDir('stepscope-export-elsewhere-'), 'ds');
    const there = await api.previewExport({ kind: 'traces', select: [], path: elsewhere });
    expect(there.destination).toEqual({ root, path: elsewhere, problem: null });
    const { job, path } = await api.startExport({ kind: 'traces', select: [], path: elsewhere });
    expect(path).toBe(elsewhere);
    while ((await api.exportProgress({ job })).state === 'running') await new Promise((r) => setTimeout(r, 20));
    expect(readdirSync(join(elsewhere, 'data'))).toEqual(['train-00000-of-00001.jsonl']);
    // Now it holds an export: said before Export, with the dialog's words.
    const again = await api.previewExport({ kind: 'traces', select: [], path: elsewhere });
    expect(again.destination.problem).toBe(
      `${elsewhere} is not empty: tick "replace an earlier export" to replace an earlier export there, or choose another folder`,
    );
    expect(
      (await api.previewExport({ kind: 'traces', select: [], path: elsewhere, force: true })).destination.problem,
    ).toBe(null);
  });

  it('refuses a hidden folder (not beside the corpus), a missing parent and a relative path; nothing is written', async () => {
    const home = tempDir('stepscope-export-home-');
    mkdirSync(join(home, '.config'));
    const hidden = join(home, '.config', 'autostart');
    const h = await api.previewExport({ kind: 'traces', select: [], path: hidden });
    expect(h.destination.problem).toBe(
      `${hidden} is inside a hidden folder, where programs keep their settings: choose another folder`,
    );
    const r = await dispatch(api, 'startExport', { kind: 'traces', select: [], path: hidden });
    expect(r).toMatchObject({ ok: false, error: { code: 'bad-input' } });
    expect(existsSync(hidden)).toBe(false);
    const missing = join(home, 'no', 'such');
    expect((await api.previewExport({ kind: 'traces', select: [], path: missing })).destination.problem).toBe(
      `the folder ${join(home, 'no')} does not exist`,
    );
    const rel = await dispatch(api, 'startExport', { kind: 'traces', select: [], path: 'x/y' });
    expect(rel.ok).toBe(false);
    if (!rel.ok) expect(rel.error.message).toContain('path: expected an absolute folder path');
    const both = await dispatch(api, 'startExport', { kind: 'traces', select: [], path: missing, folder: 'x' });
    expect(both.ok).toBe(false);
    // Beside the corpus a hidden folder is the corpus owner's own: allowed.
    const beside = join(dirname(db), '.exports', 'x');
    mkdirSync(dirname(beside));
    expect((await api.previewExport({ kind: 'traces', select: [], path: beside })).destination.problem).toBe(null);
  });
});

describe("the dialog's preview: the leakage guard", () => {
  it('counts what the guard takes, says why Export would be refused, and lets it through with allowOverlap', async () => {
    // A copy of the corpus whose one program is marked as a benchmark's (benchmark add).
    const marked = join(tempDir('stepscope-export-guard-'), 'c.db');
    copyFileSync(db, marked);
    const w = openCorpus(marked);
    const [{ source }] = [...w.query('SELECT source FROM programs')] as { source: string }[];
    w.markPrograms('held', [sourceHash(source)]);
    w.close();
    const c = openCorpus(marked, { readonly: true });
    const guarded = createApi(c);
    try {
      const p = await guarded.previewExport({ kind: 'traces', select: [], split: 'train=0.9,validation=0.1' });
      expect(p.rows).toBe(0);
      expect(p.splits).toEqual([
        { name: 'train', rows: 0, programs: 0 },
        { name: 'validation', rows: 0, programs: 0 },
      ]);
      expect(p.excluded).toEqual({ programs: 1, rows: events(), sets: ['held'] });
      expect(p.guard).toEqual({
        trainingSplits: ['train'],
        known: [{ name: 'held', from: 'marked', programs: 1 }],
        benchmarks: [{ name: 'held', from: 'marked', programs: 1 }],
        trainingPrograms: 1,
        overlap: { programs: 0, rows: 0 },
        refusal:
          'the leakage guard would leave training split train empty, as its one program belongs to held (marked); give --allow-overlap to keep them there (the dataset card then records the overlap), or select other rows.',
      });
      const refused = await dispatch(guarded, 'startExport', { kind: 'traces', select: [], folder: 'guarded' });
      expect(refused).toMatchObject({ ok: false, error: { code: 'bad-input', message: p.guard.refusal } });
      expect(existsSync(join(dirname(marked), 'stepscope-exports', 'guarded'))).toBe(false);
      const open = await guarded.previewExport({ kind: 'traces', select: [], allowOverlap: true });
      expect(open.guard).toMatchObject({ refusal: null, overlap: { programs: 1, rows: events() } });
      expect(open.rows).toBe(events());
      // Named training splits: none here, so nothing is taken.
      const none = await guarded.previewExport({ kind: 'traces', select: [], split: 'sft=1', trainSplits: [] });
      expect(none.guard).toMatchObject({ trainingSplits: [], refusal: null, trainingPrograms: 0 });
    } finally {
      c.close();
    }
  });
});
