// Export through the API (what the app's dialog calls): the preview, a background export
// polled to the end, and the folder rule (a name inside stepscope-exports/, never a path).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApi, dispatch } from '../../src/api/handlers/index.js';
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
    if (!used.ok) expect(used.error.message).toMatch(/errors is not empty: give --force/);
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
