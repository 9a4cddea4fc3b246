/**
 * counterfactuals: traces recorded as a counterfactual of another (`stepscope counterfactual`,
 * docs/semantics.md, "Counterfactuals"): the new trace, the trace it was made from, the event
 * edited and the locals set there (`{name: literal text}`), and the first event at which the two
 * traces differ. The trace itself is an ordinary trace (its header's meta.counterfactual lists
 * the edits); this row is the link, which a trace file cannot carry (trace ids are per corpus).
 * Numbered after 013 (written on another branch at the same time).
 */
import type { Migration } from './types.js';

export const migration: Migration = {
  version: 14,
  name: 'counterfactuals',
  up(db) {
    db.exec(`CREATE TABLE counterfactuals (
      trace_id         INTEGER PRIMARY KEY REFERENCES traces (id) ON DELETE CASCADE,
      origin_id        INTEGER NOT NULL REFERENCES traces (id) ON DELETE CASCADE,
      seq              INTEGER NOT NULL CHECK (seq >= 0),
      edits            TEXT NOT NULL CHECK (json_valid(edits)),
      first_difference INTEGER CHECK (first_difference >= seq),
      created          TEXT NOT NULL,
      CHECK (trace_id != origin_id)
    )`);
    db.exec('CREATE INDEX counterfactuals_origin ON counterfactuals (origin_id, seq)');
  },
};
