/**
 * Creating, opening and upgrading a corpus: the schema a fresh corpus gets (every table,
 * column and index docs/schema.md names), corpora of every earlier schema upgraded with their
 * data, and the migration runner's guarantees.
 */
import Database from 'better-sqlite3';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectionOf } from '../../src/store/connection.js';
import { CorpusError, openCorpus } from '../../src/store/corpus.js';
import { APPLICATION_ID, latestVersion, migrate, userVersion } from '../../src/store/migrate.js';
import { checkOrder, MIGRATIONS, type Migration } from '../../src/store/migrations/index.js';
import { openDatabase } from '../../src/store/open.js';
import { fileHash, seedOldCorpusFrom, tempDir, writeTraces, cleanTempDirs, refusedOpen } from './fixtures.js';

afterAll(cleanTempDirs);

describe('opening and creating a corpus', () => {
  it('creates a fresh corpus at the latest schema, in WAL mode with foreign keys on', () => {
    const path = join(tempDir(), 'c.db');
    const c = openCorpus(path, { create: true });
    expect(userVersion(connectionOf(c))).toBe(latestVersion());
    expect(connectionOf(c).pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
    expect(connectionOf(c).pragma('journal_mode', { simple: true })).toBe('wal');
    expect(connectionOf(c).pragma('foreign_keys', { simple: true })).toBe(1);
    expect(connectionOf(c).pragma('busy_timeout', { simple: true })).toBeGreaterThanOrEqual(1000);
    const tables = connectionOf(c).prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all();
    expect(tables).toEqual(expect.arrayContaining(['programs', 'traces', 'events']));
    c.close();
  });

  it('re-opens an existing corpus without changing its data', async () => {
    const dir = tempDir();
    const path = join(dir, 'c.db');
    const c = openCorpus(path, { create: true });
    await c.ingest(writeTraces(dir, 't.jsonl', [{ n: 2 }, { n: 3 }]));
    const before = c.counts();
    c.close();
    const again = openCorpus(path);
    expect(again.counts()).toEqual(before);
    expect(userVersion(connectionOf(again))).toBe(latestVersion());
    again.close();
  });

  it('refuses a missing file unless asked to create it', () => {
    const path = join(tempDir(), 'nope.db');
    expect(refusedOpen(path, {}).message).toBe(
      `${path} does not exist (\`stepscope ingest FILE --db ${path}\` creates it).`,
    );
    expect(existsSync(path)).toBe(false);
    expect(refusedOpen(path, { readonly: true, create: true }).kind).toBe('missing');
    expect(existsSync(path)).toBe(false);
  });

  it('refuses a corpus made by a newer Stepscope and leaves its bytes untouched', () => {
    const path = join(tempDir(), 'new.db');
    openCorpus(path, { create: true }).close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${latestVersion() + 5}`);
    raw.pragma('journal_mode = DELETE');
    raw.close();
    const before = fileHash(path);
    for (const opts of [{}, { create: true }, { readonly: true }]) {
      const e = refusedOpen(path, opts);
      expect(e.kind).toBe('newer');
      expect(e.message).toBe(
        `${path} was made by a newer Stepscope (schema ${latestVersion() + 5}, this version knows up to ${latestVersion()}); it was left untouched.`,
      );
    }
    expect(fileHash(path)).toBe(before);
    expect(existsSync(path + '-wal')).toBe(false);
  });

  it('refuses files that are not Stepscope corpora and leaves them untouched', () => {
    const dir = tempDir();
    const text = join(dir, 'notes.db');
    writeFileSync(text, 'just some text, not a database at all\n'.repeat(10));
    const other = join(dir, 'other.db');
    const raw = new Database(other);
    raw.exec("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers VALUES (1, 'x')");
    raw.close();
    const empty = join(dir, 'empty.db');
    writeFileSync(empty, '');
    for (const [path, why] of [
      [text, 'not a SQLite database'],
      [other, 'a SQLite database made by another program'],
    ]) {
      const before = fileHash(path);
      for (const opts of [{}, { create: true }, { readonly: true }]) {
        const e = refusedOpen(path, opts);
        expect(e.kind).toBe('not-corpus');
        expect(e.message).toBe(`${path} is not a Stepscope corpus (${why}).`);
      }
      expect(fileHash(path)).toBe(before);
    }
    // An empty file is refused when only reading, and becomes a corpus when creating.
    expect(refusedOpen(empty, {}).message).toContain(`${empty} is an empty database, not a Stepscope corpus`);
    expect(refusedOpen(empty, { readonly: true }).kind).toBe('not-corpus');
    expect(statSync(empty).size).toBe(0);
    openCorpus(empty, { create: true }).close();
    expect(userVersion(new Database(empty, { readonly: true }))).toBe(latestVersion());
  });

  it('refuses to open an older corpus read-only, and upgrades it when writable', () => {
    const dir = tempDir();
    const path = join(dir, 'old.db');
    const older = MIGRATIONS.slice(0, -1);
    const extra: Migration = {
      version: latestVersion() + 1,
      name: 'extra',
      up: (db) => db.exec('CREATE TABLE extra (x)'),
    };
    // Simulate "older" by making the current registry the old one and adding one step.
    openDatabase(path, { create: true, migrations: older.length ? older : MIGRATIONS }).close();
    const newer = [...MIGRATIONS, extra];
    const before = fileHash(path);
    try {
      openDatabase(path, { readonly: true, migrations: newer });
      throw new Error('expected refusal');
    } catch (e) {
      expect((e as CorpusError).kind).toBe('needs-upgrade');
    }
    expect(fileHash(path)).toBe(before);
    const db = openDatabase(path, { migrations: newer });
    expect(userVersion(db)).toBe(extra.version);
    db.close();
  });
});

/** Writes traces made from `specs` into a corpus pinned at an old schema (see seedOldCorpusFrom). */
async function seedOldCorpus(
  path: string,
  version: number,
  dir: string,
  specs: Parameters<typeof writeTraces>[2],
): Promise<void> {
  await seedOldCorpusFrom(path, version, dir, writeTraces(dir, `seed-${version}.jsonl`, specs));
}

describe('upgrading real corpora', () => {
  it('a corpus at each earlier schema keeps its traces and events when opened by this version', async () => {
    // Every shipped version but the last.
    for (const v of MIGRATIONS.slice(0, -1).map((m) => m.version)) {
      const dir = tempDir();
      const path = join(dir, `v${v}.db`);
      const old = openDatabase(path, { create: true, migrations: MIGRATIONS.filter((m) => m.version <= v) });
      expect(userVersion(old)).toBe(v);
      old.close();
      await seedOldCorpus(path, v, dir, [{ name: 'kept', n: 3 }]);
      const c = openCorpus(path);
      expect(userVersion(connectionOf(c))).toBe(latestVersion());
      expect(c.listTraces().rows.map((r) => [r.name, r.events])).toEqual([['kept', 12]]);
      expect(c.getEvents(c.listTraces().rows[0].id).length).toBe(12);
      c.close();
    }
  });

  it('006 fills the natural-sort key of the traces already there: sorted by name, sample_2 comes before sample_10', async () => {
    const dir = tempDir();
    const path = join(dir, 'v2.db');
    openDatabase(path, { create: true, migrations: MIGRATIONS.filter((m) => m.version <= 2) }).close();
    const names = ['sample_10', 'sample_2', 'sample_1', 'b', 'sample_02x', 'a9'];
    await seedOldCorpus(
      path,
      2,
      dir,
      names.map((name) => ({ name })),
    );
    const c = openCorpus(path);
    // Truth from the names: the text before the number, then the number's value.
    const expected = [...names].sort((x, y) => {
      const [, px, nx, rx] = /^(\D*)(\d*)(.*)$/.exec(x)!;
      const [, py, ny, ry] = /^(\D*)(\d*)(.*)$/.exec(y)!;
      return px !== py ? (px < py ? -1 : 1) : Number(nx || -1) - Number(ny || -1) || (rx < ry ? -1 : rx > ry ? 1 : 0);
    });
    expect(expected.slice(0, 2)).toEqual(['a9', 'b']);
    expect(c.listTraces({ sort: 'name' }).rows.map((r) => r.name)).toEqual(expected);
    expect(c.listTraces({ sort: 'name', desc: true }).rows.map((r) => r.name)).toEqual([...expected].reverse());
    c.close();
  });
});

describe('the migration runner', () => {
  const m1: Migration = {
    version: 1,
    name: 'notes',
    up: (db) => db.exec('CREATE TABLE annotations (id INTEGER PRIMARY KEY, text TEXT NOT NULL)'),
  };
  const m2: Migration = {
    version: 2,
    name: 'add-author',
    up: (db) => db.exec("ALTER TABLE annotations ADD COLUMN author TEXT NOT NULL DEFAULT 'unknown'"),
  };
  const dropping: Migration = {
    version: 2,
    name: 'rebuild-badly',
    up: (db) => db.exec('DROP TABLE annotations; CREATE TABLE annotations (id INTEGER PRIMARY KEY, text TEXT)'),
  };
  const failing: Migration = {
    version: 2,
    name: 'fails-halfway',
    up: (db) => {
      db.exec('CREATE TABLE half (x)');
      throw new Error('boom');
    },
  };

  it('migrates N-1 to N keeping seeded rows, and records the version', () => {
    const db = new Database(':memory:');
    expect(migrate(db, [m1])).toEqual({ from: 0, to: 1 });
    db.prepare('INSERT INTO annotations (text) VALUES (?)').run('loop never ends');
    expect(migrate(db, [m1, m2])).toEqual({ from: 1, to: 2 });
    expect(db.prepare('SELECT text, author FROM annotations').all()).toEqual([
      { text: 'loop never ends', author: 'unknown' },
    ]);
    expect(migrate(db, [m1, m2])).toEqual({ from: 2, to: 2 });
  });

  it('refuses a migration that would lose annotations, and rolls it back', () => {
    const db = new Database(':memory:');
    migrate(db, [m1]);
    db.prepare('INSERT INTO annotations (text) VALUES (?)').run('keep me');
    expect(() => migrate(db, [m1, dropping])).toThrow(
      /migration 2 \(rebuild-badly\) would lose rows of "annotations" \(1 before, 0 after\)/,
    );
    expect(userVersion(db)).toBe(1);
    expect(db.prepare('SELECT text FROM annotations').pluck().all()).toEqual(['keep me']);
  });

  it('runs each migration in one transaction: a failure leaves no trace of it', () => {
    const db = new Database(':memory:');
    migrate(db, [m1]);
    expect(() => migrate(db, [m1, failing])).toThrow('boom');
    expect(userVersion(db)).toBe(1);
    expect(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'half'").get()).toBeUndefined();
  });

  it('the registry rejects versions that do not strictly increase', () => {
    expect(() => checkOrder([m2, m1])).toThrow(/version 1 \(notes\) must be an integer greater than 2/);
    expect(() => checkOrder([m1, { ...m2, version: 1 }])).toThrow(/greater than 1/);
    expect(() => checkOrder(MIGRATIONS.slice())).not.toThrow();
    expect(MIGRATIONS[0].version).toBe(1);
  });
});

const doc = readFileSync(join(import.meta.dirname, '../../docs/schema.md'), 'utf8');

/** The names in the third column of docs/schema.md's table of migrations, by version. */
function documented(): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const m of doc.matchAll(/^\| (\d+) \| `\d{3}-[a-z-]+` \| (.*) \|$/gm)) {
    // Backquoted names before any parenthesis: `traces.tampered` (recorder trust, below).
    const names = [...m[2].replace(/\([^)]*\)/g, '').matchAll(/`([a-z_]+(?:\.[a-z_]+)?)`/g)].map((n) => n[1]);
    out.set(Number(m[1]), names);
  }
  return out;
}

describe('a fresh corpus has the schema docs/schema.md describes', () => {
  it('every table and column named in the table of migrations', () => {
    const byVersion = documented();
    expect([...byVersion.keys()]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect(byVersion.get(11)).toEqual(['review_quotas']);
    expect(byVersion.get(12)).toEqual(['benchmark_programs']);
    expect(byVersion.get(2)).toEqual(['trajectories', 'trajectory_steps']);
    expect(byVersion.get(8)).toEqual(['predictions_verdicts']);
    const db = openDatabase(join(tempDir(), 'c.db'), { create: true });
    const objects = new Map(
      (
        db.prepare("SELECT name, type FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'").all() as {
          name: string;
          type: string;
        }[]
      ).map((o) => [o.name, o.type]),
    );
    const missing: string[] = [];
    for (const [version, names] of byVersion) {
      for (const name of names) {
        const [table, column] = name.split('.');
        const ok =
          column === undefined
            ? objects.has(table)
            : (db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]).includes(column);
        if (!ok) missing.push(`${version}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
    expect(objects.get('trajectory_steps')).toBe('table');
    expect(objects.get('predictions_verdicts')).toBe('index');
    db.close();
  });

  it('every index the column descriptions name, on the table it is described under', () => {
    // "indexed (`traces_name`)", "indexed with id (`traces_name_key`)": the listings' indexes.
    const named = [...doc.matchAll(/indexed[^|(]*\(`([a-z_]+)`\)/g)].map((m) => m[1]);
    expect(named).toEqual(expect.arrayContaining(['traces_name', 'traces_name_key', 'traces_exit', 'traces_events']));
    const db = openDatabase(join(tempDir(), 'c.db'), { create: true });
    const indexes = db.prepare("SELECT name, tbl_name FROM sqlite_schema WHERE type = 'index'").all() as {
      name: string;
      tbl_name: string;
    }[];
    expect(named.filter((n) => !indexes.some((i) => i.name === n))).toEqual([]);
    expect(indexes.find((i) => i.name === 'traces_name_key')?.tbl_name).toBe('traces');
    // A listing sorted by name reads that index rather than sorting every trace.
    const plan = db.prepare('EXPLAIN QUERY PLAN SELECT id FROM traces ORDER BY name_key, id LIMIT 50').all() as {
      detail: string;
    }[];
    expect(plan.map((p) => p.detail).join('; ')).toMatch(/USING (COVERING )?INDEX traces_name_key/);
    db.close();
  });
});
