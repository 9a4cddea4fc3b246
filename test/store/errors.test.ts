/**
 * How SQLite's errors reach people: the mapping of explainSqliteError, code by code
 * (extended codes included: SQLite reports e.g. SQLITE_BUSY_SNAPSHOT or SQLITE_IOERR_WRITE,
 * which no test here can provoke on demand), and a damaged corpus file opened for real.
 */
import Database from 'better-sqlite3';
import { openSync, closeSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CorpusError, openCorpus } from '../../src/store/corpus.js';
import { explainSqliteError } from '../../src/store/errors.js';
import { cleanTempDirs, tempDir, writeTraces } from './fixtures.js';

afterAll(cleanTempDirs);

const P = '/data/c.db';
const locked = `${P} is locked: another program is writing to it. Try again when it has finished.`;
const readonly = `${P} is read-only: cannot write to it (check the file and folder permissions).`;
const cantOpen = `cannot open ${P}: check that the file and its folder exist and are readable.`;

describe('SQLite errors, as people read them', () => {
  const cases: Array<[code: string, sqliteMessage: string, kind: string, errorCode: string, message: string]> = [
    ['SQLITE_BUSY', 'database is locked', 'locked', 'corpus-locked', locked],
    ['SQLITE_BUSY_SNAPSHOT', 'database is locked', 'locked', 'corpus-locked', locked],
    ['SQLITE_LOCKED_SHAREDCACHE', 'database table is locked', 'locked', 'corpus-locked', locked],
    ['SQLITE_READONLY', 'attempt to write a readonly database', 'readonly', 'read-only', readonly],
    ['SQLITE_READONLY_DBMOVED', 'attempt to write a readonly database', 'readonly', 'read-only', readonly],
    ['SQLITE_CANTOPEN', 'unable to open database file', 'missing', 'not-found', cantOpen],
    ['SQLITE_CANTOPEN_ISDIR', 'unable to open database file', 'missing', 'not-found', cantOpen],
    [
      'SQLITE_NOTADB',
      'file is not a database',
      'not-corpus',
      'not-corpus',
      `${P} is not a Stepscope corpus (not a SQLite database).`,
    ],
    [
      'SQLITE_CORRUPT',
      'database disk image is malformed',
      'corrupt',
      'corrupt',
      `${P} is damaged (SQLite reports corruption): database disk image is malformed`,
    ],
    [
      'SQLITE_CORRUPT_INDEX',
      'database disk image is malformed',
      'corrupt',
      'corrupt',
      `${P} is damaged (SQLite reports corruption): database disk image is malformed`,
    ],
    ['SQLITE_FULL', 'database or disk is full', 'io', 'unavailable', `${P}: database or disk is full`],
    ['SQLITE_IOERR', 'disk I/O error', 'io', 'unavailable', `${P}: disk I/O error`],
    ['SQLITE_IOERR_WRITE', 'disk I/O error', 'io', 'unavailable', `${P}: disk I/O error`],
    ['SQLITE_NOMEM', 'out of memory', 'io', 'unavailable', `${P}: out of memory`],
  ];
  for (const [code, sqliteMessage, kind, errorCode, message] of cases) {
    it(`${code} is a ${kind} error naming the corpus`, () => {
      const e = explainSqliteError(new Database.SqliteError(sqliteMessage, code), P);
      expect(e).toBeInstanceOf(CorpusError);
      expect([(e as CorpusError).kind, (e as CorpusError).code, (e as Error).message]).toEqual([
        kind,
        errorCode,
        message,
      ]);
    });
  }

  it('other errors (bugs, not user problems) pass through unchanged', () => {
    for (const e of [
      new Database.SqliteError('UNIQUE constraint failed: traces.hash', 'SQLITE_CONSTRAINT_UNIQUE'),
      new Error('plain'),
      new TypeError('x'),
    ]) {
      expect(explainSqliteError(e, P)).toBe(e);
    }
  });
});

describe('a damaged corpus file', () => {
  it('is refused on opening as damaged, naming the file', async () => {
    const dir = tempDir();
    const path = join(dir, 'c.db');
    const c = openCorpus(path, { create: true });
    await c.ingest(writeTraces(dir, 't.jsonl', [{ name: 'a', n: 2 }]));
    c.close();
    // Page 1 after the 100-byte header holds the schema table: overwrite it.
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.alloc(400, 0xa5), 0, 400, 100);
    closeSync(fd);
    let err: unknown;
    try {
      openCorpus(path).close();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CorpusError);
    expect((err as CorpusError).kind).toBe('corrupt');
    expect((err as Error).message).toBe(
      `${path} is damaged (SQLite reports corruption): database disk image is malformed`,
    );
  });
});
