/**
 * `trace_skeletons`: each trace's packed skeleton (src/store/queries/skeletons.ts), so the
 * explorer opens a long trace with one row read. Derived from `events` and rebuildable (not
 * protected): the rows of the traces already in the corpus are packed here, once, from their
 * events; ingest writes the rows of new traces. (008 is left to the verdict index planned
 * beside this.)
 */
import { storeSkeleton } from '../queries/skeletons.js';
import type { Migration } from './types.js';

export const migration: Migration = {
  version: 9,
  name: 'trace-skeletons',
  up(db) {
    db.exec(`
      CREATE TABLE trace_skeletons (
        trace_id INTEGER PRIMARY KEY REFERENCES traces(id) ON DELETE CASCADE,
        format   INTEGER NOT NULL,
        packed   TEXT NOT NULL
      )`);
    for (const id of db.prepare('SELECT id FROM traces ORDER BY id').pluck().all() as number[]) storeSkeleton(db, id);
  },
};
