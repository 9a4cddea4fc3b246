/**
 * Failure annotation (docs/annotation.md; docs/schema.md describes every column):
 *
 * taxonomies: every version of the label taxonomy, whole, as JSON (src/annotate/taxonomy.ts);
 *   the highest version is the current one. Versions are never rewritten.
 * annotations: one annotator's current labels on one target: a prediction, a state of a
 *   trace (trace + seq) or a transition (trace + seq + action). `target` is the canonical key
 *   (`prediction:12`, `trace:3/seq:17`, `trace:3/seq:17/action:step_over`), unique per
 *   annotator and role (an adjudicator's final labels are their own row). `source` says who made it: a person, or a
 *   pre-label rule (annotator
 *   `rule:<name>`, `status` suggested → accepted/rejected by a person). `uid` names the
 *   annotation across copies of a corpus (export/import). `skipped`: the person passed the
 *   item; `active` = 0 after an undo of its creation (rows are never deleted).
 *   No foreign keys: deleting a run never deletes what people labeled.
 * annotation_history: append-only (triggers refuse UPDATE and DELETE): every change with
 *   who, when, and the annotation before and after (JSON; before NULL on creation); an undo
 *   names the change it reverts in `undoes`.
 *
 * Every statement is IF NOT EXISTS so 007 can run it again: corpora made while 006 shipped
 * without 005 are at user_version 6 and would otherwise never get these tables.
 */
import type { Migration } from './types.js';

export const migration: Migration = {
  version: 5,
  name: 'annotations',
  up(db) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS taxonomies (
        version  INTEGER PRIMARY KEY,
        name     TEXT NOT NULL,
        body     TEXT NOT NULL,
        author   TEXT,
        created  TEXT NOT NULL
      );

      CREATE TABLE IF NOT EXISTS annotations (
        id             INTEGER PRIMARY KEY AUTOINCREMENT,
        uid            TEXT NOT NULL UNIQUE,
        target         TEXT NOT NULL,
        prediction_id  INTEGER,
        trace_id       INTEGER,
        seq            INTEGER,
        action         TEXT,
        annotator      TEXT NOT NULL,
        role           TEXT NOT NULL DEFAULT 'annotator' CHECK (role IN ('annotator', 'adjudicator')),
        source         TEXT NOT NULL CHECK (source IN ('person', 'rule')),
        rule           TEXT,
        labels         TEXT NOT NULL,
        note           TEXT,
        status         TEXT CHECK (status IS NULL OR status IN ('suggested', 'accepted', 'rejected')),
        skipped        INTEGER NOT NULL DEFAULT 0 CHECK (skipped IN (0, 1)),
        active         INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
        taxonomy       INTEGER NOT NULL,
        created        TEXT NOT NULL,
        updated        TEXT NOT NULL,
        CHECK ((prediction_id IS NOT NULL AND trace_id IS NULL) OR (prediction_id IS NULL AND trace_id IS NOT NULL AND seq IS NOT NULL)),
        CHECK ((source = 'rule') = (rule IS NOT NULL)),
        UNIQUE (target, annotator, role)
      );
      CREATE INDEX IF NOT EXISTS annotations_prediction ON annotations(prediction_id) WHERE prediction_id IS NOT NULL;
      CREATE INDEX IF NOT EXISTS annotations_trace ON annotations(trace_id, seq) WHERE trace_id IS NOT NULL;
      CREATE INDEX IF NOT EXISTS annotations_annotator ON annotations(annotator, updated);

      CREATE TABLE IF NOT EXISTS annotation_history (
        id             INTEGER PRIMARY KEY AUTOINCREMENT,
        annotation_id  INTEGER NOT NULL,
        who            TEXT NOT NULL,
        at             TEXT NOT NULL,
        op             TEXT NOT NULL CHECK (op IN ('create', 'update', 'undo', 'import')),
        undoes         INTEGER,
        before         TEXT,
        after          TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS annotation_history_who ON annotation_history(who, id);
      CREATE INDEX IF NOT EXISTS annotation_history_annotation ON annotation_history(annotation_id, id);
      CREATE TRIGGER IF NOT EXISTS annotation_history_no_update BEFORE UPDATE ON annotation_history
        BEGIN SELECT RAISE(ABORT, 'annotation_history is append-only'); END;
      CREATE TRIGGER IF NOT EXISTS annotation_history_no_delete BEFORE DELETE ON annotation_history
        BEGIN SELECT RAISE(ABORT, 'annotation_history is append-only'); END;
    `);
  },
};
