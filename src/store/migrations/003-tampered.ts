/**
 * traces.tampered: NULL, or what the recorder saw on its trace channel that it did not
 * write (the end record's optional `tampered`, docs/trace-format.md). Such a trace keeps
 * the events received before that point and ends `never`; the column lets a query (and the
 * app) tell it from a trace the recorder vouches for. Adding a nullable column rewrites no
 * row, so this is instant on any corpus.
 */
import type { Migration } from './types.js';

export const migration: Migration = {
  version: 3,
  name: 'tampered',
  up(db) {
    db.exec('ALTER TABLE traces ADD COLUMN tampered TEXT');
  },
};
