/**
 * The corpus: the one typed interface to a Stepscope SQLite file, used by the CLI, the
 * HTTP server and the app. Schema: docs/schema.md. Errors a person can act on are
 * CorpusError (opening, locking, permissions) or IngestError (bad input, with file:line).
 *
 * Reads and writes are two types: ReadCorpus has the methods that only read, Corpus adds
 * those that write. `openCorpus(path, {readonly: true})` gives a ReadCorpus, so a write
 * through a read-only corpus does not compile; at run time its connection is read-only and
 * every write method refuses before it starts.
 *
 * Each method is one line over a query module in queries/<domain>.ts (the only place SQL
 * lives); a new domain adds its file there and its methods here (docs/architecture.md).
 *
 * One corpus holds one better-sqlite3 connection; calls are synchronous except ingest and
 * export, which stream. Do not run queries on the same corpus while its ingest is in
 * progress (they would see the uncommitted file); open a second one instead.
 */
import type Database from 'better-sqlite3';
import type { Writable } from 'node:stream';
import type { TraceQuery, TraceRow } from '../trace/listing.js';
import type { TraceEvent } from '../trace/types.js';
import { bindConnection } from './connection.js';
import { explainSqliteError, readOnlyError } from './errors.js';
import { exportTraces } from './export.js';
import { ingestFile, ingestStream, type IngestOptions, type IngestResult } from './ingest.js';
import { openDatabase, type OpenOptions } from './open.js';
import { getEvents, iterateEvents } from './queries/events.js';
import { userQuery, type SqlRow } from './queries/sql.js';
import { counts, getTrace, listTraces, traceIds, type CorpusCounts, type TraceRecord } from './queries/traces.js';
import { getTrajectory, insertTrajectories, iterateTrajectories, listTrajectories, type NewTrajectory, type StoredTrajectory } from './queries/trajectories.js';

export type { TraceQuery, TraceRow } from '../trace/listing.js';
export type { CorpusCounts, TraceRecord } from './queries/traces.js';
export type { NewTrajectory, StoredTrajectory } from './queries/trajectories.js';
export type { SqlRow } from './queries/sql.js';
export type { IngestOptions, IngestResult } from './ingest.js';
export type { OpenOptions } from './open.js';
export { CorpusError, IngestError } from './errors.js';

export class ReadCorpus {
  private closed = false;

  constructor(
    readonly path: string,
    protected readonly conn: Database.Database,
  ) {
    bindConnection(this, conn);
  }

  get readonly(): boolean {
    return this.conn.readonly;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.conn.close();
  }

  // ---- traces and events (queries/traces.ts, queries/events.ts) -------------------------

  listTraces(q: TraceQuery = {}): { total: number; rows: TraceRow[] } {
    return this.guard(() => listTraces(this.conn, q));
  }

  getTrace(id: number): TraceRecord | undefined {
    return this.guard(() => getTrace(this.conn, id));
  }

  /** Every trace id, in id order. */
  traceIds(): number[] {
    return this.guard(() => traceIds(this.conn));
  }

  counts(): CorpusCounts {
    return this.guard(() => counts(this.conn));
  }

  /** Events with fromSeq <= seq < toSeq, in seq order (one primary-key range scan). */
  getEvents(traceId: number, fromSeq = 0, toSeq = Infinity): TraceEvent[] {
    return this.guard(() => getEvents(this.conn, traceId, fromSeq, toSeq));
  }

  /** Like getEvents, one event at a time; see queries/events.ts for the iterator rule. */
  iterateEvents(traceId: number, fromSeq = 0, toSeq = Infinity): Generator<TraceEvent> {
    return iterateEvents(this.conn, traceId, fromSeq, toSeq);
  }

  /** Writes the given traces to `out` in the trace file format. */
  export(ids: Iterable<number>, out: Writable): Promise<{ traces: number; events: number }> {
    return exportTraces(this.conn, ids, out);
  }

  // ---- trajectories (queries/trajectories.ts) ---------------------------------------------

  /** One page of a trace's trajectories, in id order. */
  listTrajectories(traceId: number, offset = 0, limit = 100): { total: number; rows: StoredTrajectory[] } {
    return this.guard(() => listTrajectories(this.conn, traceId, offset, limit));
  }

  getTrajectory(id: number): StoredTrajectory | undefined {
    return this.guard(() => getTrajectory(this.conn, id));
  }

  /** Trajectories in id order, optionally of one trace, one at a time. */
  iterateTrajectories(traceId?: number): Generator<StoredTrajectory> {
    return iterateTrajectories(this.conn, traceId);
  }

  // ---- plain SQL (queries/sql.ts) ----------------------------------------------------------

  /** One statement a person wrote, read-only; checked now, rows as the result is iterated. */
  query(sql: string): IterableIterator<SqlRow> {
    return userQuery(this.conn, this.path, sql);
  }

  protected guard<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      throw explainSqliteError(e, this.path);
    }
  }
}

export class Corpus extends ReadCorpus {
  /** Reads one trace file ('-' for stdin) in one transaction; see ingest.ts. */
  async ingest(file: string, opts?: IngestOptions): Promise<IngestResult> {
    this.assertWritable();
    return ingestFile(this.conn, file, opts);
  }

  async ingestStream(chunks: AsyncIterable<Buffer>, label: string, opts?: IngestOptions): Promise<IngestResult> {
    this.assertWritable();
    return ingestStream(this.conn, chunks, label, opts);
  }

  /** Stores trajectories in one transaction; per item its new id, or null when its sample key was stored before. */
  saveTrajectories(items: Iterable<NewTrajectory>): (number | null)[] {
    this.assertWritable();
    return this.guard(() => this.conn.transaction(() => insertTrajectories(this.conn, items))());
  }

  /** Refuses a write on a read-only connection before it starts (SQLite would refuse it too). */
  private assertWritable(): void {
    if (this.readonly) throw readOnlyError(this.path);
  }
}

/**
 * Opens a corpus file; see OpenOptions (create, readonly, busyTimeoutMs, nativeBinding).
 * Read-only opens give the read-only type.
 */
export function openCorpus(path: string, opts: OpenOptions & { readonly: true }): ReadCorpus;
export function openCorpus(path: string, opts?: OpenOptions & { readonly?: false }): Corpus;
export function openCorpus(path: string, opts?: OpenOptions): ReadCorpus;
export function openCorpus(path: string, opts: OpenOptions = {}): ReadCorpus {
  // One class at run time: a read-only corpus still answers a write with a clear refusal.
  return new Corpus(path, openDatabase(path, opts));
}
