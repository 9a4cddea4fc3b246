/**
 * Reading and writing the trajectories tables (schema: src/store/migrations/002-trajectories.ts)
 * through a corpus's connection. Node side only; the semantics stay pure.
 */
import type Database from 'better-sqlite3';
import { formatAction, stateKind, stateSeqs, type Action, type Direction, type ExitKind, type Trajectory, type TreeIndex } from '../semantics/index.js';

export interface StoredTrajectory {
  id: number;
  traceId: number;
  /** The trace's name. */
  name: string;
  direction: Direction;
  entry: number;
  actions: Action[];
  /** Seq of the event behind each state shown. */
  states: number[];
  /** Indices into `states` of inverse states shown as inv_line_call. */
  lineCalls: number[];
  exit: ExitKind | null;
  text: string;
  seed: number | null;
  sampler: unknown;
  created: string;
}

export interface NewTrajectory {
  traceId: number;
  trajectory: Trajectory;
  text: string;
  seed?: number | null;
  sampler?: unknown;
  /** Identifies a sampled trajectory; inserting the same key again is skipped. */
  sampleKey?: string | null;
}

/** Prepared statements for inserting many trajectories; call inside a transaction. */
export function trajectoryWriter(db: Database.Database, index: () => TreeIndex) {
  const ins = db.prepare(`INSERT OR IGNORE INTO trajectories
    (trace_id, direction, entry, actions, states, line_calls, exit, steps, text, seed, sampler, sample_key, created)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const step = db.prepare('INSERT INTO trajectory_steps (trajectory_id, step, action, src, target_seq, target_kind) VALUES (?, ?, ?, ?, ?, ?)');
  const created = new Date().toISOString();
  /** Returns the new id, or null when a trajectory with the same sample key exists. */
  return (n: NewTrajectory): number | null => {
    const t = n.trajectory;
    const ix = index();
    const seqs = stateSeqs(t);
    const lineCalls = t.direction === 'inverse' ? t.states.flatMap((id, k) => (id & 1 ? [k] : [])) : [];
    const r = ins.run(
      n.traceId,
      t.direction,
      t.entry,
      JSON.stringify(t.actions),
      JSON.stringify(seqs),
      JSON.stringify(lineCalls),
      t.exit,
      t.actions.length,
      n.text,
      n.seed ?? null,
      n.sampler === undefined ? null : JSON.stringify(n.sampler),
      n.sampleKey ?? null,
      created,
    );
    if (r.changes === 0) return null;
    const id = Number(r.lastInsertRowid);
    t.actions.forEach((a, k) => {
      const target = t.states[k + 1];
      if (target === undefined) step.run(id, k, a.action, a.action === 'breakpoint' ? a.src : null, null, t.exit);
      else step.run(id, k, a.action, a.action === 'breakpoint' ? a.src : null, seqs[k + 1], stateKind(ix, t.direction, target));
    });
    return id;
  };
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

/** Trajectories in id order, optionally of one trace, one at a time (constant memory). */
export function* iterateTrajectories(db: Database.Database, traceId?: number): Generator<StoredTrajectory> {
  const stmt =
    traceId === undefined ? db.prepare(`${SELECT} ORDER BY j.id`) : db.prepare(`${SELECT} WHERE j.trace_id = ? ORDER BY j.id`);
  const it = (traceId === undefined ? stmt.iterate() : stmt.iterate(traceId)) as IterableIterator<Row>;
  for (const r of it) yield fromRow(r);
}

/** One page of a trace's trajectories, for the explorer. */
export function listTrajectories(db: Database.Database, traceId: number, offset = 0, limit = 100): { total: number; rows: StoredTrajectory[] } {
  const total = db.prepare('SELECT count(*) FROM trajectories WHERE trace_id = ?').pluck().get(traceId) as number;
  const rows = db.prepare(`${SELECT} WHERE j.trace_id = ? ORDER BY j.id LIMIT ? OFFSET ?`).all(traceId, limit, offset) as Row[];
  return { total, rows: rows.map(fromRow) };
}

export function getTrajectory(db: Database.Database, id: number): StoredTrajectory | undefined {
  const r = db.prepare(`${SELECT} WHERE j.id = ?`).get(id) as Row | undefined;
  return r && fromRow(r);
}

/** The shape of the API's TrajectoryRow (actions as `step_into` / `breakpoint <src>`). */
export function trajectoryRow(t: StoredTrajectory) {
  return { id: t.id, traceId: t.traceId, direction: t.direction, entry: t.entry, actions: t.actions.map(formatAction), exit: t.exit, states: t.states.length };
}

/** The JSON object `stepscope trajectories --json` prints per trajectory. */
export function trajectoryJson(t: StoredTrajectory) {
  return {
    id: t.id,
    trace: t.traceId,
    name: t.name,
    direction: t.direction,
    entry: t.entry,
    actions: t.actions,
    states: t.states,
    line_calls: t.lineCalls,
    exit: t.exit,
    text: t.text,
    seed: t.seed,
    sampler: t.sampler,
    created: t.created,
  };
}
