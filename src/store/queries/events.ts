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

/** The columns of a trace that lay out its trees (the API's skeleton), without values. */
export interface TraceShape {
  count: number;
  kind: Uint8Array;
  parent: Int32Array;
  frame: Int32Array;
  line: Int32Array;
  func: Int32Array;
  funcs: string[];
}

const KIND_BY_INITIAL: Record<string, number> = { c: 0, l: 1, r: 2, e: 3 };

/**
 * The shape of trace `traceId` (null when it has no events). Each column comes back as ONE
 * string built by SQLite (group_concat over the primary key's order), parsed here in one
 * pass: several times faster than materializing a JS row per event.
 */
export function traceShape(db: Database.Database, traceId: number): TraceShape | null {
  const r = db
    .prepare(
      `SELECT count(*), group_concat(substr(event, 1, 1), ''), group_concat(coalesce(parent, -1)), group_concat(frame), group_concat(line), group_concat(func, char(31))
       FROM (SELECT event, parent, frame, line, func FROM events WHERE trace_id = ? ORDER BY seq)`,
    )
    .raw()
    .get(traceId) as [number, string | null, string, string, string, string];
  const n = r[0];
  if (!n || r[1] === null) return null;
  const kind = new Uint8Array(n);
  for (let i = 0; i < n; i++) kind[i] = KIND_BY_INITIAL[r[1][i]];
  const funcs: string[] = [];
  const ix = new Map<string, number>();
  const func = Int32Array.from(r[5].split('\x1f'), (f) => {
    let k = ix.get(f);
    if (k === undefined) ix.set(f, (k = funcs.push(f) - 1));
    return k;
  });
  return {
    count: n,
    kind,
    parent: parseInts(r[2], n),
    frame: parseInts(r[3], n),
    line: parseInts(r[4], n),
    func,
    funcs,
  };
}

/** "3,-1,12" -> Int32Array [3, -1, 12] (n values), without a string per value. */
function parseInts(s: string, n: number): Int32Array {
  const out = new Int32Array(n);
  let k = 0;
  let v = 0;
  let neg = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 44) {
      out[k++] = neg ? -v : v;
      v = 0;
      neg = false;
    } else if (c === 45) neg = true;
    else v = v * 10 + (c - 48);
  }
  out[k] = neg ? -v : v;
  return out;
}
