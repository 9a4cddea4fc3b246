/**
 * The corpus: the one typed interface to a Stepscope SQLite file, used by the CLI, the
 * HTTP server and the app. Schema: docs/schema.md. Errors a person can act on are
 * CorpusError (opening, locking, permissions) or IngestError (bad input, with file:line).
 *
 * One Corpus holds one better-sqlite3 connection; calls are synchronous except ingest and
 * export, which stream. Do not run queries on the same Corpus while its ingest is in
 * progress (they would see the uncommitted file); open a second Corpus instead.
 */
import type Database from 'better-sqlite3';
import type { Writable } from 'node:stream';
import type { TraceEvent } from '../trace/types.js';
import { explainSqliteError } from './errors.js';
import { exportTraces } from './export.js';
import { ingestFile, ingestStream, type IngestOptions, type IngestResult } from './ingest.js';
import { openDatabase, type OpenOptions } from './open.js';
import { getEvents, iterateEvents } from './queries/events.js';
import { getTrace, listTraces, type TraceQuery, type TraceRecord, type TraceRow } from './queries/traces.js';

export type { TraceQuery, TraceRecord, TraceRow } from './queries/traces.js';
export type { IngestOptions, IngestResult } from './ingest.js';
export type { OpenOptions } from './open.js';
export { CorpusError, IngestError } from './errors.js';

export interface CorpusCounts {
  programs: number;
  traces: number;
  events: number;
}

export class Corpus {
  private closed = false;

  constructor(readonly path: string, private readonly conn: Database.Database) {}

  /**
   * The raw connection, for modules inside src/store (e.g. later tables such as
   * trajectories) that add their own queries. Code outside src/store uses the methods.
   */
  get db(): Database.Database {
    return this.conn;
  }

  get readonly(): boolean {
    return this.conn.readonly;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.conn.close();
  }

  listTraces(q: TraceQuery = {}): { total: number; rows: TraceRow[] } {
    return this.guard(() => listTraces(this.conn, q));
  }

  getTrace(id: number): TraceRecord | undefined {
    return this.guard(() => getTrace(this.conn, id));
  }

  /** Events with fromSeq <= seq < toSeq, in seq order (one primary-key range scan). */
  getEvents(traceId: number, fromSeq = 0, toSeq = Infinity): TraceEvent[] {
    return this.guard(() => getEvents(this.conn, traceId, fromSeq, toSeq));
  }

  /** Like getEvents, one event at a time; see queries/events.ts for the iterator rule. */
  iterateEvents(traceId: number, fromSeq = 0, toSeq = Infinity): Generator<TraceEvent> {
    return iterateEvents(this.conn, traceId, fromSeq, toSeq);
  }

  counts(): CorpusCounts {
    return this.guard(() => {
      const one = (sql: string) => this.conn.prepare(sql).pluck().get() as number;
      return {
        programs: one('SELECT count(*) FROM programs'),
        traces: one('SELECT count(*) FROM traces'),
        events: one('SELECT count(*) FROM events'),
      };
    });
  }

  /** Reads one trace file ('-' for stdin) in one transaction; see ingest.ts. */
  ingest(file: string, opts?: IngestOptions): Promise<IngestResult> {
    return ingestFile(this.conn, file, opts);
  }

  ingestStream(chunks: AsyncIterable<Buffer>, label: string, opts?: IngestOptions): Promise<IngestResult> {
    return ingestStream(this.conn, chunks, label, opts);
  }

  /** Writes the given traces to `out` in the trace file format. */
  export(ids: Iterable<number>, out: Writable): Promise<{ traces: number; events: number }> {
    return exportTraces(this.conn, ids, out);
  }

  private guard<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      throw explainSqliteError(e, this.path);
    }
  }
}

/** Opens a corpus file; see OpenOptions (create, readonly, busyTimeoutMs, nativeBinding). */
export function openCorpus(path: string, opts: OpenOptions = {}): Corpus {
  return new Corpus(path, openDatabase(path, opts));
}
