/**
 * The canonical text of trace records: the form the Python recorder writes, i.e.
 * `json.dumps` defaults (", " and ": " separators, every character outside printable ASCII
 * escaped as \uXXXX), keys in the order of docs/trace-format.md.
 *
 * Why this form: ingest hashes event lines in it (a recorder line is hashed as read, with
 * no re-encoding), stores `locals` in it, and export writes it, so a trace exported and
 * ingested again is recognised as already stored.
 */
import { pyJson } from '../semantics/json.js';
import {
  TRACE_FORMAT,
  TRACE_FORMAT_VERSION,
  type TraceEnd,
  type TraceEvent,
  type TraceHeader,
} from '../trace/types.js';

export function headerLine(h: TraceHeader): string {
  const l = h.limits;
  return pyJson({
    type: 'trace',
    format: TRACE_FORMAT,
    version: TRACE_FORMAT_VERSION,
    name: h.name,
    mode: h.mode,
    python: h.python,
    hashseed: h.hashseed,
    filename: h.filename,
    source: h.source,
    call: h.call,
    context_forward: h.context_forward,
    context_inverse: h.context_inverse,
    limits: { events: l.events, seconds: l.seconds, memory_mb: l.memory_mb, repr_chars: l.repr_chars },
    meta: h.meta,
  });
}

/** `localsText` and `cutText`: the canonical JSON of locals and cut when already at hand. */
export function eventLine(
  e: TraceEvent,
  localsText = pyJson(e.locals),
  cutText: string | null = e.cut === undefined ? null : pyJson(e.cut),
): string {
  return (
    `{"type": "event", "seq": ${e.seq}, "event": "${e.event}", "frame": ${e.frame}, "func": ${pyJson(e.func)}, ` +
    `"line": ${e.line}, "src": ${pyJson(e.src)}, "locals": ${localsText}, "arg": ${pyJson(e.arg)}, ` +
    `"parent": ${e.parent === null ? 'null' : e.parent}${cutText === null ? '' : `, "cut": ${cutText}`}}`
  );
}

/** With `withSeconds` false: the end record as hashed (wall time differs between runs). */
export function endLine(e: TraceEnd, withSeconds = true): string {
  const rec: Record<string, unknown> = { type: 'end', exit: e.exit, reason: e.reason, events: e.events };
  if (withSeconds) rec.seconds = e.seconds;
  if (e.stdout_bytes !== undefined && e.stdout_bytes !== null) rec.stdout_bytes = e.stdout_bytes;
  if (e.tampered !== undefined) rec.tampered = e.tampered;
  return pyJson(rec);
}
