/**
 * Trace listing and lookup for the corpus browser. Filters and sorting happen in SQLite
 * with bound parameters; the only string spliced into SQL is a column chosen from a fixed
 * map. Cost: name/exit filters use indexes; `code` scans programs (deduplicated, small);
 * `value` scans the events of the traces left by the other filters (see docs/schema.md).
 */
import type Database from 'better-sqlite3';
import type { ExitStatus, TraceEnd, TraceHeader, TraceMode } from '../../trace/types.js';
import { pyJson } from '../serialize.js';
import { containsPattern } from './like.js';

export interface TraceQuery {
  /** Substring of the trace name (ASCII case-insensitive). */
  search?: string;
  /** Substring of the program source. */
  code?: string;
  /** Substring of any locals repr of any event (ASCII case-insensitive). */
  value?: string;
  exit?: ExitStatus;
  sort?: 'name' | 'events' | 'id';
  desc?: boolean;
  /** Default: all rows. */
  limit?: number;
  offset?: number;
}

export interface TraceRow {
  id: number;
  name: string;
  mode: TraceMode;
  exit: ExitStatus;
  reason: string | null;
  events: number;
  python: string;
  seconds: number;
}

/** One stored trace: its header and end fields, plus where and when it was ingested. */
export interface TraceRecord extends TraceHeader, TraceEnd {
  id: number;
  /** The file it was ingested from, as given to ingest. */
  origin: string | null;
  /** ISO time of ingestion. */
  created: string;
}

const SORT_COLUMNS = { name: 't.name', events: 't.events', id: 't.id' } as const;
const EXITS = new Set(['normal', 'error', 'never']);

export function listTraces(db: Database.Database, q: TraceQuery = {}): { total: number; rows: TraceRow[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (q.search) {
    where.push("t.name LIKE ? ESCAPE '\\'");
    params.push(containsPattern(q.search));
  }
  if (q.exit !== undefined) {
    if (!EXITS.has(q.exit)) throw new RangeError(`exit must be normal, error or never, got ${JSON.stringify(q.exit)}`);
    where.push('t.exit = ?');
    params.push(q.exit);
  }
  if (q.code) {
    where.push("t.program_id IN (SELECT id FROM programs WHERE source LIKE ? ESCAPE '\\')");
    params.push(containsPattern(q.code));
  }
  if (q.value) {
    // The LIKE on the stored text is a cheap prefilter (locals are stored in canonical
    // form, so the value appears exactly as pyJson escapes it); json_each then confirms
    // the match is in a repr, not in a name.
    where.push(
      `EXISTS (SELECT 1 FROM events e WHERE e.trace_id = t.id AND e.locals LIKE ? ESCAPE '\\'
         AND EXISTS (SELECT 1 FROM json_each(e.locals) j WHERE j.value LIKE ? ESCAPE '\\'))`,
    );
    params.push(containsPattern(pyJson(q.value).slice(1, -1)), containsPattern(q.value));
  }
  const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const col = SORT_COLUMNS[q.sort ?? 'id'];
  if (!col) throw new RangeError(`sort must be name, events or id, got ${JSON.stringify(q.sort)}`);
  const dir = q.desc ? 'DESC' : 'ASC';
  const order = col === 't.id' ? `t.id ${dir}` : `${col} ${dir}, t.id ${dir}`;
  const limit = q.limit ?? -1;
  const offset = q.offset ?? 0;
  if (!Number.isInteger(limit) || !Number.isInteger(offset) || offset < 0) throw new RangeError('limit and offset must be whole numbers');

  const select = `SELECT t.id, t.name, t.mode, t.exit, t.reason, t.events, t.python, t.seconds`;
  const page = `FROM traces t ${filter} ORDER BY ${order} LIMIT ? OFFSET ?`;
  const count = () => db.prepare(`SELECT count(*) FROM traces t ${filter}`).pluck().get(...params) as number;
  if (q.value) {
    // The value filter scans events: run it once, counting with a window function,
    // rather than once for the count and again for the page.
    const found = db.prepare(`${select}, count(*) OVER () AS total ${page}`).all(...params, limit, offset) as (TraceRow & { total: number })[];
    const total = found.length ? found[0].total : offset > 0 ? count() : 0;
    return { total, rows: found.map(({ total: _t, ...r }) => r) };
  }
  const total = count();
  const rows = db.prepare(`${select} ${page}`).all(...params, limit, offset) as TraceRow[];
  return { total, rows };
}

interface StoredTrace {
  id: number;
  name: string;
  mode: TraceMode;
  python: string;
  hashseed: number;
  call: string | null;
  limits: string;
  meta: string;
  exit: ExitStatus;
  reason: string | null;
  events: number;
  seconds: number;
  stdout_bytes: number | null;
  tampered: string | null;
  origin: string | null;
  created: string;
  filename: string;
  source: string;
  context_forward: string;
  context_inverse: string;
}

export function getTrace(db: Database.Database, id: number): TraceRecord | undefined {
  const r = db
    .prepare(
      `SELECT t.id, t.name, t.mode, t.python, t.hashseed, t.call, t.limits, t.meta, t.exit, t.reason, t.events,
              t.seconds, t.stdout_bytes, t.tampered, t.origin, t.created, p.filename, p.source, p.context_forward, p.context_inverse
       FROM traces t JOIN programs p ON p.id = t.program_id WHERE t.id = ?`,
    )
    .get(id) as StoredTrace | undefined;
  if (!r) return undefined;
  const rec: TraceRecord = {
    id: r.id,
    name: r.name,
    mode: r.mode,
    python: r.python,
    hashseed: r.hashseed,
    filename: r.filename,
    source: r.source,
    call: r.call,
    context_forward: r.context_forward,
    context_inverse: r.context_inverse,
    limits: JSON.parse(r.limits),
    meta: JSON.parse(r.meta),
    exit: r.exit,
    reason: r.reason,
    events: r.events,
    seconds: r.seconds,
    origin: r.origin,
    created: r.created,
  };
  if (r.stdout_bytes !== null) rec.stdout_bytes = r.stdout_bytes;
  if (r.tampered !== null) rec.tampered = r.tampered;
  return rec;
}
