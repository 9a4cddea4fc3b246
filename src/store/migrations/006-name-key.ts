/**
 * Natural sort of trace names: `traces.name_key` (see src/store/name-key.ts), indexed, what
 * a listing sorted by name orders by. Existing rows are filled here; ingest fills new ones.
 * (003–005 are reserved for other planned migrations.)
 */
import { nameKey } from '../name-key.js';
import type { Migration } from './types.js';

export const migration: Migration = {
  version: 6,
  name: 'name-key',
  up(db) {
    db.exec(`ALTER TABLE traces ADD COLUMN name_key TEXT NOT NULL DEFAULT ''`);
    const set = db.prepare('UPDATE traces SET name_key = ? WHERE id = ?');
    for (const r of db.prepare('SELECT id, name FROM traces').all() as { id: number; name: string }[])
      set.run(nameKey(r.name), r.id);
    db.exec('CREATE INDEX traces_name_key ON traces(name_key, id)');
  },
};
