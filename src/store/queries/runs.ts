/**
 * Runs: one model's answers to one evaluation set under a label (schema:
 * src/store/migrations/004-predictions.ts). Deleting a run deletes its predictions only.
 */
import type Database from 'better-sqlite3';

export type RunFormat = 'state' | 'cruxeval';

export interface NewRun {
  setId: number;
  label: string;
  /** `state`: completions are serialized states; `cruxeval`: the benchmark's own texts. */
  format: RunFormat;
  params: unknown;
  /** The file imported, or the endpoint asked. */
  source: string;
  /** sha256 of the imported file; null for `predict`. */
  sourceHash: string | null;
  /** PYTHONHASHSEED of the execution checks. */
  hashseed: number;
}

export interface RunRecord extends Omit<NewRun, 'params'> {
  id: number;
  params: Record<string, unknown>;
  /** The set's name. */
  set: string;
  created: string;
  predictions: number;
  /** Items with at least one prediction (answered). */
  items: number;
  /** Items of the set: a run with `items < setItems` is partial. */
  setItems: number;
  /** Predictions whose execution check has not run yet. */
  pending: number;
}

export function insertRun(db: Database.Database, r: NewRun): number {
  const res = db
    .prepare(
      'INSERT INTO runs (set_id, label, format, params, source, source_hash, hashseed, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    )
    .run(
      r.setId,
      r.label,
      r.format,
      JSON.stringify(r.params),
      r.source,
      r.sourceHash,
      r.hashseed,
      new Date().toISOString(),
    );
  return Number(res.lastInsertRowid);
}

const RUN_SELECT = `SELECT r.id, r.set_id, s.name AS set_name, s.items AS set_items, r.label, r.format, r.params, r.source, r.source_hash, r.hashseed, r.created,
  (SELECT count(*) FROM predictions p WHERE p.run_id = r.id) AS predictions,
  (SELECT count(DISTINCT p.item_id) FROM predictions p WHERE p.run_id = r.id) AS items,
  (SELECT count(*) FROM predictions p WHERE p.run_id = r.id AND (p.exec_status = 'pending' OR p.alt_status = 'pending')) AS pending
  FROM runs r JOIN evalsets s ON s.id = r.set_id`;

interface RunRow {
  id: number;
  set_id: number;
  set_name: string;
  set_items: number;
  label: string;
  format: RunFormat;
  params: string;
  source: string;
  source_hash: string | null;
  hashseed: number;
  created: string;
  predictions: number;
  items: number;
  pending: number;
}

const runOf = (r: RunRow): RunRecord => ({
  id: r.id,
  setId: r.set_id,
  set: r.set_name,
  label: r.label,
  format: r.format,
  params: JSON.parse(r.params),
  source: r.source,
  sourceHash: r.source_hash,
  hashseed: r.hashseed,
  created: r.created,
  predictions: r.predictions,
  items: r.items,
  setItems: r.set_items,
  pending: r.pending,
});

export function getRun(db: Database.Database, setId: number, label: string): RunRecord | undefined {
  const r = db.prepare(`${RUN_SELECT} WHERE r.set_id = ? AND r.label = ?`).get(setId, label) as RunRow | undefined;
  return r && runOf(r);
}

export function getRunById(db: Database.Database, id: number): RunRecord | undefined {
  const r = db.prepare(`${RUN_SELECT} WHERE r.id = ?`).get(id) as RunRow | undefined;
  return r && runOf(r);
}

/** Runs in id order, of one set or all. */
export function listRuns(db: Database.Database, setId?: number): RunRecord[] {
  const rows =
    setId === undefined
      ? db.prepare(`${RUN_SELECT} ORDER BY r.id`).all()
      : db.prepare(`${RUN_SELECT} WHERE r.set_id = ? ORDER BY r.id`).all(setId);
  return (rows as RunRow[]).map(runOf);
}

/** Deletes a run and its predictions (cascade), nothing else. */
export function deleteRun(db: Database.Database, id: number): void {
  db.prepare('DELETE FROM runs WHERE id = ?').run(id);
}
