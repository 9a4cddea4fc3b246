// The export job (src/export/run.ts) on a corpus of more than 5,000 rows: its progress,
// an export without a progress callback, Ctrl+C's cleanup, its refusals (with their codes),
// an older corpus left untouched, files and connections closed, a plan the rows do not meet,
// and the card's loading hints run by DuckDB against the folder they describe.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetMetadata } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exportDataset, partialPrefix, previewExport, removePartial } from '../../src/export/run.js';
import { Corpus, openCorpus } from '../../src/store/corpus.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { openDatabase } from '../../src/store/open.js';
import { cleanTempDirs, corpusFileOf, fileHash, seedOldCorpusFrom, tempDir, writeTraces } from '../store/fixtures.js';
import { dataFiles, jsonlRead } from './helpers.js';

let db: string;
let dir: string;
/** Events of the corpus: one row each with --kind traces. */
let events: number;
let n = 0;
const next = () => join(dir, `out${n++}`);

beforeAll(async () => {
  // 4 + 2n + 2 events a trace: 5,206 + 12 + 10.
  ({ dir, db } = await corpusFileOf('stepscope-export-run-', [
    { name: 'big', n: 2600 },
    { name: 'small', n: 3 },
    { name: 'err', n: 2, exit: 'error' },
  ]));
  const c = openCorpus(db, { readonly: true });
  events = [...c.query('SELECT count(*) AS n FROM events')][0].n as number;
  c.close();
}, 300_000);
afterAll(cleanTempDirs);

describe('progress', () => {
  it('reports rows done and planned as it goes (not every row), ending at the total; the shards hold the rows', async () => {
    expect(events).toBeGreaterThan(5000);
    const calls: [number, number][] = [];
    const out = next();
    const m = await exportDataset(db, out, {
      kind: 'traces',
      select: [],
      shardRows: 2000,
      onProgress: (done, total) => void calls.push([done, total]),
    });
    expect(m.rows).toBe(events);
    expect(calls.at(-1)).toEqual([events, events]);
    expect(calls.every(([, total]) => total === events)).toBe(true);
    for (let k = 1; k < calls.length; k++) expect(calls[k][0]).toBeGreaterThan(calls[k - 1][0]);
    expect(calls.filter(([done]) => done < events).length).toBeGreaterThan(0);
    expect(calls.length).toBeLessThan(events / 1000);
    const files = dataFiles(out).train;
    expect(files.map((f) => f.slice(out.length + 1))).toEqual(m.splits.train.files);
    expect(files.map((f) => jsonlRead([f]).length)).toEqual([2000, 2000, events - 4000]);
  });

  it('an export of thousands of rows with no progress callback (a library call) completes', async () => {
    const m = await exportDataset(db, next(), { kind: 'traces', select: [] });
    expect(m.rows).toBe(events);
  });
});

describe('Ctrl+C', () => {
  it("removes this process's temporary folder of the output, and nothing else beside it", async () => {
    const parent = join(dir, 'exports');
    mkdirSync(join(parent, 'keep'), { recursive: true });
    writeFileSync(join(parent, 'keep', 'notes.txt'), 'mine');
    // Another process's export of the same name (its pid in the name) is not ours to remove.
    const other = join(parent, '.ds.partial-1-123');
    mkdirSync(other);
    const out = join(parent, 'ds');
    let during: string[] = [];
    let held: string[] = [];
    const interrupted = exportDataset(db, out, {
      kind: 'traces',
      select: [],
      onProgress: (done) => {
        if (done >= events) return;
        during = readdirSync(parent).filter((f) => f.startsWith(partialPrefix(out)));
        held = readdirSync(join(parent, during[0], 'data'));
        removePartial(out); // what the CLI's SIGINT handler does before it exits
      },
    });
    await expect(interrupted).rejects.toThrow(/ENOENT/);
    expect(during.length).toBe(1);
    expect(held).toEqual(['train-00000-of-00001.jsonl']);
    expect(readdirSync(parent).sort()).toEqual(['.ds.partial-1-123', 'keep']);
    expect(readFileSync(join(parent, 'keep', 'notes.txt'), 'utf8')).toBe('mine');
    removePartial(out); // nothing of ours left: a no-op
    expect(readdirSync(parent).sort()).toEqual(['.ds.partial-1-123', 'keep']);
  });
});

describe('refusals', () => {
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => {
        throw new Error('expected a refusal');
      },
      (e: Error & { code?: string }) => ({ message: e.message, code: e.code }),
    );

  it('an output that is a file, a missing parent folder, --force over files that are not an export: each with its code', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    expect(await refusal(exportDataset(db, file, { kind: 'traces', select: [] }))).toEqual({
      message: `${file} exists and is not a folder`,
      code: 'bad-input',
    });
    const orphan = join(dir, 'no-such-parent', 'ds');
    expect(await refusal(exportDataset(db, orphan, { kind: 'traces', select: [] }))).toEqual({
      message: `${join(dir, 'no-such-parent')} does not exist (the output folder's parent must)`,
      code: 'not-found',
    });
    expect(existsSync(join(dir, 'no-such-parent'))).toBe(false);
    const mine = join(dir, 'mine');
    mkdirSync(mine);
    writeFileSync(join(mine, 'notes.txt'), 'keep me');
    expect(await refusal(exportDataset(db, mine, { kind: 'traces', select: [], force: true }))).toMatchObject({
      message: expect.stringMatching(/not a Stepscope export/),
      code: 'bad-input',
    });
  });

  it('a label filter, or an annotator alone, on a corpus without annotations', async () => {
    for (const select of [['annotator=ada'], ['labels-any=data.wrong_value']]) {
      expect(await refusal(exportDataset(db, next(), { kind: 'traces', select })), select[0]).toMatchObject({
        message: expect.stringMatching(/there are no annotations in this corpus/),
        code: 'bad-input',
      });
    }
  });

  it('a corpus of an older schema: the preview and the export ask for an upgrade and leave it as it was', async () => {
    const old = join(tempDir('stepscope-export-old-'), 'old.db');
    const version = MIGRATIONS.at(-2)!.version;
    openDatabase(old, { create: true, migrations: MIGRATIONS.filter((mg) => mg.version <= version) }).close();
    await seedOldCorpusFrom(old, version, dir, writeTraces(dir, 'old.jsonl', [{ name: 'old', n: 3 }]));
    const before = fileHash(old);
    expect(() => previewExport(old, { kind: 'traces', select: [] })).toThrow(
      expect.objectContaining({ code: 'needs-upgrade' }),
    );
    expect(await refusal(exportDataset(old, next(), { kind: 'traces', select: [] }))).toMatchObject({
      code: 'needs-upgrade',
    });
    expect(fileHash(old)).toBe(before);
  });
});

describe('resources and consistency', () => {
  const openFiles = () => readdirSync('/proc/self/fd').length;

  it.runIf(existsSync('/proc/self/fd'))(
    'closes the corpus and every file after an export, a preview and a refused export',
    async () => {
      await exportDataset(db, next(), { kind: 'traces', select: [], format: 'parquet' });
      const before = openFiles();
      for (let k = 0; k < 3; k++) {
        await exportDataset(db, next(), { kind: 'traces', select: [], shardRows: 3000 });
        previewExport(db, { kind: 'traces', select: [] });
        await expect(
          exportDataset(db, next(), { kind: 'traces', select: ['sql=no_such_column > 1'] }),
        ).rejects.toThrow();
      }
      expect(openFiles()).toBe(before);
    },
  );

  it('rows that fall short of the plan fail the export (named split, counts) and leave nothing', async () => {
    const read = Corpus.prototype.iterateExportRows;
    const spy = vi.spyOn(Corpus.prototype, 'iterateExportRows').mockImplementation(function* (
      this: Corpus,
      ...args: Parameters<typeof read>
    ) {
      const rows = [...read.apply(this, args)];
      yield* rows.slice(1);
    });
    const out = next();
    try {
      await expect(exportDataset(db, out, { kind: 'traces', select: ['name=small'] })).rejects.toThrow(
        'split train: wrote 11 rows, planned 12',
      );
    } finally {
      spy.mockRestore();
    }
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('.partial-'))).toEqual([]);
  });
});

describe("the card's loading hints", () => {
  it('its DuckDB query reads the rows of the first split from the folder, in both formats; the Parquet files say who wrote them', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    for (const format of ['jsonl', 'parquet'] as const) {
      const out = next();
      const m = await exportDataset(db, out, { kind: 'traces', select: ['name=small'], format });
      const card = readFileSync(join(out, 'README.md'), 'utf8');
      const query = /with DuckDB: `([^`]+)`/.exec(card)?.[1];
      expect(query, format).toMatch(/^SELECT \* FROM /);
      const duck = await DuckDBInstance.create(':memory:');
      const c = await duck.connect();
      await c.run(`SET file_search_path = '${out}'`);
      const rows = (await c.runAndReadAll(query!)).getRowObjectsJson();
      c.closeSync();
      expect(rows.length, format).toBe(m.splits.train.rows);
      expect(rows.map((r) => r.name)).toEqual(Array(12).fill('small'));
      expect(readFileSync(join(out, 'stepscope-export.json'), 'utf8')).toBe(JSON.stringify(m, null, 2) + '\n');
      if (format === 'parquet') {
        const buf = readFileSync(dataFiles(out).train[0]);
        expect(
          parquetMetadata(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer).created_by,
        ).toBe(`Stepscope ${version}`);
      }
    }
  });
});
