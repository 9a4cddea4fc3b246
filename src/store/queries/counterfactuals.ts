/**
 * Counterfactual links (migration 014): which trace was recorded as a counterfactual of which,
 * at which event, with which locals set. The traces themselves are ordinary rows of `traces`.
 */
import type Database from 'better-sqlite3';

/** What links a counterfactual trace to its origin. */
export interface CounterfactualLink {
  /** The counterfactual trace. */
  trace: number;
  /** The trace it was recorded from. */
  origin: number;
  /** The edited event (its seq in both traces). */
  seq: number;
  /** The locals set at `seq`: name -> Python literal text, as given. */
  set: Record<string, string>;
  /** The first seq at which the two traces differ; null when they do not. */
  first_difference: number | null;
  created: string;
}

interface Row {
  trace_id: number;
  origin_id: number;
  seq: number;
  edits: string;
  first_difference: number | null;
  created: string;
}

const fromRow = (r: Row): CounterfactualLink => ({
  trace: r.trace_id,
  origin: r.origin_id,
  seq: r.seq,
  set: JSON.parse(r.edits) as Record<string, string>,
  first_difference: r.first_difference,
  created: r.created,
});

/** Stores the link; a trace already linked (the same counterfactual recorded again) keeps its first. */
export function linkCounterfactual(db: Database.Database, l: CounterfactualLink): void {
  db.prepare(
    `INSERT INTO counterfactuals (trace_id, origin_id, seq, edits, first_difference, created)
     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (trace_id) DO NOTHING`,
  ).run(l.trace, l.origin, l.seq, JSON.stringify(l.set), l.first_difference, l.created);
}

/** The link of a counterfactual trace, or undefined for a trace recorded plainly. */
export function counterfactualOf(db: Database.Database, trace: number): CounterfactualLink | undefined {
  const r = db.prepare('SELECT * FROM counterfactuals WHERE trace_id = ?').get(trace) as Row | undefined;
  return r && fromRow(r);
}

/** The counterfactuals recorded from `origin`, by edited seq then id. */
export function counterfactualsFrom(db: Database.Database, origin: number): CounterfactualLink[] {
  return (
    db.prepare('SELECT * FROM counterfactuals WHERE origin_id = ? ORDER BY seq, trace_id').all(origin) as Row[]
  ).map(fromRow);
}
