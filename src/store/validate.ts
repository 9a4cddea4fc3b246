/**
 * A hand-written validator for the records of docs/trace-format.md. Each check throws an
 * IngestError naming the file, the 1-based line and what was expected, e.g.
 * `traces.jsonl:12: expected "seq": 5, got 7`. The event check runs once per recorded
 * state, so it avoids allocation: plain typeof tests and one pass over the keys.
 */
import {
  EVENT_KINDS as KINDS,
  TRACE_EXITS,
  TRACE_FORMAT,
  TRACE_FORMAT_VERSION,
  type TraceEnd,
  type TraceEvent,
  type TraceHeader,
} from '../trace/types.js';
import { IngestError } from './errors.js';
import { checkJsonShape, mayHoldSurrogates, wellFormed } from './json-guard.js';

type Rec = Record<string, unknown>;

const HEADER_FIELDS = new Set([
  'type',
  'format',
  'version',
  'name',
  'mode',
  'python',
  'hashseed',
  'filename',
  'source',
  'call',
  'context_forward',
  'context_inverse',
  'limits',
  'meta',
]);
const EVENT_FIELDS = new Set([
  'type',
  'seq',
  'event',
  'frame',
  'func',
  'line',
  'src',
  'locals',
  'arg',
  'parent',
  'cut',
]);
const END_FIELDS = new Set(['type', 'exit', 'reason', 'events', 'seconds', 'stdout_bytes', 'tampered']);
const LIMIT_FIELDS = ['events', 'seconds', 'memory_mb', 'repr_chars'] as const;
const EVENT_KINDS = new Set<string>(KINDS);
const EXITS = new Set<string>(TRACE_EXITS);

/** A short rendering of a bad value for messages. */
export function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  // JSON.parse reads 1e999 as Infinity, which JSON.stringify would show as null.
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

export class RecordChecker {
  constructor(readonly file: string) {}

  fail(line: number, detail: string): never {
    throw new IngestError(this.file, line, detail);
  }

  /** Parses one line into a record object and returns its "type". */
  parse(text: string, line: number, terminated: boolean): Rec {
    // Blanks only (spaces, a CRLF file's `\r`), however many: an empty line, not invalid JSON.
    if (text.trim() === '') this.fail(line, 'expected a JSON record, got an empty line');
    const shape = checkJsonShape(text);
    if (shape !== null) this.fail(line, shape);
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch (e) {
      if (!terminated)
        this.fail(
          line,
          'the last line is cut off (no newline at the end and not complete JSON): the file looks truncated',
        );
      this.fail(line, `expected a JSON object, got invalid JSON (${(e as Error).message})`);
    }
    if (mayHoldSurrogates(text)) v = wellFormed(v);
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      this.fail(line, `expected a JSON object, got ${show(v)}`);
    return v as Rec;
  }

  private unexpected(rec: Rec, allowed: Set<string>, what: string, line: number) {
    for (const k in rec) if (!allowed.has(k)) this.fail(line, `unexpected field ${show(k)} in ${what}`);
  }

  private field(
    rec: Rec,
    key: string,
    want: 'string' | 'int' | 'number' | 'object' | 'string|null',
    what: string,
    line: number,
  ): unknown {
    const v = rec[key];
    let ok: boolean;
    switch (want) {
      case 'string':
        ok = typeof v === 'string';
        break;
      case 'int':
        ok = Number.isSafeInteger(v);
        break;
      case 'number':
        ok = typeof v === 'number' && Number.isFinite(v);
        break;
      case 'object':
        ok = typeof v === 'object' && v !== null && !Array.isArray(v);
        break;
      case 'string|null':
        ok = v === null || typeof v === 'string';
        break;
    }
    if (!ok) {
      const kind = {
        string: 'a string',
        int: 'an integer',
        number: 'a number',
        object: 'an object',
        'string|null': 'a string or null',
      }[want];
      if (v === undefined) this.fail(line, `expected a ${show(key)} field (${kind}) in ${what}`);
      this.fail(line, `expected ${show(key)} to be ${kind}, got ${show(v)}`);
    }
    return v;
  }

  header(rec: Rec, line: number): TraceHeader {
    const what = 'the trace header';
    if (rec.format !== TRACE_FORMAT) this.fail(line, `expected "format": "${TRACE_FORMAT}", got ${show(rec.format)}`);
    if (rec.version !== TRACE_FORMAT_VERSION) {
      this.fail(
        line,
        `unknown version ${show(rec.version)}: expected "version": ${TRACE_FORMAT_VERSION} (this Stepscope reads trace format version ${TRACE_FORMAT_VERSION})`,
      );
    }
    this.unexpected(rec, HEADER_FIELDS, what, line);
    for (const k of ['name', 'python', 'filename', 'source', 'context_forward', 'context_inverse'])
      this.field(rec, k, 'string', what, line);
    if (rec.mode !== 'script' && rec.mode !== 'call')
      this.fail(line, `expected "mode": "script" or "call", got ${show(rec.mode)}`);
    this.field(rec, 'hashseed', 'int', what, line);
    this.field(rec, 'call', 'string|null', what, line);
    const limits = this.field(rec, 'limits', 'object', what, line) as Rec;
    for (const k of LIMIT_FIELDS) this.field(limits, k, 'number', '"limits"', line);
    this.unexpected(limits, new Set(LIMIT_FIELDS), '"limits"', line);
    this.field(rec, 'meta', 'object', what, line);
    return rec as unknown as TraceHeader;
  }

  event(rec: Rec, line: number, seq: number): TraceEvent {
    if (rec.seq !== seq) this.fail(line, `expected "seq": ${seq}, got ${show(rec.seq)}`);
    if (typeof rec.event !== 'string' || !EVENT_KINDS.has(rec.event)) {
      this.fail(line, `expected "event": "call", "line", "return" or "exception", got ${show(rec.event)}`);
    }
    const what = 'an event record';
    const frame = rec.frame;
    if (!Number.isSafeInteger(frame)) this.field(rec, 'frame', 'int', what, line);
    if ((frame as number) < 0) this.fail(line, `expected "frame" to be 0 or more, got ${show(frame)}`);
    if (typeof rec.func !== 'string') this.field(rec, 'func', 'string', what, line);
    if (!Number.isSafeInteger(rec.line)) this.field(rec, 'line', 'int', what, line);
    if (typeof rec.src !== 'string') this.field(rec, 'src', 'string', what, line);
    const locals = rec.locals;
    if (typeof locals !== 'object' || locals === null || Array.isArray(locals))
      this.field(rec, 'locals', 'object', what, line);
    for (const k in locals as Rec) {
      const v = (locals as Rec)[k];
      if (typeof v !== 'string')
        this.fail(line, `expected "locals" to map names to repr strings, got ${show(k)}: ${show(v)}`);
    }
    const arg = rec.arg;
    if (arg !== null && typeof arg !== 'string') this.field(rec, 'arg', 'string|null', what, line);
    const parent = rec.parent;
    if (parent !== null && !(Number.isSafeInteger(parent) && (parent as number) >= 0 && (parent as number) < seq)) {
      this.fail(
        line,
        `expected "parent" to be null or the seq of an earlier event (0 to ${seq - 1}), got ${show(parent)}`,
      );
    }
    const cut = rec.cut;
    if (cut !== undefined && !(Array.isArray(cut) && cut.every((c) => typeof c === 'string'))) {
      this.fail(line, `expected "cut" to be a list of names, got ${show(cut)}`);
    }
    if (cut !== undefined && (cut as string[]).length === 0) delete rec.cut; // nothing cut: same as no list
    this.unexpected(rec, EVENT_FIELDS, what, line);
    return rec as unknown as TraceEvent;
  }

  end(rec: Rec, line: number, count: number): TraceEnd {
    const what = 'the end record';
    this.unexpected(rec, END_FIELDS, what, line);
    if (typeof rec.exit !== 'string' || !EXITS.has(rec.exit))
      this.fail(line, `expected "exit": "normal", "error" or "never", got ${show(rec.exit)}`);
    this.field(rec, 'reason', 'string|null', what, line);
    this.field(rec, 'events', 'int', what, line);
    if (rec.events !== count)
      this.fail(
        line,
        `expected "events": ${count} (the number of event records in this trace), got ${show(rec.events)}`,
      );
    this.field(rec, 'seconds', 'number', what, line);
    if (rec.stdout_bytes !== undefined) this.field(rec, 'stdout_bytes', 'int', what, line);
    if (rec.tampered !== undefined) this.field(rec, 'tampered', 'string', what, line);
    return rec as unknown as TraceEnd;
  }
}
