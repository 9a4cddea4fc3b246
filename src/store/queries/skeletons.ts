/**
 * The packed skeleton of each trace (src/trace/skeleton.ts), kept in `trace_skeletons` so
 * opening a trace is one row read instead of a scan of all its events. The table is derived
 * from `events` and rebuildable: ingest writes a trace's row, migration 009 filled the rows
 * of traces ingested before it, and a trace without a row (or with a row of another
 * SKELETON_FORMAT) is read from its events as before, so the table is never needed for
 * correctness, only for speed.
 */
import type Database from 'better-sqlite3';
import { encodeSkeleton, type SkeletonWire } from '../../trace/skeleton.js';
import { traceShape } from './events.js';

/** The packing written today; a row with another format is ignored (and rewritten at its next store). */
export const SKELETON_FORMAT = 1;

/** The trace's skeleton packed from its events; null when it has no events. */
export function computeSkeleton(db: Database.Database, traceId: number): SkeletonWire | null {
  const shape = traceShape(db, traceId);
  return shape && encodeSkeleton(shape);
}

/** Packs the trace's skeleton from its events and keeps it (nothing for a trace without events). */
export function storeSkeleton(db: Database.Database, traceId: number): void {
  const wire = computeSkeleton(db, traceId);
  if (!wire) return;
  db.prepare('INSERT OR REPLACE INTO trace_skeletons (trace_id, format, packed) VALUES (?, ?, ?)').run(traceId, SKELETON_FORMAT, JSON.stringify(wire));
}

/** The kept skeleton, or null when the trace has none of this format. */
export function storedSkeleton(db: Database.Database, traceId: number): SkeletonWire | null {
  const text = db.prepare('SELECT packed FROM trace_skeletons WHERE trace_id = ? AND format = ?').pluck().get(traceId, SKELETON_FORMAT) as string | undefined;
  return text === undefined ? null : (JSON.parse(text) as SkeletonWire);
}

/** The kept skeleton, else the one packed from the events (a trace ingested before 009, a row dropped). */
export function packedSkeleton(db: Database.Database, traceId: number): SkeletonWire | null {
  return storedSkeleton(db, traceId) ?? computeSkeleton(db, traceId);
}
