/**
 * Trajectories sampled (or saved) over stored traces, and one row per step so a model's
 * prediction can later attach to (trajectory, step). Read and written by
 * src/store/queries/trajectories.ts; src/trajectories/ makes the rows from the semantics.
 *
 * trajectories: direction, entry (seq of the entry's call, 0 = root), actions as JSON
 *   [{"action": …, "src"?: …}], states as JSON [seq, …] (the event behind each state
 *   shown), line_calls as JSON [state index, …] marking the inverse states shown as
 *   inv_line_call (they share their seq with the plain copy), exit as the exit token name
 *   or NULL when cut, the serialized text, and how it was made: seed and sampler JSON
 *   (policy, entry choice, max steps, index k), both NULL for a trajectory made by hand.
 *   sample_key makes re-running the same sampling idempotent (NULL for hand-made ones).
 * trajectory_steps: step k = action k (0-based) and its target: the seq and shown kind of
 *   the state it leads to, or target_seq NULL and target_kind = the exit token name.
 */
import type { Migration } from './types.js';

export const migration: Migration = {
  version: 2,
  name: 'trajectories',
  up(db) {
    db.exec(`
      CREATE TABLE trajectories (
        id          INTEGER PRIMARY KEY,
        trace_id    INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
        direction   TEXT NOT NULL CHECK (direction IN ('forward', 'inverse')),
        entry       INTEGER NOT NULL,
        actions     TEXT NOT NULL,
        states      TEXT NOT NULL,
        line_calls  TEXT NOT NULL,
        exit        TEXT CHECK (exit IS NULL OR exit IN ('exit_normal', 'exit_error', 'exit_never', 'inv_exit_entry')),
        steps       INTEGER NOT NULL,
        text        TEXT NOT NULL,
        seed        INTEGER,
        sampler     TEXT,
        sample_key  TEXT UNIQUE,
        created     TEXT NOT NULL
      );
      CREATE INDEX trajectories_trace ON trajectories(trace_id, id);

      CREATE TABLE trajectory_steps (
        trajectory_id INTEGER NOT NULL REFERENCES trajectories(id) ON DELETE CASCADE,
        step          INTEGER NOT NULL,
        action        TEXT NOT NULL,
        src           TEXT,
        target_seq    INTEGER,
        target_kind   TEXT NOT NULL,
        PRIMARY KEY (trajectory_id, step)
      ) WITHOUT ROWID;
    `);
  },
};
