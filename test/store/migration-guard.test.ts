/**
 * The migration runner's guard for work done by hand: a migration that would take rows out
 * of a protected table (annotations) is refused and rolled back, however it loses them.
 * (Recreating the table empty is covered in migrations.test.ts.)
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, userVersion } from '../../src/store/migrate.js';
import type { Migration } from '../../src/store/migrations/index.js';

const notes: Migration = {
  version: 1,
  name: 'notes',
  up: (db) => db.exec('CREATE TABLE annotations (id INTEGER PRIMARY KEY, text TEXT NOT NULL)'),
};

/** A database at version 1 holding two annotations. */
function annotated(): Database.Database {
  const db = new Database(':memory:');
  migrate(db, [notes]);
  const add = db.prepare('INSERT INTO annotations (text) VALUES (?)');
  add.run('loop never ends');
  add.run('off by one at line 4');
  return db;
}

describe('a migration that would lose annotations', () => {
  const losing: [string, string][] = [
    ['drops the table outright', 'DROP TABLE annotations'],
    ['renames it away', 'ALTER TABLE annotations RENAME TO old_notes'],
    ['deletes some rows', 'DELETE FROM annotations WHERE id = 1'],
  ];
  for (const [what, sql] of losing) {
    it(`is refused when it ${what}, and the annotations are all still there`, () => {
      const db = annotated();
      const bad: Migration = { version: 2, name: 'careless', up: (d) => d.exec(sql) };
      expect(() => migrate(db, [notes, bad])).toThrow(
        /^migration 2 \(careless\) would lose rows of "annotations" \(2 before, .+ after\); nothing was changed$/,
      );
      expect(userVersion(db)).toBe(1);
      expect(db.prepare('SELECT text FROM annotations ORDER BY id').pluck().all()).toEqual([
        'loop never ends',
        'off by one at line 4',
      ]);
      db.close();
    });
  }

  it('names a dropped table as gone', () => {
    const db = annotated();
    const drop: Migration = { version: 2, name: 'drop', up: (d) => d.exec('DROP TABLE annotations') };
    expect(() => migrate(db, [notes, drop])).toThrow('(2 before, table gone after)');
    db.close();
  });

  it('is allowed when it keeps every row (adding rows or columns)', () => {
    const db = annotated();
    const grow: Migration = {
      version: 2,
      name: 'grow',
      up: (d) =>
        d.exec("ALTER TABLE annotations ADD COLUMN author TEXT; INSERT INTO annotations (text) VALUES ('third')"),
    };
    expect(migrate(db, [notes, grow])).toEqual({ from: 1, to: 2 });
    expect(db.prepare('SELECT count(*) FROM annotations').pluck().get()).toBe(3);
    db.close();
  });
});
