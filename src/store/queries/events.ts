/**
 * Reading events of one trace by seq window. WINDOW_SQL is a range scan of the events
 * primary key (trace_id, seq); test/store/query.test.ts asserts that plan.
 */
import type Database from 'better-sqlite3';
import type { TraceEvent } from '../../trace/types.js';

/** Half-open window: seq >= from AND seq < to. */
export const WINDOW_SQL =
  'SELECT seq, event, frame, func, line, src, locals, arg, parent, cut FROM events WHERE trace_id = ? AND seq >= ? AND seq < ? ORDER BY seq';

/** A stored event: locals and cut as their JSON text. */
type EventRow = Omit<TraceEvent, 'locals' | 'cut'> & { locals: string; cut: string | null };

function toEvent(r: EventRow): TraceEvent {
  const e: TraceEvent = {
    seq: r.seq,
    event: r.event,
    frame: r.frame,
    func: r.func,
    line: r.line,
    src: r.src,
    locals: JSON.parse(r.locals),
    arg: r.arg,
    parent: r.parent,
  };
  if (r.cut !== null) e.cut = JSON.parse(r.cut);
  return e;
}

function bounds(from: number, to: number): [number, number] {
  // SQLite compares integers with the bound; Infinity would bind as a REAL, so clamp.
  const lo = Math.max(0, Math.floor(from));
  const hi = to === Infinity ? Number.MAX_SAFE_INTEGER : Math.ceil(to);
  return [lo, hi];
}

export function getEvents(db: Database.Database, traceId: number, from = 0, to = Infinity): TraceEvent[] {
  const [lo, hi] = bounds(from, to);
  return (db.prepare(WINDOW_SQL).all(traceId, lo, hi) as EventRow[]).map(toEvent);
}

/**
 * The same window, one event at a time, for traces too long to hold in memory. While the
 * iterator is open the connection runs no other statement (better-sqlite3 rule): finish
 * or `return()` it first.
 */
export function* iterateEvents(db: Database.Database, traceId: number, from = 0, to = Infinity): Generator<TraceEvent> {
  const [lo, hi] = bounds(from, to);
  for (const r of db.prepare(WINDOW_SQL).iterate(traceId, lo, hi) as IterableIterator<EventRow>) yield toEvent(r);
}
