// Migration 013 rebuilds `evalsets` to widen its task check (SQLite cannot alter a CHECK): an old corpus with sets,
// items, runs, predictions and annotations upgrades with every row kept, its foreign keys intact and still
// enforced, and a set's id never reused. The runner's rebuild support refuses a rebuild that leaves a dangling row.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEvalSet } from '../../src/predictions/create.js';
import { connectionOf } from '../../src/store/connection.js';
import { openCorpus } from '../../src/store/corpus.js';
import { migrate, userVersion } from '../../src/store/migrate.js';
import { MIGRATIONS, type Migration } from '../../src/store/migrations/index.js';
import { cleanTempDirs, tempDir, writeTraces } from './fixtures.js';

afterAll(cleanTempDirs);

const TABLES = ['evalsets', 'evalset_items', 'runs', 'predictions', 'annotations', 'annotation_history'];

function dump(db: Database.Database): Record<string, unknown[]> {
  return Object.fromEntries(TABLES.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all()]));
}

describe('migration 013 (rollouts)', () => {
  it('upgrades a version 12 corpus with sets, items, runs, predictions and annotations: nothing lost', async () => {
    const dir = tempDir();
    const path = join(dir, 'v12.db');
    const old = openCorpus(path, { create: true, migrations: MIGRATIONS.filter((m) => m.version <= 12) });
    await old.ingest(writeTraces(dir, 't.jsonl', [{ n: 3 }, { name: 'long', n: 30 }]));
    const { set } = createEvalSet(old, { name: 'ns', task: 'next-state', perAction: 2 });
    // The highest id deleted: only the AUTOINCREMENT counter remembers it.
    createEvalSet(old, { name: 'gone', task: 'next-state', perAction: 1 });
    old.deleteEvalSet(old.getEvalSet('gone')!.id);
    const items = [...old.iterateItems(set.id)];
    const run = old.saveRun(
      { setId: set.id, label: 'm', format: 'state', params: {}, source: 'f', sourceHash: 'h', hashseed: 0 },
      items.map((it, k) => ({
        itemId: it.id,
        sample: 0,
        completion: k % 2 ? it.target : 'nonsense',
        finish: null,
        em: { event: k % 2 === 1, src: null, locals: null, arg: null, all: k % 2 === 1 },
        parseError: null,
        exec: null,
        alt: null,
      })),
    );
    const db = connectionOf(old);
    const pred = db.prepare('SELECT id FROM predictions WHERE run_id = ? ORDER BY id').pluck().get(run) as number;
    db.prepare(
      `INSERT INTO annotations (uid, target, prediction_id, annotator, source, labels, taxonomy, created, updated)
       VALUES ('u1', ?, ?, 'ann', 'person', '["wrong-value"]', 1, 'now', 'now')`,
    ).run(`prediction:${pred}`, pred);
    db.prepare(
      `INSERT INTO annotation_history (annotation_id, who, at, op, after) VALUES (1, 'ann', 'now', 'create', '{}')`,
    ).run();
    expect(userVersion(db)).toBe(12);
    const before = dump(db);
    const lastId = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'evalsets'").pluck().get() as number;
    expect(lastId).toBeGreaterThan(set.id);
    old.close();

    // Up to 013 only: the later migrations have tests of their own.
    const c = openCorpus(path, { migrations: MIGRATIONS.filter((m) => m.version <= 13) });
    const up = connectionOf(c);
    expect(userVersion(up)).toBe(13);
    expect(dump(up)).toEqual(before);
    expect(up.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(up.pragma('foreign_key_check')).toEqual([]);
    // The rebuilt table is still the parent of items and runs: a dangling set id is refused ...
    expect(() =>
      up
        .prepare(
          "INSERT INTO runs (set_id, label, format, params, source, hashseed, created) VALUES (999, 'x', 'state', '{}', 's', 0, 'now')",
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
    // ... the widened check takes the new tasks and still refuses others ...
    expect(() =>
      up
        .prepare("INSERT INTO evalsets (name, task, options, items, created) VALUES ('z', 'guess', '{}', 0, 'now')")
        .run(),
    ).toThrow(/CHECK/);
    const r = createEvalSet(c, { name: 'ro', task: 'rollout', perTrace: 1, maxSteps: 3 });
    // ... a deleted set's id is not reused ...
    expect(r.set.id).toBeGreaterThan(lastId);
    up.prepare(
      "INSERT INTO evalsets (name, task, options, items, created) VALUES ('cf', 'counterfactual', '{}', 0, 'now')",
    ).run();
    // ... and deleting a set still cascades to its items, runs and predictions (the annotations stay).
    c.deleteEvalSet(set.id);
    expect(up.prepare('SELECT count(*) FROM evalset_items WHERE set_id = ?').pluck().get(set.id)).toBe(0);
    expect(up.prepare('SELECT count(*) FROM predictions WHERE run_id = ?').pluck().get(run)).toBe(0);
    expect(up.prepare('SELECT count(*) FROM annotations').pluck().get()).toBe(1);
    c.close();
  });
});

describe('the runner rebuilding a table', () => {
  const base: Migration = {
    version: 1,
    name: 'base',
    up: (db) =>
      db.exec(`CREATE TABLE p (id INTEGER PRIMARY KEY, k TEXT CHECK (k IN ('a')));
        CREATE TABLE c (id INTEGER PRIMARY KEY, p_id INTEGER NOT NULL REFERENCES p(id) ON DELETE CASCADE);
        INSERT INTO p VALUES (1, 'a'), (2, 'a'); INSERT INTO c VALUES (10, 1), (20, 2);`),
  };
  const rebuild = (copy: string): Migration => ({
    version: 2,
    name: 'widen',
    rebuilds: ['p'],
    up: (db) =>
      db.exec(`CREATE TABLE p_new (id INTEGER PRIMARY KEY, k TEXT CHECK (k IN ('a', 'b')));
        INSERT INTO p_new SELECT * FROM p ${copy}; DROP TABLE p; ALTER TABLE p_new RENAME TO p;`),
  });

  it('drops the old table without cascading to its children, and turns foreign keys back on', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, [base, rebuild('')]);
    expect(db.prepare('SELECT id FROM c ORDER BY id').pluck().all()).toEqual([10, 20]);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.prepare("INSERT INTO p VALUES (3, 'b')").run();
  });

  it('refuses a rebuild that would leave a child row without its parent, and changes nothing', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, [base]);
    expect(() => migrate(db, [base, rebuild('WHERE id = 1')])).toThrow(
      /migration 2 \(widen\) would leave 1 rows referencing missing rows \(the first: "c" row 20 → "p"\)/,
    );
    expect(userVersion(db)).toBe(1);
    expect(db.prepare('SELECT id FROM p ORDER BY id').pluck().all()).toEqual([1, 2]);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });
});
