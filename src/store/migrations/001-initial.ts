/**
 * The first corpus schema: programs, traces and their events (docs/schema.md describes
 * every column). Events are keyed by (trace_id, seq) in a WITHOUT ROWID table, so any
 * window of one trace is a single range scan of the primary key.
 */
import type { Migration } from './types.js';

export const migration: Migration = {
  version: 1,
  name: 'initial',
  up(db) {
    db.exec(`
      CREATE TABLE programs (
        id              INTEGER PRIMARY KEY,
        hash            TEXT NOT NULL UNIQUE,
        filename        TEXT NOT NULL,
        source          TEXT NOT NULL,
        context_forward TEXT NOT NULL,
        context_inverse TEXT NOT NULL
      );

      CREATE TABLE traces (
        id           INTEGER PRIMARY KEY,
        program_id   INTEGER NOT NULL REFERENCES programs(id),
        name         TEXT NOT NULL,
        mode         TEXT NOT NULL CHECK (mode IN ('script', 'call')),
        python       TEXT NOT NULL,
        hashseed     INTEGER NOT NULL,
        call         TEXT,
        limits       TEXT NOT NULL,
        meta         TEXT NOT NULL,
        exit         TEXT NOT NULL CHECK (exit IN ('normal', 'error', 'never')),
        reason       TEXT,
        events       INTEGER NOT NULL,
        seconds      REAL NOT NULL,
        stdout_bytes INTEGER,
        hash         TEXT NOT NULL UNIQUE,
        origin       TEXT,
        created      TEXT NOT NULL
      );
      CREATE INDEX traces_name ON traces(name);
      CREATE INDEX traces_exit ON traces(exit, name);
      CREATE INDEX traces_events ON traces(events);
      CREATE INDEX traces_program ON traces(program_id);

      CREATE TABLE events (
        trace_id INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
        seq      INTEGER NOT NULL,
        event    TEXT NOT NULL,
        frame    INTEGER NOT NULL,
        func     TEXT NOT NULL,
        line     INTEGER NOT NULL,
        src      TEXT NOT NULL,
        locals   TEXT NOT NULL,
        arg      TEXT,
        parent   INTEGER,
        cut      TEXT,
        PRIMARY KEY (trace_id, seq)
      ) WITHOUT ROWID;
    `);
  },
};
