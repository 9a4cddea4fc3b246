import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectionOf } from '../../src/store/connection.js';
import { CorpusError, openCorpus } from '../../src/store/corpus.js';
import { newAnnotation as ann } from '../helpers/new-annotation.js';
import { snapshot, tempDir, writeTraces, cleanTempDirs } from './fixtures.js';

afterAll(cleanTempDirs);

/** What a call threw (undefined when it returned). */
function thrown(f: () => unknown): { kind?: string; message?: string } | undefined {
  try {
    f();
    return undefined;
  } catch (e) {
    return e as CorpusError;
  }
}

describe('locked and read-only corpora', () => {
  it('a write blocked by another connection write transaction fails with a clear message and changes nothing', async () => {
    const dir = tempDir();
    const path = join(dir, 'c.db');
    const seed = openCorpus(path, { create: true });
    await seed.ingest(writeTraces(dir, 'seed.jsonl', [{ name: 'seed', n: 2 }]));
    seed.close();

    const other = new Database(path);
    other.exec("BEGIN IMMEDIATE; UPDATE traces SET name = 'renamed'");
    const corpus = openCorpus(path, { busyTimeoutMs: 50 });
    const before = snapshot(connectionOf(corpus)); // readers are not blocked in WAL mode
    const err = await corpus.ingest(writeTraces(dir, 'new.jsonl', [{ name: 'new', n: 3 }])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CorpusError);
    expect((err as CorpusError).kind).toBe('locked');
    expect((err as CorpusError).message).toBe(
      `${path} is locked: another program is writing to it. Try again when it has finished.`,
    );
    other.exec('ROLLBACK');
    other.close();
    expect(snapshot(connectionOf(corpus))).toBe(before);
    expect(connectionOf(corpus).inTransaction).toBe(false);
    // Once the lock is gone the same corpus takes the file.
    expect(await corpus.ingest(join(dir, 'new.jsonl'))).toMatchObject({ inserted: 1 });
    corpus.close();
  });

  it('opening an older corpus that another connection is writing reports the lock', () => {
    const dir = tempDir();
    const path = join(dir, 'c.db');
    openCorpus(path, { create: true }).close();
    const other = new Database(path);
    other.pragma('user_version = 0'); // pretend it needs migrating
    other.exec('BEGIN IMMEDIATE');
    try {
      expect(() => openCorpus(path, { busyTimeoutMs: 50 })).toThrow(/is locked: another program is writing to it/);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
  });

  it('a read-only corpus reads while a writer works, and refuses writes with a clear message', async () => {
    const dir = tempDir();
    const path = join(dir, 'c.db');
    const writer = openCorpus(path, { create: true });
    await writer.ingest(writeTraces(dir, 'a.jsonl', [{ name: 'a', n: 2 }]));
    const reader = openCorpus(path, { readonly: true });
    expect(reader.readonly).toBe(true);
    connectionOf(writer).exec('BEGIN IMMEDIATE');
    connectionOf(writer).prepare("UPDATE traces SET name = 'b'").run();
    expect(reader.listTraces().rows.map((r) => r.name)).toEqual(['a']);
    connectionOf(writer).exec('COMMIT');
    const before = snapshot(connectionOf(reader));
    // @ts-expect-error ingest writes: not on a ReadCorpus; called anyway, to see it refused at run time
    const err = await reader.ingest(writeTraces(dir, 'c.jsonl', [{ name: 'c', n: 1 }])).catch((e: unknown) => e);
    expect((err as CorpusError).kind).toBe('readonly');
    expect((err as Error).message).toBe(
      `${path} is read-only: cannot write to it (check the file and folder permissions).`,
    );
    expect(snapshot(connectionOf(reader))).toBe(before);
    reader.close();
    writer.close();
  });

  it('a read-only corpus refuses a write even when the write would change nothing', () => {
    const path = join(tempDir(), 'c.db');
    const w = openCorpus(path, { create: true });
    w.saveAnnotations([ann(['data.wrong_value'])], 'ada');
    w.close();
    const r = openCorpus(path, { readonly: true });
    const before = JSON.stringify(connectionOf(r).prepare('SELECT * FROM annotation_history').all());
    const readonly = {
      kind: 'readonly',
      message: `${path} is read-only: cannot write to it (check the file and folder permissions).`,
    };
    // Nothing to undo for bob; ada's annotation saved as it is; no trajectories: each still refused, not answered.
    // @ts-expect-error undoAnnotation writes: not on a ReadCorpus; called anyway, to see it refused at run time
    expect(thrown(() => r.undoAnnotation('bob'))).toMatchObject(readonly);
    // @ts-expect-error saveAnnotations writes: not on a ReadCorpus
    expect(thrown(() => r.saveAnnotations([ann(['data.wrong_value'])], 'ada'))).toMatchObject(readonly);
    // @ts-expect-error saveTrajectories writes: not on a ReadCorpus
    expect(thrown(() => r.saveTrajectories([]))).toMatchObject(readonly);
    expect(JSON.stringify(connectionOf(r).prepare('SELECT * FROM annotation_history').all())).toBe(before);
    r.close();
  });
});
