/**
 * The packed skeleton of each trace (src/trace/skeleton.ts), kept in `trace_skeletons` so
 * opening a trace is one row read instead of a scan of all its events. The table is derived
 * from `events` and rebuildable: ingest writes a trace's row, migration 009 filled the rows
 * of traces ingested before it, and a trace without a row (or with a row of another
 * SKELETON_FORMAT) is read from its events as before, so the table is never needed for
 * correctness, only for speed.
 *
 * Format 2 (migration 010) keeps the bytes form itself (skeletonBytes, a BLOB): what the
 * explorer's tree worker fetches is the row as it is, and opening a trace for walking unpacks
 * it without base64 or a JSON parse of megabytes. Format 1 was the JSON wire form as text.
 */
import type Database from 'better-sqlite3';
import { encodeSkeleton, skeletonBytes, skeletonWireFromBytes, type SkeletonWire } from '../../trace/skeleton.js';
import { traceShape } from './events.js';

/** The packing written today; a row with another format is ignored (and rewritten at its next store). */
export const SKELETON_FORMAT = 2;

/** Node's base64 codecs: a few times faster than the pure ones of src/trace. */
const fromBase64 = (s: string): Uint8Array => Buffer.from(s, 'base64');
const toBase64 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');

/** The wire form as the bytes kept (format 2). */
export function bytesOfWire(wire: SkeletonWire): Uint8Array {
  return skeletonBytes(wire, fromBase64);
}

/** The trace's skeleton packed from its events; null when it has no events. */
export function computeSkeleton(db: Database.Database, traceId: number): SkeletonWire | null {
  const shape = traceShape(db, traceId);
  return shape && encodeSkeleton(shape);
}

/** Packs the trace's skeleton from its events and keeps it (nothing for a trace without events). */
export function storeSkeleton(db: Database.Database, traceId: number): void {
  const wire = computeSkeleton(db, traceId);
  if (!wire) return;
  db.prepare('INSERT OR REPLACE INTO trace_skeletons (trace_id, format, packed) VALUES (?, ?, ?)').run(
    traceId,
    SKELETON_FORMAT,
    bytesOfWire(wire),
  );
}

/** The kept skeleton's bytes, or null when the trace has no row of this format. */
export function storedSkeletonBytes(db: Database.Database, traceId: number): Uint8Array | null {
  const b = db
    .prepare('SELECT packed FROM trace_skeletons WHERE trace_id = ? AND format = ?')
    .pluck()
    .get(traceId, SKELETON_FORMAT) as Uint8Array | undefined;
  return b instanceof Uint8Array ? b : null;
}

/**
 * The kept skeleton's bytes, else packed from the events (a trace ingested before 009, a row dropped); null without
 * events.
 */
export function packedSkeletonBytes(db: Database.Database, traceId: number): Uint8Array | null {
  const kept = storedSkeletonBytes(db, traceId);
  if (kept) return kept;
  const wire = computeSkeleton(db, traceId);
  return wire && bytesOfWire(wire);
}

/** The same as the JSON wire form (getSkeleton's JSON answer). */
export function packedSkeleton(db: Database.Database, traceId: number): SkeletonWire | null {
  const bytes = packedSkeletonBytes(db, traceId);
  return bytes && skeletonWireFromBytes(bytes, toBase64);
}
