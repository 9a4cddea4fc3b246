/**
 * Streams trace files (docs/trace-format.md) into a corpus.
 *
 * Contract:
 * - One transaction per file: any error (bad record, I/O, SQLite) rolls the whole file
 *   back, leaving the corpus exactly as it was; the IngestError names file and line.
 * - Idempotent: each trace's content hash (sha256 of its header, event lines and end record
 *   in canonical form, see serialize.ts, the end without the wall-clock `seconds`) is
 *   computed while streaming; a trace whose hash is already stored is skipped.
 * - Memory is bounded by one line plus `bufferEvents` rows, whatever the trace length.
 *   A trace that ends within the buffer is checked against stored hashes before any row
 *   is written; a longer one is written as it streams and removed again if it turns out
 *   to be a duplicate.
 */
import type Database from 'better-sqlite3';
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { TraceEnd, TraceHeader } from '../trace/types.js';
import { explainSqliteError, IngestError } from './errors.js';
import { storeSkeleton } from './queries/skeletons.js';
import { DEFAULT_MAX_LINE_BYTES, forEachLine } from './lines.js';
import { FAST_PREFIX, fastEvent, ROW_WIDTH, type EventRows } from './fast-event.js';
import { pyJson } from '../semantics/json.js';
import { endLine, eventLine, headerLine } from './serialize.js';
import { RecordChecker } from './validate.js';
import { nameKey } from './name-key.js';

export interface IngestOptions {
  /** Longest accepted line in bytes (default 32 MiB). */
  maxLineBytes?: number;
  /** Stored in traces.origin; default the file name as given. */
  origin?: string;
  /** Called after each chunk read with the bytes read so far. */
  onProgress?: (bytesRead: number) => void;
  /** Event rows held back per trace before writing starts (default 4096). */
  bufferEvents?: number;
  /**
   * Called at each trace's end record, in file order, with its id: the new row, or the stored
   * trace it duplicates (`inserted` false). Inside the file's transaction: a later error rolls
   * back what these ids name.
   */
  onTrace?: (id: number, inserted: boolean) => void;
}

export interface IngestResult {
  file: string;
  /** Traces read from the file. */
  traces: number;
  /** Traces stored by this call. */
  inserted: number;
  /** Traces already in the corpus (same content hash). */
  skipped: number;
  /** Event records read from the file. */
  events: number;
}

interface Open {
  header: TraceHeader;
  startLine: number;
  programId: number;
  traceId: number | null;
  count: number;
  hash: Hash;
  pending: string;
  /** Rows not yet written (flat, see EventRows). */
  rows: EventRows;
}

const INSERT_EVENTS =
  'INSERT INTO events (trace_id, seq, event, frame, func, line, src, locals, arg, parent, cut) VALUES';
const ROW = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
const ROWS_PER_INSERT = 16;
/** Rows gathered before a write once the trace row exists. */
const STREAM_BATCH = 256;

function statements(db: Database.Database) {
  return {
    program: db.prepare(
      'INSERT INTO programs (hash, filename, source, context_forward, context_inverse) VALUES (?, ?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING',
    ),
    programId: db.prepare('SELECT id FROM programs WHERE hash = ?').pluck(),
    trace: db.prepare(
      `INSERT INTO traces (program_id, name, name_key, mode, python, hashseed, call, limits, meta, exit, reason, events, seconds, stdout_bytes, hash, origin, created)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    finish: db.prepare(
      'UPDATE traces SET exit = ?, reason = ?, events = ?, seconds = ?, stdout_bytes = ?, hash = ? WHERE id = ?',
    ),
    known: db.prepare('SELECT id FROM traces WHERE hash = ?').pluck(),
    event: db.prepare(`${INSERT_EVENTS} ${ROW}`),
    // Several rows per statement: each run() has a fixed cost (N-API call, reset) that one
    // row would otherwise pay alone.
    events: db.prepare(`${INSERT_EVENTS} ${Array(ROWS_PER_INSERT).fill(ROW).join(', ')}`),
    // Prepared on first use: a corpus pinned at an older schema can still take untampered traces.
    tampered: (() => {
      let st: Database.Statement | undefined;
      return (text: string, id: number) =>
        (st ??= db.prepare('UPDATE traces SET tampered = ? WHERE id = ?')).run(text, id);
    })(),
    dropEvents: db.prepare('DELETE FROM events WHERE trace_id = ?'),
    dropTrace: db.prepare('DELETE FROM traces WHERE id = ?'),
  };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Reads `file` ('-' for standard input) into the corpus in one transaction. */
export async function ingestFile(db: Database.Database, file: string, opts: IngestOptions = {}): Promise<IngestResult> {
  const stream = file === '-' ? process.stdin : createReadStream(file, { highWaterMark: 1 << 20 });
  try {
    return await ingestStream(db, stream as AsyncIterable<Buffer>, file, opts);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new IngestError(file, 0, 'no such file');
    if (code === 'EISDIR') throw new IngestError(file, 0, 'is a folder, expected a trace file (.jsonl)');
    if (code === 'EACCES') throw new IngestError(file, 0, 'permission denied');
    throw e;
  } finally {
    if (file !== '-') (stream as ReturnType<typeof createReadStream>).destroy();
  }
}

export async function ingestStream(
  db: Database.Database,
  chunks: AsyncIterable<Buffer>,
  file: string,
  opts: IngestOptions = {},
): Promise<IngestResult> {
  const s = statements(db);
  const check: RecordChecker = new RecordChecker(file);
  const origin = opts.origin ?? file;
  const created = new Date().toISOString();
  const bufferEvents = opts.bufferEvents ?? 4096;
  const result: IngestResult = { file, traces: 0, inserted: 0, skipped: 0, events: 0 };
  let cur: Open | null = null;
  let lastLine = 0;
  let provisional = 0;

  const insertTrace = (t: Open, end?: TraceEnd, hash?: string) => {
    const h = t.header;
    const limits = h.limits;
    const info = s.trace.run(
      t.programId,
      h.name,
      nameKey(h.name),
      h.mode,
      h.python,
      h.hashseed,
      h.call,
      JSON.stringify({
        events: limits.events,
        seconds: limits.seconds,
        memory_mb: limits.memory_mb,
        repr_chars: limits.repr_chars,
      }),
      JSON.stringify(h.meta),
      end?.exit ?? 'never',
      end?.reason ?? null,
      end?.events ?? 0,
      end?.seconds ?? 0,
      end?.stdout_bytes ?? null,
      hash ?? `pending:${++provisional}`,
      origin,
      created,
    );
    t.traceId = Number(info.lastInsertRowid);
  };

  const flush = (t: Open) => {
    if (t.traceId === null) insertTrace(t);
    const id = t.traceId!;
    const rows = t.rows;
    for (let i = 0; i < rows.length; i += ROW_WIDTH) rows[i] = id;
    const batch = ROWS_PER_INSERT * ROW_WIDTH;
    let i = 0;
    for (; i + batch <= rows.length; i += batch) s.events.run(rows.slice(i, i + batch));
    for (; i < rows.length; i += ROW_WIDTH) s.event.run(rows.slice(i, i + ROW_WIDTH));
    t.rows = [];
  };

  /** After a row was appended to t.rows: hashes its canonical line, writes when due. */
  const added = (t: Open, canonical: string) => {
    t.pending += canonical + '\n';
    if (t.pending.length > 65536) {
      t.hash.update(t.pending);
      t.pending = '';
    }
    t.count++;
    if (t.rows.length >= (t.traceId === null ? bufferEvents : STREAM_BATCH) * ROW_WIDTH) flush(t);
  };

  const onLine = (text: string, line: number, terminated: boolean) => {
    lastLine = line;
    if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a byte-order mark some editors add
    // Fast path: a canonical event line (what the recorder writes); see fast-event.ts.
    if (cur !== null && text.startsWith(FAST_PREFIX)) {
      if (fastEvent(text, cur.count, cur.rows)) return added(cur, text);
    }
    const rec = check.parse(text, line, terminated);
    const type = rec.type;
    if (type === 'event') {
      if (!cur) check.fail(line, 'expected a "trace" header record, got an "event" record');
      const ev = check.event(rec, line, cur.count);
      const locals = pyJson(ev.locals);
      const cut = ev.cut === undefined ? null : pyJson(ev.cut);
      cur.rows.push(0, ev.seq, ev.event, ev.frame, ev.func, ev.line, ev.src, locals, ev.arg, ev.parent, cut);
      added(cur, eventLine(ev, locals, cut));
    } else if (type === 'trace') {
      if (cur) {
        check.fail(
          line,
          `expected an "event" or "end" record, got a "trace" header: the trace ${JSON.stringify(cur.header.name)} from line ${cur.startLine} has no "end" record`,
        );
      }
      const h = check.header(rec, line);
      const programHash = sha256(JSON.stringify([h.filename, h.source, h.context_forward, h.context_inverse]));
      s.program.run(programHash, h.filename, h.source, h.context_forward, h.context_inverse);
      const programId = s.programId.get(programHash) as number;
      const hash = createHash('sha256');
      cur = {
        header: h,
        startLine: line,
        programId,
        traceId: null,
        count: 0,
        hash,
        pending: headerLine(h) + '\n',
        rows: [],
      };
    } else if (type === 'end') {
      if (!cur) check.fail(line, 'expected a "trace" header record, got an "end" record');
      const end = check.end(rec, line, cur.count);
      cur.hash.update(cur.pending);
      cur.hash.update(endLine(end, false) + '\n');
      const hash = cur.hash.digest('hex');
      const knownId = s.known.get(hash) as number | undefined;
      if (knownId !== undefined) {
        opts.onTrace?.(knownId, false);
        if (cur.traceId !== null) {
          s.dropEvents.run(cur.traceId);
          s.dropTrace.run(cur.traceId);
        }
        result.skipped++;
      } else {
        if (cur.traceId === null) insertTrace(cur, end, hash);
        else s.finish.run(end.exit, end.reason, end.events, end.seconds, end.stdout_bytes ?? null, hash, cur.traceId);
        if (end.tampered !== undefined) s.tampered(end.tampered, cur.traceId!);
        flush(cur);
        storeSkeleton(db, cur.traceId!);
        opts.onTrace?.(cur.traceId!, true);
        result.inserted++;
      }
      result.traces++;
      result.events += cur.count;
      cur = null;
    } else {
      check.fail(line, `expected "type": "trace", "event" or "end", got ${JSON.stringify(type) ?? 'nothing'}`);
    }
  };

  let bytes = 0;
  const counted = opts.onProgress
    ? (async function* () {
        for await (const c of chunks) {
          bytes += c.length;
          opts.onProgress!(bytes);
          yield c;
        }
      })()
    : chunks;

  try {
    db.exec('BEGIN IMMEDIATE');
  } catch (e) {
    throw explainSqliteError(e, db.name);
  }
  try {
    await forEachLine(counted, file, onLine, opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
    if (lastLine === 0) check.fail(1, 'expected a "trace" header record, got an empty file');
    const open = cur as Open | null;
    if (open) {
      check.fail(
        lastLine,
        `expected an "end" record after this line: the trace ${JSON.stringify(open.header.name)} from line ${open.startLine} has no "end" (the file looks truncated)`,
      );
    }
    db.exec('COMMIT');
    return result;
  } catch (e) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw explainSqliteError(e, db.name);
  }
}
