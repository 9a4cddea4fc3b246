/**
 * Opening a corpus (open.ts): SQLite files that are not (yet) corpora, files refused from their
 * header alone, paths that cannot be a corpus, the messages, the descriptors left behind, an
 * unwritable folder, and a read-only open of a corpus in rollback-journal mode. Each test builds
 * its own files.
 */
import Database from 'better-sqlite3';
import { chmodSync, copyFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectionOf } from '../../src/store/connection.js';
import { CorpusError, openCorpus } from '../../src/store/corpus.js';
import { latestVersion, userVersion } from '../../src/store/migrate.js';
import { MIGRATIONS, type Migration } from '../../src/store/migrations/index.js';
import { openDatabase } from '../../src/store/open.js';
import { cleanTempDirs, fileHash, refusedOpen, tempDir, writeTraces } from './fixtures.js';

afterAll(cleanTempDirs);

/** A SQLite database with pages but no tables (a table made and dropped again). */
function emptySqlite(path: string): string {
  const raw = new Database(path);
  raw.exec('CREATE TABLE t (x); DROP TABLE t');
  raw.close();
  return path;
}

/**
 * A copy of a WAL-mode database whose header change (`pragma`) is still in the WAL: the
 * 100-byte header on disk says application_id 0 and user_version 0, SQLite sees `pragma`.
 */
function lagging(dir: string, name: string, pragma: string): string {
  const src = join(dir, `${name}-src.db`);
  const raw = new Database(src);
  raw.pragma('journal_mode = WAL');
  raw.pragma('wal_autocheckpoint = 0');
  raw.exec('CREATE TABLE t (x); DROP TABLE t');
  raw.pragma(pragma);
  const path = join(dir, `${name}.db`);
  copyFileSync(src, path);
  copyFileSync(src + '-wal', path + '-wal');
  raw.close();
  const header = readFileSync(path).subarray(0, 100);
  expect([header.readUInt32BE(60), header.readUInt32BE(68)]).toEqual([0, 0]);
  return path;
}

describe('opening: SQLite files that are not (yet) corpora', () => {
  it('an empty SQLite database (pages, no tables) is refused when only reading, and becomes a corpus when creating', () => {
    const path = emptySqlite(join(tempDir(), 'empty.db'));
    const before = fileHash(path);
    for (const opts of [{}, { readonly: true }, { readonly: true, create: true }]) {
      const e = refusedOpen(path, opts);
      expect(e.kind).toBe('not-corpus');
      expect(e.message).toBe(
        `${path} is an empty database, not a Stepscope corpus (\`stepscope ingest FILE --db ${path}\` makes it one).`,
      );
    }
    expect(fileHash(path)).toBe(before);
    openCorpus(path, { create: true }).close();
    expect(userVersion(new Database(path, { readonly: true }))).toBe(latestVersion());
  });

  it('a header the SQLite file on disk does not show yet (still in the WAL) is read through SQLite and refused', () => {
    const dir = tempDir();
    // No tables, but a schema version or an application id of another program.
    for (const path of [
      lagging(dir, 'versioned', 'user_version = 5'),
      lagging(dir, 'owned', 'application_id = 1234'),
    ]) {
      const before = fileHash(path);
      for (const opts of [{}, { create: true }, { readonly: true }]) {
        const e = refusedOpen(path, opts);
        expect(e.kind).toBe('not-corpus');
        expect(e.message).toBe(`${path} is not a Stepscope corpus (a SQLite database made by another program).`);
      }
      expect(fileHash(path)).toBe(before);
    }
  });
});

describe('opening: files refused from their header alone', () => {
  // SQLite itself, even read-only, creates NAME-wal and NAME-shm beside a WAL-mode database
  // it opens (and leaves them): the 100-byte header is read first so that a file it refuses
  // is left alone, folder included.
  it("a newer corpus or another program's database in WAL mode is refused without files appearing beside it", () => {
    const dir = tempDir();
    const newer = join(dir, 'newer.db');
    openCorpus(newer, { create: true }).close();
    const raw = new Database(newer);
    raw.pragma(`user_version = ${latestVersion() + 5}`);
    raw.close();
    const foreign = (name: string, pragma: string) => {
      const path = join(dir, name);
      const db = new Database(path);
      db.pragma('journal_mode = WAL');
      db.exec('CREATE TABLE customers (id INTEGER PRIMARY KEY)');
      db.pragma(pragma);
      db.close();
      return path;
    };
    const files = [newer, foreign('owned.db', 'application_id = 7'), foreign('versioned.db', 'user_version = 3')];
    expect(readdirSync(dir).sort()).toEqual(['newer.db', 'owned.db', 'versioned.db']);
    for (const path of files) {
      for (const opts of [{}, { create: true }, { readonly: true }]) {
        expect(refusedOpen(path, opts).kind).toBe(path === newer ? 'newer' : 'not-corpus');
      }
    }
    expect(readdirSync(dir).sort()).toEqual(['newer.db', 'owned.db', 'versioned.db']);
  });
});

describe('opening: paths that cannot be a corpus file', () => {
  it('a folder given as the corpus is refused with a message naming it', () => {
    const dir = tempDir();
    for (const opts of [{}, { create: true }, { readonly: true }]) {
      const e = refusedOpen(dir, opts);
      expect(e.kind).toBe('not-corpus');
      expect(e.code).toBe('not-corpus');
      expect(e.message).toBe(`${dir} is a folder, not a Stepscope corpus file.`);
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('creating a corpus in a folder that does not exist is refused with a message naming the folder', () => {
    const dir = tempDir();
    const path = join(dir, 'absent', 'c.db');
    const e = refusedOpen(path, { create: true });
    expect(e.kind).toBe('missing');
    expect(e.code).toBe('not-found');
    expect(e.message).toBe(`cannot create ${path}: the folder ${join(dir, 'absent')} does not exist.`);
    expect(existsSync(join(dir, 'absent'))).toBe(false);
  });
});

describe('opening: messages', () => {
  it('an older corpus opened read-only says how to upgrade it', () => {
    const path = join(tempDir(), 'old.db');
    openDatabase(path, { create: true }).close();
    const extra: Migration = {
      version: latestVersion() + 1,
      name: 'extra',
      up: (db) => db.exec('CREATE TABLE extra (x)'),
    };
    try {
      openDatabase(path, { readonly: true, migrations: [...MIGRATIONS, extra] });
      throw new Error('expected refusal');
    } catch (e) {
      expect((e as CorpusError).kind).toBe('needs-upgrade');
      expect((e as Error).message).toBe(
        `${path} uses schema ${latestVersion()} and this version needs ${extra.version}: open it once without read-only (e.g. \`stepscope ingest\`) to upgrade it.`,
      );
    }
  });

  it('a connection is only handed out for a corpus openCorpus made', () => {
    expect(() => connectionOf({})).toThrow(new Error('not a corpus opened by openCorpus'));
  });
});

describe('opening: resources', () => {
  // Linux: /proc/self/fd lists this process's open descriptors; no other test file runs in
  // this process meanwhile (vitest.config.ts: a process per file; Stryker: one worker).
  // A desktop app opens corpora again and again.
  it.runIf(existsSync('/proc/self/fd'))(
    'opening and closing a corpus many times leaves no file descriptor open',
    () => {
      const path = join(tempDir(), 'c.db');
      openCorpus(path, { create: true }).close();
      openCorpus(path).close(); // warm up: whatever opens once per process
      const before = readdirSync('/proc/self/fd').length;
      for (let i = 0; i < 40; i++) openCorpus(path, { readonly: i % 2 === 0 }).close();
      expect(readdirSync('/proc/self/fd').length - before).toBeLessThan(10);
    },
  );
});

describe('opening: a corpus in a folder that is not writable', () => {
  // Root may write anywhere: run as another user to see these (e.g. `runuser -u nobody`).
  it.skipIf(process.getuid?.() === 0)(
    'is refused for writing as read-only, and for reading with what to do about the folder',
    () => {
      const dir = tempDir();
      const path = join(dir, 'c.db');
      openCorpus(path, { create: true }).close();
      const before = fileHash(path);
      chmodSync(dir, 0o555);
      try {
        const w = refusedOpen(path, {});
        expect([w.kind, w.message]).toEqual([
          'readonly',
          `${path} is read-only: cannot write to it (check the file and folder permissions).`,
        ]);
        const r = refusedOpen(path, { readonly: true });
        expect([r.kind, r.code]).toEqual(['readonly', 'read-only']);
        expect(r.message).toBe(
          `cannot read ${path}: its folder is not writable, and SQLite must create c.db-shm beside a corpus in WAL mode to read it. ` +
            'Make the folder writable, or copy the file into a writable folder.',
        );
      } finally {
        chmodSync(dir, 0o755);
      }
      expect(fileHash(path)).toBe(before);
    },
  );
});

describe('opening: a read-only open', () => {
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
