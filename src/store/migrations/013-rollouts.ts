/**
 * Rollouts (docs/predictions.md, "Rollouts"; docs/schema.md describes every column):
 *
 * evalsets.task: widened to 'rollout' and 'counterfactual'. SQLite cannot alter a CHECK, so the table is rebuilt
 *   (create, copy, drop, rename; the runner turns foreign keys off around it and checks them before commit, see
 *   `rebuilds`). Its AUTOINCREMENT counter is carried over so that a deleted set's id is never reused.
 * rollout_targets: the true state after each action of a rollout item (step 1 is the state after its first action):
 *   its text and fields, and where it is in the tree of the item's direction (node/seq/kind) so a UI can place the
 *   predicted state beside it. The item's own row describes step 1.
 * rollout_steps: the states one rollout prediction predicted, step by step, each with the next-state verdicts
 *   against the rollout_targets row of the same step. The predictions row of the rollout summarises them.
 */
import type { Migration } from './types.js';

const BOOL = (c: string) => `${c} INTEGER CHECK (${c} IS NULL OR ${c} IN (0, 1))`;

const TASKS_013 = [
  'next-state',
  'cruxeval-output',
  'cruxeval-output-breakpoint',
  'cruxeval-input',
  'horizon',
  'rollout',
  'counterfactual',
];

export const migration: Migration = {
  version: 13,
  name: 'rollouts',
  rebuilds: ['evalsets'],
  up(db) {
    const seq = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'evalsets'").pluck().get() as
      number | undefined;
    db.exec(`
      CREATE TABLE evalsets_013 (
        id       INTEGER PRIMARY KEY AUTOINCREMENT,
        name     TEXT NOT NULL UNIQUE,
        task     TEXT NOT NULL CHECK (task IN (${TASKS_013.map((t) => `'${t}'`).join(', ')})),
        options  TEXT NOT NULL,
        items    INTEGER NOT NULL,
        created  TEXT NOT NULL
      );
      INSERT INTO evalsets_013 (id, name, task, options, items, created)
        SELECT id, name, task, options, items, created FROM evalsets;
      DROP TABLE evalsets;
      ALTER TABLE evalsets_013 RENAME TO evalsets;
    `);
    if (seq !== undefined) db.prepare("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'evalsets'").run(seq);
    db.exec(`
      CREATE TABLE rollout_targets (
        item_id       INTEGER NOT NULL REFERENCES evalset_items(id) ON DELETE CASCADE,
        step          INTEGER NOT NULL CHECK (step >= 1),
        action        TEXT NOT NULL,
        target        TEXT NOT NULL,
        target_node   INTEGER,
        target_seq    INTEGER,
        target_kind   TEXT NOT NULL,
        target_src    TEXT,
        target_locals TEXT,
        target_arg    TEXT,
        PRIMARY KEY (item_id, step)
      ) WITHOUT ROWID;

      CREATE TABLE rollout_steps (
        prediction_id INTEGER NOT NULL REFERENCES predictions(id) ON DELETE CASCADE,
        step          INTEGER NOT NULL CHECK (step >= 1),
        completion    TEXT NOT NULL,
        finish        TEXT,
        ${BOOL('format_error')},
        parse_error   TEXT,
        ${BOOL('em_event')},
        ${BOOL('em_src')},
        ${BOOL('em_locals')},
        ${BOOL('em_arg')},
        ${BOOL('em_all')},
        PRIMARY KEY (prediction_id, step)
      ) WITHOUT ROWID;
    `);
  },
};
