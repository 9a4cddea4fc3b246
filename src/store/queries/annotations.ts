/**
 * Failure annotations, their history and the taxonomy versions (schema:
 * src/store/migrations/005-annotations.ts; docs/annotation.md). The store takes rows
 * ready-made: labels are checked against the taxonomy and targets resolved by the caller
 * (src/api/handlers/annotations.ts). Every write records its change in annotation_history;
 * Corpus wraps each call in one transaction.
 */
import type Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { UserError } from '../../common/errors.js';
import type {
  Annotation,
  AnnotationChange,
  AnnotationFields,
  AnnotationRole,
  AnnotationSource,
  AnnotationStatus,
} from '../../annotate/record.js';

export type { AnnotationFields, AnnotationRole, AnnotationSource, AnnotationStatus };

/** An annotation to store: `uid` (given on import, new otherwise) and the times are optional. */
export type NewAnnotation = Omit<Annotation, 'uid' | 'created' | 'updated'> &
  Partial<Pick<Annotation, 'uid' | 'created' | 'updated'>>;

export interface AnnotationRecord extends Annotation {
  id: number;
}

export type HistoryEntry = AnnotationChange;

export interface AnnotationQuery {
  setId?: number;
  runId?: number;
  annotator?: string;
  source?: AnnotationSource;
  /** Also rows an undo switched off. */
  inactive?: boolean;
}

interface Row {
  id: number;
  uid: string;
  target: string;
  prediction_id: number | null;
  trace_id: number | null;
  seq: number | null;
  action: string | null;
  annotator: string;
  role: AnnotationRole;
  source: AnnotationSource;
  rule: string | null;
  labels: string;
  note: string | null;
  status: AnnotationStatus | null;
  skipped: number;
  active: number;
  taxonomy: number;
  created: string;
  updated: string;
}

const recordOf = (r: Row): AnnotationRecord => ({
  id: r.id,
  uid: r.uid,
  target: r.target,
  prediction: r.prediction_id,
  trace: r.trace_id,
  seq: r.seq,
  action: r.action,
  annotator: r.annotator,
  role: r.role,
  source: r.source,
  rule: r.rule,
  labels: JSON.parse(r.labels),
  note: r.note,
  status: r.status,
  skipped: r.skipped === 1,
  active: r.active === 1,
  taxonomy: r.taxonomy,
  created: r.created,
  updated: r.updated,
});

export const fieldsOf = (a: AnnotationFields): AnnotationFields => ({
  labels: a.labels,
  note: a.note,
  status: a.status,
  skipped: a.skipped,
  active: a.active,
});

const now = () => new Date().toISOString();

// ---- taxonomy versions -------------------------------------------------------------------

export function latestTaxonomy(db: Database.Database): { version: number; body: string } | undefined {
  return db.prepare('SELECT version, body FROM taxonomies ORDER BY version DESC LIMIT 1').get() as
    { version: number; body: string } | undefined;
}

export function insertTaxonomy(
  db: Database.Database,
  version: number,
  name: string,
  body: string,
  author: string | null,
): void {
  db.prepare('INSERT INTO taxonomies (version, name, body, author, created) VALUES (?, ?, ?, ?, ?)').run(
    version,
    name,
    body,
    author,
    now(),
  );
}

/** How many active annotations use each label id (what the no-orphan rule checks). */
export function labelUsage(db: Database.Database): Map<string, number> {
  const rows = db
    .prepare(
      'SELECT j.value AS label, count(*) AS n FROM annotations a, json_each(a.labels) j WHERE a.active = 1 GROUP BY j.value',
    )
    .all() as { label: string; n: number }[];
  return new Map(rows.map((r) => [r.label, r.n]));
}

// ---- annotations -------------------------------------------------------------------------

export function getAnnotation(
  db: Database.Database,
  target: string,
  annotator: string,
  role: AnnotationRole = 'annotator',
): AnnotationRecord | undefined {
  const r = db
    .prepare('SELECT * FROM annotations WHERE target = ? AND annotator = ? AND role = ?')
    .get(target, annotator, role) as Row | undefined;
  return r && recordOf(r);
}

export function getAnnotationByUid(db: Database.Database, uid: string): AnnotationRecord | undefined {
  const r = db.prepare('SELECT * FROM annotations WHERE uid = ?').get(uid) as Row | undefined;
  return r && recordOf(r);
}

function getById(db: Database.Database, id: number): AnnotationRecord {
  return recordOf(db.prepare('SELECT * FROM annotations WHERE id = ?').get(id) as Row);
}

function appendHistory(
  db: Database.Database,
  id: number,
  who: string,
  op: HistoryEntry['op'],
  before: AnnotationFields | null,
  after: AnnotationFields,
  undoes: number | null = null,
): void {
  db.prepare(
    'INSERT INTO annotation_history (annotation_id, who, at, op, undoes, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(id, who, now(), op, undoes, before && JSON.stringify(fieldsOf(before)), JSON.stringify(fieldsOf(after)));
}

const same = (a: AnnotationFields, b: AnnotationFields) => JSON.stringify(fieldsOf(a)) === JSON.stringify(fieldsOf(b));

/**
 * Creates or changes (target, annotator)'s annotation and records the change made by `who`.
 * A change that sets what is already there writes nothing. Returns the stored annotation.
 */
export function saveAnnotation(
  db: Database.Database,
  a: NewAnnotation,
  who: string,
  op: 'create' | 'import' = 'create',
): AnnotationRecord {
  const old = getAnnotation(db, a.target, a.annotator, a.role);
  // An import merges what people already did elsewhere: it is never refused for the quota.
  if (op === 'create' && reviews(a) && !(old && reviews(old))) checkQuota(db, a);
  const at = now();
  if (!old) {
    const res = db
      .prepare(
        `INSERT INTO annotations (uid, target, prediction_id, trace_id, seq, action, annotator, role, source, rule, labels, note, status, skipped, active, taxonomy, created, updated)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        a.uid ?? randomUUID(),
        a.target,
        a.prediction,
        a.trace,
        a.seq,
        a.action,
        a.annotator,
        a.role,
        a.source,
        a.rule,
        JSON.stringify(a.labels),
        a.note,
        a.status,
        a.skipped ? 1 : 0,
        a.active ? 1 : 0,
        a.taxonomy,
        a.created ?? at,
        a.updated ?? at,
      );
    const id = Number(res.lastInsertRowid);
    appendHistory(db, id, who, op, null, a);
    return getById(db, id);
  }
  if (same(old, a)) return old;
  db.prepare(
    'UPDATE annotations SET labels = ?, note = ?, status = ?, skipped = ?, active = ?, taxonomy = ?, updated = ? WHERE id = ?',
  ).run(
    JSON.stringify(a.labels),
    a.note,
    a.status,
    a.skipped ? 1 : 0,
    a.active ? 1 : 0,
    a.taxonomy,
    a.updated ?? at,
    old.id,
  );
  appendHistory(db, old.id, who, op === 'import' ? 'import' : 'update', old, a);
  return getById(db, old.id);
}

// ---- reviews per item (migration 011) -----------------------------------------------------

/** Whether an annotation counts as a review of its prediction: a person's labels, given and not skipped. */
const reviews = (a: Pick<Annotation, 'role' | 'source' | 'prediction' | 'skipped' | 'active'>) =>
  a.role === 'annotator' && a.source === 'person' && a.prediction !== null && !a.skipped && a.active;

/** How many people review each prediction of a run; undefined when the run has no limit. */
export function reviewQuota(db: Database.Database, runId: number): number | undefined {
  return db.prepare('SELECT reviews FROM review_quotas WHERE run_id = ?').pluck().get(runId) as number | undefined;
}

/** Sets (or, with null, removes) a run's reviews per item. Reviews already given stay. */
export function setReviewQuota(db: Database.Database, runId: number, n: number | null, author: string | null): void {
  if (n === null) db.prepare('DELETE FROM review_quotas WHERE run_id = ?').run(runId);
  else
    db.prepare(
      `INSERT INTO review_quotas (run_id, reviews, author, updated) VALUES (?, ?, ?, ?)
      ON CONFLICT (run_id) DO UPDATE SET reviews = excluded.reviews, author = excluded.author,
        updated = excluded.updated`,
    ).run(runId, n, author, now());
}

/**
 * Refuses `a`, a new review of its prediction, when the prediction's run takes at most N
 * reviews and N other people have given theirs. Runs in the write's transaction, so two
 * annotators racing for the last review cannot both get it.
 */
function checkQuota(db: Database.Database, a: NewAnnotation): void {
  const ref = db
    .prepare(
      `SELECT p.run_id AS run, p.sample, i.key, r.label AS model, s.name AS setName FROM predictions p
      JOIN evalset_items i ON i.id = p.item_id JOIN runs r ON r.id = p.run_id JOIN evalsets s ON s.id = r.set_id
      WHERE p.id = ?`,
    )
    .get(a.prediction) as { run: number; sample: number; key: string; model: string; setName: string } | undefined;
  const n = ref && reviewQuota(db, ref.run);
  if (!ref || n === undefined) return;
  const by = db
    .prepare(
      `SELECT annotator FROM annotations WHERE prediction_id = ? AND role = 'annotator' AND source = 'person'
      AND active = 1 AND skipped = 0 AND annotator != ? ORDER BY annotator`,
    )
    .pluck()
    .all(a.prediction, a.annotator) as string[];
  if (by.length < n) return;
  throw new UserError(
    `item ${ref.key} (prediction ${a.prediction}, draw ${ref.sample + 1}) has its ${n} review${n === 1 ? '' : 's'} ` +
      `already (${by.join(', ')}): ${ref.setName}/${ref.model} takes ${n} per item, so ${a.annotator}'s is refused`,
    'bad-input',
  );
}

/**
 * Sets the status of a rule's suggestion: whether the person who last labeled the target
 * gave its label. Bookkeeping derived from the people's labels (which the history holds), so
 * not itself in the history: an undo of a label recomputes it.
 */
export function setSuggestionStatus(db: Database.Database, id: number, status: AnnotationStatus): void {
  db.prepare('UPDATE annotations SET status = ? WHERE id = ? AND status IS NOT ?').run(status, id, status);
}

/**
 * Reverts `who`'s last change not yet undone (undos themselves are not undone: a second
 * undo goes one change further back). Returns the annotation as it is now, or undefined
 * when there is nothing left to undo.
 */
export function undoLast(db: Database.Database, who: string): AnnotationRecord | undefined {
  const last = db
    .prepare(
      `SELECT id, annotation_id, before FROM annotation_history h WHERE who = ? AND op != 'undo'
      AND NOT EXISTS (SELECT 1 FROM annotation_history u WHERE u.undoes = h.id) ORDER BY id DESC LIMIT 1`,
    )
    .get(who) as { id: number; annotation_id: number; before: string | null } | undefined;
  if (!last) return undefined;
  const cur = getById(db, last.annotation_id);
  const back: AnnotationFields = last.before ? JSON.parse(last.before) : { ...cur, active: false };
  db.prepare(
    'UPDATE annotations SET labels = ?, note = ?, status = ?, skipped = ?, active = ?, updated = ? WHERE id = ?',
  ).run(JSON.stringify(back.labels), back.note, back.status, back.skipped ? 1 : 0, back.active ? 1 : 0, now(), cur.id);
  appendHistory(db, cur.id, who, 'undo', cur, back, last.id);
  return getById(db, cur.id);
}

export function listAnnotations(db: Database.Database, q: AnnotationQuery = {}): AnnotationRecord[] {
  const where: string[] = [];
  const args: (string | number)[] = [];
  if (!q.inactive) where.push('a.active = 1');
  if (q.annotator !== undefined) {
    where.push('a.annotator = ?');
    args.push(q.annotator);
  }
  if (q.source !== undefined) {
    where.push('a.source = ?');
    args.push(q.source);
  }
  if (q.runId !== undefined) {
    where.push('p.run_id = ?');
    args.push(q.runId);
  }
  if (q.setId !== undefined) {
    where.push('r.set_id = ?');
    args.push(q.setId);
  }
  const join =
    q.runId !== undefined || q.setId !== undefined
      ? 'JOIN predictions p ON p.id = a.prediction_id JOIN runs r ON r.id = p.run_id'
      : '';
  const sql = `SELECT a.* FROM annotations a ${join} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY a.id`;
  return (db.prepare(sql).all(...args) as Row[]).map(recordOf);
}

/** Annotations of some predictions (every annotator, rules included), active only. */
export function annotationsOfPredictions(db: Database.Database, ids: readonly number[]): AnnotationRecord[] {
  if (ids.length === 0) return [];
  const rows = db
    .prepare(
      'SELECT a.* FROM annotations a JOIN json_each(?) j ON a.prediction_id = j.value WHERE a.active = 1 ORDER BY a.id',
    )
    .all(JSON.stringify(ids)) as Row[];
  return rows.map(recordOf);
}

export function annotationHistory(
  db: Database.Database,
  q: { annotation?: number; who?: string } = {},
): HistoryEntry[] {
  const where: string[] = [];
  const args: (string | number)[] = [];
  if (q.annotation !== undefined) {
    where.push('annotation_id = ?');
    args.push(q.annotation);
  }
  if (q.who !== undefined) {
    where.push('who = ?');
    args.push(q.who);
  }
  const rows = db
    .prepare(`SELECT * FROM annotation_history ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id`)
    .all(...args) as {
    id: number;
    annotation_id: number;
    who: string;
    at: string;
    op: HistoryEntry['op'];
    undoes: number | null;
    before: string | null;
    after: string;
  }[];
  return rows.map((r) => ({
    id: r.id,
    annotation: r.annotation_id,
    who: r.who,
    at: r.at,
    op: r.op,
    undoes: r.undoes,
    before: r.before && JSON.parse(r.before),
    after: JSON.parse(r.after),
  }));
}

/** Where a prediction belongs (its set, run, item), or undefined for an unknown id. */
export function predictionRef(
  db: Database.Database,
  id: number,
): { setId: number; runId: number; itemId: number } | undefined {
  return db
    .prepare(
      'SELECT r.set_id AS setId, p.run_id AS runId, p.item_id AS itemId FROM predictions p JOIN runs r ON r.id = p.run_id WHERE p.id = ?',
    )
    .get(id) as { setId: number; runId: number; itemId: number } | undefined;
}
