/**
 * What a trace held in memory costs, in bytes, so the trace cache can keep to a budget: at
 * its opening, its shape, index and packed skeleton (openedBytes); then its events as V8
 * holds them, window by window as they are read (eventBytes). The constants were
 * measured on V8 (Node 20) by loading traces of four shapes (short locals, twenty locals,
 * one 1,000-character repr, non-Latin-1 text) and comparing with the heap's growth after
 * a full GC: the estimate is within 15% for long and ordinary values, and high for
 * many tiny values (V8 shares short strings), never far below. `npm run bench` (bench/server.mjs)
 * prints estimate / measured for its 1,000,000-event trace.
 */
import type { TreeIndex } from '../../semantics/index.js';
import type { TraceShape } from '../../store/corpus.js';
import type { TraceEvent } from '../../trace/types.js';

/** An event object and its locals object, without their strings. */
const EVENT_OBJECTS = 120;
/** A property slot of the locals object. */
const SLOT = 8;
/** A string's header. */
const STRING_HEADER = 16;

// eslint-disable-next-line no-control-regex -- the range starts at U+0000 on purpose
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

/**
 * A lazily opened trace before any window is read: its shape and index (their typed arrays
 * counted once where the index shares the shape's), the packed skeleton, and the array that
 * will hold the events (one slot each).
 */
export function openedBytes(t: { shape: TraceShape; index: TreeIndex; events: unknown[] }, skeleton: unknown): number {
  const arrays = new Set<ArrayBufferView>();
  for (const v of [...Object.values(t.shape), ...Object.values(t.index)]) if (ArrayBuffer.isView(v)) arrays.add(v);
  let b = valueBytes(t.shape.funcs) + valueBytes(skeleton) + 16 + 8 * t.events.length;
  for (const a of arrays) b += a.byteLength + 64;
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
