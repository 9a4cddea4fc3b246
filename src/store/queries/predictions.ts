/**
 * Predictions with their verdicts (schema: src/store/migrations/004-predictions.ts).
 * Verdicts arrive ready-made (src/predictions/ scores them); execution verdicts start as
 * `pending` and are set when the check has run.
 */
import type Database from 'better-sqlite3';
import { wellFormedString } from '../../common/well-formed.js';
import type { VerdictStatus } from '../../semantics/eval.js';
import type { ParseError } from '../../semantics/parse.js';
import type { FieldVerdicts } from '../../semantics/score.js';
import { insertRolloutSteps, type NewRolloutStep } from './rollouts.js';

/**
 * A prediction to store: its exact-match verdicts (null for the benchmark's own texts) and which execution checks are
 * due.
 */
export interface NewPrediction {
  itemId: number;
  sample: number;
  completion: string;
  /** The server's finish reason (`stop`, `length`), null for imports. */
  finish: string | null;
  /** null when the completion is not a serialized state (CRUXEval texts). */
  em: FieldVerdicts | null;
  parseError: ParseError | null;
  /** `pending` when the check applies, null when it does not. */
  exec: 'pending' | null;
  alt: 'pending' | null;
  /** A rollout's predicted states with their verdicts (table rollout_steps); this row summarises them. */
  steps?: readonly NewRolloutStep[];
}

const PREDICTION_COLUMNS = `(run_id, created, item_id, sample, completion, finish, format_error, parse_error, em_event,
  em_src, em_locals, em_arg, em_all, exec_status, alt_status)`;
/** Values bound per row: the columns above but the run and the time, which are bound once per statement, by name. */
const WIDTH = 13;
/**
 * Rows per INSERT statement: per statement SQLite resets, binds and keeps a statement journal of the pages it
 * changes, which cost more than the rows themselves one row at a time (6,500 parameters, under SQLite's 32,766).
 */
const BATCH = 500;

/** The two insert statements of a connection, made once (predict adds a few predictions per item). */
const inserts = new WeakMap<Database.Database, { one: Database.Statement; many: Database.Statement }>();

function insertStatements(db: Database.Database) {
  let s = inserts.get(db);
  if (!s) {
    const row = `(@run, @created, ${Array(WIDTH).fill('?').join(', ')})`;
    s = {
      one: db.prepare(`INSERT INTO predictions ${PREDICTION_COLUMNS} VALUES ${row}`),
      many: db.prepare(`INSERT INTO predictions ${PREDICTION_COLUMNS} VALUES ${Array(BATCH).fill(row).join(', ')}`),
    };
    inserts.set(db, s);
  }
  return s;
}

/** Stores predictions of one run, in the order given; call inside a transaction. */
export function insertPredictions(db: Database.Database, runId: number, preds: Iterable<NewPrediction>): number {
  const { one, many } = insertStatements(db);
  const named = { run: runId, created: new Date().toISOString() };
  const b = (x: boolean | null | undefined) => (x === null || x === undefined ? null : x ? 1 : 0);
  const params: unknown[] = new Array(BATCH * WIDTH);
  let at = 0;
  let n = 0;
  for (const p of preds) {
    const em = p.em;
    params[at++] = p.itemId;
    params[at++] = p.sample;
    // Callers spell lone surrogates before scoring (src/model/response.ts, read-file.ts); this is the last guard.
    params[at++] = wellFormedString(p.completion);
    params[at++] = p.finish === null ? null : wellFormedString(p.finish);
    params[at++] = em === null ? null : b(p.parseError !== null);
    params[at++] = p.parseError === null ? null : JSON.stringify(p.parseError);
    params[at++] = b(em?.event);
    params[at++] = b(em?.src);
    params[at++] = b(em?.locals);
    params[at++] = b(em?.arg);
    params[at++] = b(em?.all);
    params[at++] = p.exec;
    params[at++] = p.alt;
    n++;
    if (p.steps) {
      // The steps need the row's id: this row (and those before it) go in one at a time.
      let id = 0;
      for (let i = 0; i < at; i += WIDTH) id = Number(one.run(params.slice(i, i + WIDTH), named).lastInsertRowid);
      at = 0;
      insertRolloutSteps(db, id, p.steps);
    } else if (at === params.length) {
      // Spread, not one array: better-sqlite3 reads an array's elements one property lookup at a time, which cost
      // more than SQLite's own work on the rows; arguments it reads directly.
      many.run(...params, named);
      at = 0;
    }
  }
  for (let i = 0; i < at; i += WIDTH) one.run(params.slice(i, i + WIDTH), named);
  return n;
}

/** Ids of the items that have at least one prediction in the run. */
export function answeredItems(db: Database.Database, runId: number): Set<number> {
  return new Set(
    db.prepare('SELECT DISTINCT item_id FROM predictions WHERE run_id = ?').pluck().all(runId) as number[],
  );
}

/** A prediction whose execution check has not run, with what the check needs. */
export interface PendingCheck {
  id: number;
  itemId: number;
  completion: string;
  exec: boolean;
  alt: boolean;
  /** Whether the predicted locals equal the target's (a call's true arguments need no run). */
  emLocals: boolean | null;
}

/** Predictions of a run with a pending check, in id order. */
export function pendingChecks(db: Database.Database, runId: number): PendingCheck[] {
  const rows = db
    .prepare(
      `SELECT id, item_id, completion, exec_status = 'pending' AS exec, alt_status = 'pending' AS alt, em_locals FROM predictions
      WHERE run_id = ? AND (exec_status = 'pending' OR alt_status = 'pending') ORDER BY id`,
    )
    .all(runId) as {
    id: number;
    item_id: number;
    completion: string;
    exec: number;
    alt: number;
    em_locals: number | null;
  }[];
  return rows.map((r) => ({
    id: r.id,
    itemId: r.item_id,
    completion: r.completion,
    exec: r.exec === 1,
    alt: r.alt === 1,
    emLocals: r.em_locals === null ? null : r.em_locals === 1,
  }));
}

/** A prediction with an execution check already made, and its stored statuses (for `scores --seed-check`). */
export interface CheckedPrediction extends PendingCheck {
  execStatus: VerdictStatus | null;
  altStatus: VerdictStatus | null;
}

/** Predictions of a run with a check made (not pending), in id order. */
export function checkedPredictions(db: Database.Database, runId: number): CheckedPrediction[] {
  const rows = db
    .prepare(
      `SELECT id, item_id, completion, exec_status, alt_status, em_locals FROM predictions
      WHERE run_id = ? AND (exec_status <> 'pending' OR alt_status <> 'pending') ORDER BY id`,
    )
    .all(runId) as {
    id: number;
    item_id: number;
    completion: string;
    exec_status: VerdictStatus | null;
    alt_status: VerdictStatus | null;
    em_locals: number | null;
  }[];
  return rows.map((r) => {
    const exec = r.exec_status !== null && r.exec_status !== 'pending';
    const alt = r.alt_status !== null && r.alt_status !== 'pending';
    return {
      id: r.id,
      itemId: r.item_id,
      completion: r.completion,
      exec,
      alt,
      emLocals: r.em_locals === null ? null : r.em_locals === 1,
      execStatus: exec ? r.exec_status : null,
      altStatus: alt ? r.alt_status : null,
    };
  });
}

export interface CheckVerdict {
  status: Exclude<VerdictStatus, 'pending'>;
  /** What went wrong, or why it was skipped. */
  detail: string | null;
}

export interface VerdictUpdate {
  id: number;
  exec?: CheckVerdict & { rule: boolean };
  alt?: CheckVerdict & { got: string | null };
}

/** Sets execution verdicts; call inside a transaction. */
export function setVerdicts(db: Database.Database, updates: Iterable<VerdictUpdate>): void {
  const exec = db.prepare('UPDATE predictions SET exec_status = ?, exec_detail = ?, exec_rule = ? WHERE id = ?');
  const alt = db.prepare('UPDATE predictions SET alt_status = ?, alt_detail = ?, alt_got = ? WHERE id = ?');
  for (const u of updates) {
    if (u.exec) exec.run(u.exec.status, u.exec.detail, u.exec.rule ? 1 : 0, u.id);
    if (u.alt) alt.run(u.alt.status, u.alt.detail, u.alt.got, u.id);
  }
}

/** A stored prediction with its verdicts. */
export interface PredictionRecord {
  id: number;
  runId: number;
  /** The run's label. */
  model: string;
  itemId: number;
  /** The item's key in its set (the CRUXEval task id on CRUXEval sets). */
  itemKey: string;
  traceId: number;
  sample: number;
  completion: string;
  finish: string | null;
  /** null: not a serialized state (a CRUXEval text), so not read and not scored by field. */
  formatError: boolean | null;
  parseError: ParseError | null;
  em: FieldVerdicts;
  exec: { status: VerdictStatus; detail: string | null; rule: boolean } | null;
  alt: { status: VerdictStatus; detail: string | null; got: string | null } | null;
  /** By execution when there is an execution verdict, else em_all; null while pending. */
  correct: boolean | null;
  created: string;
}

export interface PredictionQuery {
  setId: number;
  runId?: number;
  itemId?: number;
  traceId?: number;
  /** Only items at these positions of the set (inclusive). */
  ordFrom?: number;
  ordTo?: number;
  /** Only predictions that are wrong (correct = 0: format errors included, pending excluded). */
  failed?: boolean;
  offset?: number;
  limit?: number;
}

interface PredictionRow {
  id: number;
  run_id: number;
  label: string;
  item_id: number;
  key: string;
  trace_id: number;
  sample: number;
  completion: string;
  finish: string | null;
  format_error: number | null;
  parse_error: string | null;
  em_event: number | null;
  em_src: number | null;
  em_locals: number | null;
  em_arg: number | null;
  em_all: number | null;
  exec_status: VerdictStatus | null;
  exec_detail: string | null;
  exec_rule: number | null;
  alt_status: VerdictStatus | null;
  alt_detail: string | null;
  alt_got: string | null;
  correct: number | null;
  created: string;
}

const bool = (x: number | null) => (x === null ? null : x === 1);

function predictionOf(r: PredictionRow): PredictionRecord {
  return {
    id: r.id,
    runId: r.run_id,
    model: r.label,
    itemId: r.item_id,
    itemKey: r.key,
    traceId: r.trace_id,
    sample: r.sample,
    completion: r.completion,
    finish: r.finish,
    formatError: bool(r.format_error),
    parseError: r.parse_error === null ? null : JSON.parse(r.parse_error),
    em: {
      event: bool(r.em_event),
      src: bool(r.em_src),
      locals: bool(r.em_locals),
      arg: bool(r.em_arg),
      all: bool(r.em_all),
    },
    exec: r.exec_status === null ? null : { status: r.exec_status, detail: r.exec_detail, rule: r.exec_rule === 1 },
    alt: r.alt_status === null ? null : { status: r.alt_status, detail: r.alt_detail, got: r.alt_got },
    correct: bool(r.correct),
    created: r.created,
  };
}

function predictionWhere(q: PredictionQuery): { sql: string; args: unknown[] } {
  const where = ['i.set_id = ?'];
  const args: unknown[] = [q.setId];
  const add = (cond: string, v: unknown) => (v === undefined ? undefined : (where.push(cond), args.push(v)));
  add('p.run_id = ?', q.runId);
  add('p.item_id = ?', q.itemId);
  add('i.trace_id = ?', q.traceId);
  add('i.ord >= ?', q.ordFrom);
  add('i.ord <= ?', q.ordTo);
  if (q.failed) where.push('p.correct = 0');
  return { sql: where.join(' AND '), args };
}

/** Predictions in item order, then run, then sample; one at a time (constant memory). */
export function* iteratePredictions(db: Database.Database, q: PredictionQuery): Generator<PredictionRecord> {
  const w = predictionWhere(q);
  const stmt = db.prepare(`SELECT p.*, r.label, i.key, i.trace_id FROM predictions p JOIN runs r ON r.id = p.run_id
    JOIN evalset_items i ON i.id = p.item_id WHERE ${w.sql} ORDER BY i.ord, p.run_id, p.sample LIMIT ? OFFSET ?`);
  for (const r of stmt.iterate(...w.args, q.limit ?? -1, q.offset ?? 0) as IterableIterator<PredictionRow>)
    yield predictionOf(r);
}

export function countPredictions(db: Database.Database, q: PredictionQuery): number {
  const w = predictionWhere(q);
  return db
    .prepare(`SELECT count(*) FROM predictions p JOIN evalset_items i ON i.id = p.item_id WHERE ${w.sql}`)
    .pluck()
    .get(...w.args) as number;
}

/** What scores are broken down by: an item's action, direction, horizon, trace length and depth. */
export interface ItemFacts {
  itemId: number;
  action: string;
  direction: string;
  horizon: number | null;
  /** The item's trace: its number of events. */
  traceEvents: number;
  /** How many calls deep the target state is (0: the trace's first frame); null for an exit. */
  depth: number | null;
}

/** What scores are computed from: one row per prediction of a run, in item order. */
export interface VerdictRow extends ItemFacts {
  formatError: boolean | null;
  em: FieldVerdicts;
  /** exec_pass, alt_pass, correct (null: not applicable, or pending). */
  exec: boolean | null;
  alt: boolean | null;
  correct: boolean | null;
  pending: boolean;
}

/**
 * `depth(item, d)`: each item of run @run's set with its target's depth, the hops up its
 * events' `parent` chain (each hop is one calling frame); no row for an exit. Begins a `WITH`.
 */
export const ITEM_DEPTH_CTE = `WITH RECURSIVE up(item, seq, d) AS (
    SELECT i.id, e.parent, 0 FROM evalset_items i JOIN events e ON e.trace_id = i.trace_id AND e.seq = i.target_seq
    WHERE i.set_id = (SELECT set_id FROM runs WHERE id = @run)
    UNION ALL
    SELECT up.item, e.parent, up.d + 1 FROM up JOIN evalset_items i ON i.id = up.item JOIN events e ON e.trace_id = i.trace_id AND e.seq = up.seq
  ), depth AS (SELECT item, max(d) AS d FROM up GROUP BY item)`;

export function verdictRows(db: Database.Database, runId: number): VerdictRow[] {
  const rows = db
    .prepare(
      `${ITEM_DEPTH_CTE}
      SELECT p.item_id, i.action, i.direction, i.horizon, t.events, depth.d, p.format_error, p.em_event, p.em_src, p.em_locals, p.em_arg, p.em_all,
      p.exec_pass, p.alt_pass, p.correct, (p.exec_status = 'pending' OR p.alt_status = 'pending') AS pending
      FROM predictions p JOIN evalset_items i ON i.id = p.item_id JOIN traces t ON t.id = i.trace_id LEFT JOIN depth ON depth.item = p.item_id
      WHERE p.run_id = @run ORDER BY p.item_id, p.sample`,
    )
    .raw()
    .all({ run: runId }) as (string | number | null)[][];
  return rows.map(
    ([itemId, action, direction, horizon, events, depth, fe, ev, src, loc, arg, all, exec, alt, correct, pending]) => ({
      itemId: itemId as number,
      action: action as string,
      direction: direction as string,
      horizon: horizon as number | null,
      traceEvents: events as number,
      depth: depth as number | null,
      formatError: bool(fe as number | null),
      em: {
        event: bool(ev as number | null),
        src: bool(src as number | null),
        locals: bool(loc as number | null),
        arg: bool(arg as number | null),
        all: bool(all as number | null),
      },
      exec: bool(exec as number | null),
      alt: bool(alt as number | null),
      correct: bool(correct as number | null),
      pending: pending === 1,
    }),
  );
}
