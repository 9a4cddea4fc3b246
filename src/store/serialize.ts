/**
 * The canonical text of trace records: compact JSON, keys in the order of
 * docs/trace-format.md. Export writes exactly this; ingest hashes exactly this (so a trace
 * exported and ingested again is recognised as already stored, whatever spacing or key
 * order the original file used).
 */
import { TRACE_FORMAT, TRACE_FORMAT_VERSION, type TraceEnd, type TraceEvent, type TraceHeader } from '../trace/types.js';

const str = JSON.stringify;

export function headerLine(h: TraceHeader, metaJson = str(h.meta)): string {
  const l = h.limits;
  return (
    `{"type":"trace","format":"${TRACE_FORMAT}","version":${TRACE_FORMAT_VERSION},"name":${str(h.name)},` +
    `"mode":${str(h.mode)},"python":${str(h.python)},"hashseed":${str(h.hashseed)},"filename":${str(h.filename)},` +
    `"source":${str(h.source)},"call":${str(h.call)},"context_forward":${str(h.context_forward)},` +
    `"context_inverse":${str(h.context_inverse)},"limits":{"events":${str(l.events)},"seconds":${str(l.seconds)},` +
    `"memory_mb":${str(l.memory_mb)},"repr_chars":${str(l.repr_chars)}},"meta":${metaJson}}`
  );
}

/** `localsJson` and `cutJson` let a caller that already serialized them skip the work. */
export function eventLine(
  e: TraceEvent,
  localsJson = str(e.locals),
  cutJson: string | null = e.cut === undefined ? null : str(e.cut),
): string {
  return (
    `{"type":"event","seq":${e.seq},"event":"${e.event}","frame":${e.frame},"func":${str(e.func)},` +
    `"line":${e.line},"src":${str(e.src)},"locals":${localsJson},"arg":${e.arg === null ? 'null' : str(e.arg)},` +
    `"parent":${e.parent === null ? 'null' : e.parent}${cutJson === null ? '' : `,"cut":${cutJson}`}}`
  );
}

/** With `withSeconds` false: the end record as hashed (wall time differs between runs). */
export function endLine(e: TraceEnd, withSeconds = true): string {
  return (
    `{"type":"end","exit":${str(e.exit)},"reason":${str(e.reason)},"events":${e.events}` +
    `${withSeconds ? `,"seconds":${str(e.seconds)}` : ''}` +
    `${e.stdout_bytes === undefined || e.stdout_bytes === null ? '' : `,"stdout_bytes":${e.stdout_bytes}`}}`
  );
}
