/**
 * Model predictions (docs/schema.md describes every column; docs/predictions.md the workflow):
 *
 * evalsets: a named, reproducible set of items (task, the options it was made with).
 * evalset_items: one prompt/target pair cut from a trajectory: where it is in the trees
 *   (trace, direction, entry, actions, the target's node/seq/kind) so a UI can find the node,
 *   and the true fields of the target state, for scoring. `key` names the item within its set
 *   (the task id `sample_12` on CRUXEval sets); `id` is never reused (AUTOINCREMENT).
 *   `call_return`: for a target that is a call's arguments (inv_call, call-mode trace), the
 *   repr that call returned: what the valid-alternative check compares with.
 * runs: one model's answers to one set under a label; deleting a run deletes its
 *   predictions (ON DELETE CASCADE) and nothing else.
 * predictions: one completion (sample k of an item) and its verdicts: exact match per field
 *   (NULL: not applicable), the parse error of a format error, and the execution verdicts
 *   (exec_*: CRUXEval's check; alt_*: the call's arguments give the true return value, the
 *   "valid alternative"). `exec_pass`, `alt_pass` and `correct` are derived columns.
 */
import type { Migration } from './types.js';

const STATUS = "('pending', 'pass', 'fail', 'error', 'timeout', 'skipped')";
const BOOL = (c: string) => `${c} INTEGER CHECK (${c} IS NULL OR ${c} IN (0, 1))`;
const PASS = (c: string) =>
  `CASE WHEN ${c}_status IS NULL OR ${c}_status = 'pending' THEN NULL ELSE ${c}_status = 'pass' END`;

export const migration: Migration = {
  version: 4,
  name: 'predictions',
  up(db) {
    db.exec(`
      CREATE TABLE evalsets (
        id       INTEGER PRIMARY KEY AUTOINCREMENT,
        name     TEXT NOT NULL UNIQUE,
        task     TEXT NOT NULL CHECK (task IN ('next-state', 'cruxeval-output', 'cruxeval-output-breakpoint', 'cruxeval-input', 'horizon')),
        options  TEXT NOT NULL,
        items    INTEGER NOT NULL,
        created  TEXT NOT NULL
      );

      CREATE TABLE evalset_items (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        set_id        INTEGER NOT NULL REFERENCES evalsets(id) ON DELETE CASCADE,
        ord           INTEGER NOT NULL,
        key           TEXT NOT NULL,
        trace_id      INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
        direction     TEXT NOT NULL CHECK (direction IN ('forward', 'inverse')),
        entry         INTEGER NOT NULL,
        actions       TEXT NOT NULL,
        action        TEXT NOT NULL,
        horizon       REAL,
        prompt        TEXT NOT NULL,
        target        TEXT NOT NULL,
        target_node   INTEGER,
        target_seq    INTEGER,
        target_kind   TEXT NOT NULL,
        target_src    TEXT,
        target_locals TEXT,
        target_arg    TEXT,
        call_return   TEXT,
        UNIQUE (set_id, ord),
        UNIQUE (set_id, key)
      );
      CREATE INDEX evalset_items_trace ON evalset_items(trace_id, set_id);

      CREATE TABLE runs (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        set_id       INTEGER NOT NULL REFERENCES evalsets(id) ON DELETE CASCADE,
        label        TEXT NOT NULL,
        format       TEXT NOT NULL CHECK (format IN ('state', 'cruxeval')),
        params       TEXT NOT NULL,
        source       TEXT NOT NULL,
        source_hash  TEXT,
        hashseed     INTEGER NOT NULL,
        created      TEXT NOT NULL,
        UNIQUE (set_id, label)
      );

      CREATE TABLE predictions (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id       INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        item_id      INTEGER NOT NULL REFERENCES evalset_items(id) ON DELETE CASCADE,
        sample       INTEGER NOT NULL,
        completion   TEXT NOT NULL,
        finish       TEXT,
        ${BOOL('format_error')},
        parse_error  TEXT,
        ${BOOL('em_event')},
        ${BOOL('em_src')},
        ${BOOL('em_locals')},
        ${BOOL('em_arg')},
        ${BOOL('em_all')},
        exec_status  TEXT CHECK (exec_status IS NULL OR exec_status IN ${STATUS}),
        exec_detail  TEXT,
        ${BOOL('exec_rule')},
        alt_status   TEXT CHECK (alt_status IS NULL OR alt_status IN ${STATUS}),
        alt_detail   TEXT,
        alt_got      TEXT,
        exec_pass    INTEGER GENERATED ALWAYS AS (${PASS('exec')}) VIRTUAL,
        alt_pass     INTEGER GENERATED ALWAYS AS (${PASS('alt')}) VIRTUAL,
        correct      INTEGER GENERATED ALWAYS AS (CASE WHEN exec_status = 'pending' THEN NULL
                       WHEN exec_status IS NOT NULL THEN exec_status = 'pass' ELSE em_all END) VIRTUAL,
        created      TEXT NOT NULL,
        UNIQUE (run_id, item_id, sample)
      );
      CREATE INDEX predictions_item ON predictions(item_id, run_id);
      CREATE INDEX predictions_pending ON predictions(run_id) WHERE exec_status = 'pending' OR alt_status = 'pending';
    `);
  },
};
