/**
 * Opening a corpus read-only: the case behind the open.ts mutant that timed out in the busy
 * mutation run and survived the quiet one.
 * Each test builds its own files.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectionOf } from '../../src/store/connection.js';
import { openCorpus } from '../../src/store/corpus.js';
import { cleanTempDirs, fileHash, tempDir, writeTraces } from './fixtures.js';

afterAll(cleanTempDirs);

describe('a read-only open', () => {
  it('reads a corpus switched to a rollback journal (one file, no -wal) and leaves it as it is', async () => {
    // What someone does to hand a corpus over as a single file, or to read it from a folder
    // where SQLite may not create the -shm a WAL-mode corpus needs.
    const dir = tempDir();
    const path = join(dir, 'c.db');
    const c = openCorpus(path, { create: true });
    await c.ingest(writeTraces(dir, 't.jsonl', [{ name: 'a', n: 2 }]));
    c.close();
    const raw = new Database(path);
    raw.pragma('journal_mode = DELETE');
    raw.close();
    const before = fileHash(path);
    const ro = openCorpus(path, { readonly: true });
    expect(ro.counts()).toMatchObject({ traces: 1, events: 10 });
    expect(connectionOf(ro).pragma('journal_mode', { simple: true })).toBe('delete');
    ro.close();
    expect(fileHash(path)).toBe(before);
    expect([existsSync(path + '-wal'), existsSync(path + '-shm')]).toEqual([false, false]);
  });
});
