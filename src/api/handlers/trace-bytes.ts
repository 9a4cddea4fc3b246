/**
 * What a trace held in memory costs, in bytes, so the trace cache can keep to a budget: its
 * events as V8 holds them, its index's typed arrays and its skeleton. The constants were
 * measured on V8 (Node 20) by loading traces of four shapes (short locals, twenty locals,
 * one 1,000-character repr, non-Latin-1 text) and comparing with the heap's growth after
 * a full GC: the estimate is within 15% for long and ordinary values, and high for
 * many tiny values (V8 shares short strings), never far below. `npm run bench` (bench/server.mjs)
 * prints estimate / measured for its 1,000,000-event trace.
 */
import type { TreeIndex } from '../../semantics/index.js';
import type { TraceEvent } from '../../trace/types.js';

/** An event object and its locals object, without their strings. */
const EVENT_OBJECTS = 120;
/** A property slot of the locals object. */
const SLOT = 8;
/** A string's header. */
const STRING_HEADER = 16;
/** Index and skeleton per event, counted while the events are read, before they exist (measured: 33 + 40). */
export const SHAPE_PER_EVENT = 80;

const WIDE = /[^\u0000-\u00ff]/;

function stringBytes(s: string): number {
  const bytes = WIDE.test(s) ? 2 * s.length : s.length;
  return STRING_HEADER + ((bytes + 7) & ~7);
}

/** One event as loaded: its objects and every string it holds. */
export function eventBytes(e: TraceEvent): number {
  let b = EVENT_OBJECTS + stringBytes(e.event) + stringBytes(e.func) + stringBytes(e.src);
  if (e.arg !== null) b += stringBytes(e.arg);
  for (const k in e.locals) b += SLOT + stringBytes(e.locals[k]);
  if (e.cut) for (const c of e.cut) b += SLOT + stringBytes(c);
  return b;
}

/** The index's typed arrays (the events it points to are counted by eventsBytes). */
export function indexBytes(index: TreeIndex): number {
  let b = 0;
  for (const v of Object.values(index)) if (ArrayBuffer.isView(v)) b += v.byteLength;
  return b;
}

/**
 * Any value made of arrays, typed arrays, strings, numbers and plain objects (the skeleton,
 * whatever its encoding): numbers in an array as 8 bytes each, as V8 stores them.
 */
export function valueBytes(v: unknown): number {
  if (typeof v === 'string') return stringBytes(v);
  if (typeof v !== 'object' || v === null) return 8;
  if (ArrayBuffer.isView(v)) return v.byteLength + 64;
  if (v instanceof ArrayBuffer) return v.byteLength + 32;
  if (Array.isArray(v)) {
    let b = 16 + 8 * v.length;
    for (const x of v) if (typeof x === 'object' || typeof x === 'string') b += valueBytes(x);
    return b;
  }
  let b = 24;
  for (const x of Object.values(v)) b += SLOT + (typeof x === 'object' || typeof x === 'string' ? valueBytes(x) : 0);
  return b;
}
