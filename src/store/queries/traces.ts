/**
 * Traces: the corpus browser's listing, one trace's record, every id, the counts. The
 * listing filters and sorts in SQLite with bound parameters; the only string spliced into
 * SQL is a column chosen from a fixed map. Cost: name/exit filters use indexes; `code`
 * scans programs (deduplicated, small); `value` scans the events of the traces left by the
 * other filters (see docs/schema.md).
 */
import type Database from 'better-sqlite3';
import { pyJson } from '../../semantics/json.js';
import type { TraceQuery, TraceRow, TraceSort } from '../../trace/listing.js';
import { TRACE_EXITS, type ExitStatus, type TraceEnd, type TraceHeader, type TraceMode } from '../../trace/types.js';
import { containsPattern } from './like.js';

/** One stored trace: its header and end fields, plus where and when it was ingested. */
export interface TraceRecord extends TraceHeader, TraceEnd {
  id: number;
  /** The file it was ingested from, as given to ingest. */
  origin: string | null;
  /** ISO time of ingestion. */
  created: string;
}

// Names sort naturally (sample_2 before sample_10) by their key (src/store/name-key.ts).
const SORT_COLUMNS: Record<TraceSort, string> = { name: 't.name_key', events: 't.events', id: 't.id' };
const EXITS = new Set<string>(TRACE_EXITS);

/**
 * Callers validate the query (the API contract's validators, the CLI's options); the checks
 * here only keep a value the types forbid out of the SQL, so they throw RangeError (a bug).
 */
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
  const col = Object.hasOwn(SORT_COLUMNS, q.sort ?? 'id') ? SORT_COLUMNS[q.sort ?? 'id'] : undefined;
  if (!col) throw new RangeError(`sort must be name, events or id, got ${JSON.stringify(q.sort)}`);
  const dir = q.desc ? 'DESC' : 'ASC';
  const order = col === 't.id' ? `t.id ${dir}` : `${col} ${dir}, t.id ${dir}`;
  const limit = q.limit ?? -1;
  const offset = q.offset ?? 0;
  if (!Number.isInteger(limit) || !Number.isInteger(offset) || offset < 0)
    throw new RangeError('limit and offset must be whole numbers');

  const select =
    'SELECT t.id, t.name, t.mode, t.exit, t.reason, t.events, t.python, t.seconds, ' +
    '(SELECT c.origin_id FROM counterfactuals c WHERE c.trace_id = t.id) AS counterfactual_of';
  const page = `FROM traces t ${filter} ORDER BY ${order} LIMIT ? OFFSET ?`;
  const count = () =>
    db
      .prepare(`SELECT count(*) FROM traces t ${filter}`)
      .pluck()
      .get(...params) as number;
  if (q.value) {
    // The value filter scans events: run it once, counting with a window function,
    // rather than once for the count and again for the page.
    const found = db
      .prepare(`${select}, count(*) OVER () AS total ${page}`)
      .all(...params, limit, offset) as (TraceRow & { total: number })[];
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

/** Every trace id, in id order. */
export function traceIds(db: Database.Database): number[] {
  return db.prepare('SELECT id FROM traces ORDER BY id').pluck().all() as number[];
}

/** The ids of the traces of these programs, in id order. */
export function traceIdsOfPrograms(db: Database.Database, programIds: number[]): number[] {
  const stmt = db.prepare('SELECT id FROM traces WHERE program_id = ?').pluck();
  return programIds.flatMap((p) => stmt.all(p) as number[]).sort((a, b) => a - b);
}

/** The ids of the traces named `name`, in id order (a name may be given to several traces). */
export function traceIdsNamed(db: Database.Database, name: string): number[] {
  return db.prepare('SELECT id FROM traces WHERE name = ? ORDER BY id').pluck().all(name) as number[];
}

export interface CorpusCounts {
  programs: number;
  traces: number;
  events: number;
}

export function counts(db: Database.Database): CorpusCounts {
  const one = (sql: string) => db.prepare(sql).pluck().get() as number;
  return {
    programs: one('SELECT count(*) FROM programs'),
    traces: one('SELECT count(*) FROM traces'),
    events: one('SELECT count(*) FROM events'),
  };
}
