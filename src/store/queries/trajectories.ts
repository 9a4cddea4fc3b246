/**
 * The trajectories tables (schema: src/store/migrations/002-trajectories.ts): trajectories sampled or
 * saved over stored traces, one row per step. The store takes them ready-made (states as
 * seqs, each step's target computed by the semantics, see src/trajectories/); it only reads
 * and writes rows.
 */
import type Database from 'better-sqlite3';
import type { Action, Direction, ExitKind, StateKind } from '../../semantics/types.js';

/** What a stored trajectory holds, and what one to store gives. */
interface TrajectoryFields {
  traceId: number;
  direction: Direction;
  entry: number;
  actions: Action[];
  /** Seq of the event behind each state shown. */
  states: number[];
  /** Indices into `states` of inverse states shown as inv_line_call. */
  lineCalls: number[];
  exit: ExitKind | null;
  text: string;
  /** Seed and sampler settings; both null for a trajectory made by hand. */
  seed: number | null;
  sampler: unknown;
}

export interface StoredTrajectory extends TrajectoryFields {
  id: number;
  /** The trace's name. */
  name: string;
  created: string;
}

/** A trajectory to store, in the columns' terms. */
export interface NewTrajectory extends TrajectoryFields {
  /** Identifies a sampled trajectory; storing the same key again is skipped. Null for hand-made ones. */
  sampleKey: string | null;
  /** Per action, where it leads: a state (its seq and shown kind) or, for the last, the exit. */
  targets: { seq: number | null; kind: StateKind | ExitKind }[];
}

/**
 * Stores each trajectory with its steps; per item the new id, or null when its sample key
 * exists. Items are taken one at a time (a generator keeps one text in memory). Call inside
 * a transaction.
 */
export function insertTrajectories(db: Database.Database, items: Iterable<NewTrajectory>): (number | null)[] {
  const ins = db.prepare(`INSERT OR IGNORE INTO trajectories
    (trace_id, direction, entry, actions, states, line_calls, exit, steps, text, seed, sampler, sample_key, created)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const step = db.prepare(
    'INSERT INTO trajectory_steps (trajectory_id, step, action, src, target_seq, target_kind) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const created = new Date().toISOString();
  const ids: (number | null)[] = [];
  for (const n of items) {
    const r = ins.run(
      n.traceId,
      n.direction,
      n.entry,
      JSON.stringify(n.actions),
      JSON.stringify(n.states),
      JSON.stringify(n.lineCalls),
      n.exit,
      n.actions.length,
      n.text,
      n.seed,
      n.sampler === null || n.sampler === undefined ? null : JSON.stringify(n.sampler),
      n.sampleKey,
      created,
    );
    if (r.changes === 0) {
      ids.push(null);
      continue;
    }
    const id = Number(r.lastInsertRowid);
    n.actions.forEach((a, k) =>
      step.run(id, k, a.action, a.action === 'breakpoint' ? a.src : null, n.targets[k].seq, n.targets[k].kind),
    );
    ids.push(id);
  }
  return ids;
}

interface Row {
  id: number;
  trace_id: number;
  name: string;
  direction: Direction;
  entry: number;
  actions: string;
  states: string;
  line_calls: string;
  exit: ExitKind | null;
  text: string;
  seed: number | null;
  sampler: string | null;
  created: string;
}

const SELECT = `SELECT j.id, j.trace_id, t.name, j.direction, j.entry, j.actions, j.states, j.line_calls, j.exit, j.text,
  j.seed, j.sampler, j.created FROM trajectories j JOIN traces t ON t.id = j.trace_id`;

function fromRow(r: Row): StoredTrajectory {
  return {
    id: r.id,
    traceId: r.trace_id,
    name: r.name,
    direction: r.direction,
    entry: r.entry,
    actions: JSON.parse(r.actions),
    states: JSON.parse(r.states),
    lineCalls: JSON.parse(r.line_calls),
    exit: r.exit,
    text: r.text,
    seed: r.seed,
    sampler: r.sampler === null ? null : JSON.parse(r.sampler),
    created: r.created,
  };
}

/**
 * Trajectories in id order, optionally of one trace, one at a time (constant memory; see events.ts for the iterator
 * rule).
 */
export function* iterateTrajectories(db: Database.Database, traceId?: number): Generator<StoredTrajectory> {
  const stmt =
    traceId === undefined
      ? db.prepare(`${SELECT} ORDER BY j.id`)
      : db.prepare(`${SELECT} WHERE j.trace_id = ? ORDER BY j.id`);
  const it = (traceId === undefined ? stmt.iterate() : stmt.iterate(traceId)) as IterableIterator<Row>;
  for (const r of it) yield fromRow(r);
}

/** The serialized text of every stored trajectory, one at a time (what `sample --unique` compares). */
export function trajectoryTexts(db: Database.Database): IterableIterator<string> {
  return db.prepare('SELECT text FROM trajectories').pluck().iterate() as IterableIterator<string>;
}

/** One page of a trace's trajectories, in id order. */
export function listTrajectories(
  db: Database.Database,
  traceId: number,
  offset: number,
  limit: number,
): { total: number; rows: StoredTrajectory[] } {
  const total = db.prepare('SELECT count(*) FROM trajectories WHERE trace_id = ?').pluck().get(traceId) as number;
  const rows = db
    .prepare(`${SELECT} WHERE j.trace_id = ? ORDER BY j.id LIMIT ? OFFSET ?`)
    .all(traceId, limit, offset) as Row[];
  return { total, rows: rows.map(fromRow) };
}

export function getTrajectory(db: Database.Database, id: number): StoredTrajectory | undefined {
  const r = db.prepare(`${SELECT} WHERE j.id = ?`).get(id) as Row | undefined;
  return r && fromRow(r);
}
