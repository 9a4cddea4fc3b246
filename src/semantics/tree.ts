/**
 * The whole-trace index behind both state trees (docs/semantics.md §3, §4), built once per
 * trace in time and memory linear in the events, with flat typed arrays and no recursion,
 * so a 1,000,000-event trace is fine.
 *
 * Node ids (stable, what the UI keys on):
 * - forward node id = the event's seq;
 * - inverse node id = 2*seq for the plain inverse copy (inv_call, inv_line, …) and
 *   2*seq + 1 for the `inv_line_call` copy of an event that has children.
 *
 * Every entry scope (see scope.ts) is a contiguous range of this forward pre-order (= time
 * order) and a contiguous range of the inverse pre-order, so one index serves every entry.
 */
import { UserError } from '../common/errors.js';
import { EVENT_KINDS, type TraceEvent } from '../trace/types.js';

/** Kind numbers: indices into EVENT_KINDS. */
export const CALL = 0;
export const LINE = 1;
export const RETURN = 2;
export const EXCEPTION = 3;
const KIND_CODE = new Map<string, number>(EVENT_KINDS.map((k, i) => [k, i]));

/** The columns the trees need: what the store's skeleton holds (parent -1 = top level). */
export interface TreeColumns {
  count: number;
  kind: ArrayLike<number>;
  parent: ArrayLike<number>;
  frame: ArrayLike<number>;
}

/**
 * A trace whose shape cannot be a state tree, or an entry that is not a call; names the event and what was expected.
 */
export class TraceShapeError extends UserError {
  constructor(
    message: string,
    readonly seq: number,
  ) {
    super(message, 'bad-input');
  }
}

export interface TreeIndex {
  readonly count: number;
  readonly kind: Uint8Array;
  readonly frame: Int32Array;
  /** Forward parent seq, -1 at the top level of the whole trace. */
  readonly parent: Int32Array;
  /** Seq of the last node of each node's subtree (itself when it has no children). */
  readonly subtreeEnd: Int32Array;
  /** Segment (activation) number of each event. */
  readonly seg: Int32Array;
  /** Per segment: its first event (its call), its last recorded event, whether that is a return. */
  readonly segFirst: Int32Array;
  readonly segLast: Int32Array;
  readonly segReturned: Uint8Array;
  /** Inverse node ids in inverse pre-order of the whole trace. */
  readonly invOrder: Int32Array;
  /** Position in invOrder of each inverse node id; -1 for an inv_line_call that does not exist. */
  readonly invPos: Int32Array;
  /** lcBefore[s] = how many events before seq s have children (have an inv_line_call copy). */
  readonly lcBefore: Int32Array;
  /** The events, when the index was built from them (needed for values, src and exits). */
  readonly events?: readonly TraceEvent[];
}

/** Builds the index from TraceEvent records (seq must be 0, 1, 2 … in order). */
export function buildTraceIndex(events: readonly TraceEvent[]): TreeIndex {
  const n = events.length;
  const kind = new Uint8Array(n);
  const parent = new Int32Array(n);
  const frame = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const e = events[i];
    if (e.seq !== i) throw new TraceShapeError(`event ${i}: expected seq ${i}, got ${String(e.seq)}`, i);
    const k = KIND_CODE.get(e.event);
    if (k === undefined)
      throw new TraceShapeError(
        `event ${i}: expected event call, line, return or exception, got ${JSON.stringify(e.event)}`,
        i,
      );
    kind[i] = k;
    parent[i] = e.parent === null ? -1 : e.parent;
    frame[i] = e.frame;
  }
  return { ...buildTreeIndex({ count: n, kind, parent, frame }), events };
}

/** The index's parts that give both trees' shapes: what drawing needs (no segments). */
export type TreeOrder = Pick<
  TreeIndex,
  'count' | 'kind' | 'frame' | 'parent' | 'subtreeEnd' | 'invOrder' | 'invPos' | 'lcBefore'
>;

/** Builds the index from columns alone (e.g. the store's skeleton in the renderer). */
export function buildTreeIndex(cols: TreeColumns): TreeIndex {
  const order = buildTreeOrder(cols);
  return { ...order, ...segments(order.count, order.kind, order.frame) };
}

/** Both trees' orders from the columns (the renderer draws from this alone). */
export function buildTreeOrder(cols: TreeColumns): TreeOrder {
  const n = cols.count;
  const kind = cols.kind instanceof Uint8Array ? cols.kind : Uint8Array.from(cols.kind);
  const parent = cols.parent instanceof Int32Array ? cols.parent : Int32Array.from(cols.parent);
  const frame = cols.frame instanceof Int32Array ? cols.frame : Int32Array.from(cols.frame);
  const subtreeEnd = new Int32Array(n);
  // The open ancestors; grown as the trace gets deeper (most are far shallower than long).
  let stack = new Int32Array(Math.min(n, 1024));
  // The forward pre-order with a closing marker (the inv_line_call id) after the subtree of
  // every node that has children; reversed, it is the inverse pre-order (§4: levels reversed,
  // inv_line_call before the inverse children, plain copy after them). Written straight into
  // invOrder from its end, sized by the nodes that are some event's parent (no second copy).
  const isParent = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (parent[i] >= 0 && parent[i] < i) isParent[parent[i]] = 1;
  let size = n;
  for (let i = 0; i < n; i++) size += isParent[i];
  const invOrder = new Int32Array(size);
  let nm = 0;
  const mark = (id: number) => {
    // Only a trace that fails below (a parent whose subtree has ended) can have more markers.
    if (nm < size) invOrder[size - 1 - nm] = id;
    nm++;
  };
  let sp = 0;
  const close = (at: number) => {
    const x = stack[--sp];
    subtreeEnd[x] = at;
    if (at > x) mark(2 * x + 1);
  };
  for (let i = 0; i < n; i++) {
    const p = parent[i];
    if (p === -1) {
      while (sp > 0) close(i - 1);
    } else {
      if (!(p >= 0 && p < i))
        throw new TraceShapeError(`event ${i}: expected parent null or an earlier seq, got ${p}`, i);
      while (sp > 0 && stack[sp - 1] !== p) close(i - 1);
      if (sp === 0) {
        throw new TraceShapeError(
          `event ${i}: its parent ${p} has already ended (expected the parent to be an event whose subtree is still open, so that pre-order equals time order)`,
          i,
        );
      }
    }
    if (sp === stack.length) {
      const deeper = new Int32Array(Math.min(n, 2 * sp));
      deeper.set(stack);
      stack = deeper;
    }
    stack[sp++] = i;
    mark(2 * i);
  }
  while (sp > 0) close(n - 1);
  if (nm !== size) throw new Error(`tree index: ${nm} inverse nodes, expected ${size}`);

  const invPos = new Int32Array(2 * n).fill(-1);
  for (let k = 0; k < size; k++) invPos[invOrder[k]] = k;
  const lcBefore = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) lcBefore[i + 1] = lcBefore[i] + (subtreeEnd[i] > i ? 1 : 0);
  return { count: n, kind, frame, parent, subtreeEnd, invOrder, invPos, lcBefore };
}

function segments(
  n: number,
  kind: Uint8Array,
  frame: Int32Array,
): Pick<TreeIndex, 'seg' | 'segFirst' | 'segLast' | 'segReturned'> {
  // Segments: a call opens one for its frame, a return closes it. An event of a frame with
  // no open segment (only in a malformed trace) opens one, so every event has a segment.
  // Numbered in order of first event; a second pass fills the per-segment columns at their
  // size (a trace has far fewer segments than events).
  const seg = new Int32Array(n);
  const open = new Map<number, number>();
  let ns = 0;
  for (let i = 0; i < n; i++) {
    const f = frame[i];
    let s = kind[i] === CALL ? undefined : open.get(f);
    if (s === undefined) {
      s = ns++;
      open.set(f, s);
    }
    seg[i] = s;
    if (kind[i] === RETURN) open.delete(f);
  }
  const segFirst = new Int32Array(ns);
  const segLast = new Int32Array(ns);
  const segReturned = new Uint8Array(ns);
  let seen = 0;
  for (let i = 0; i < n; i++) {
    const s = seg[i];
    if (s === seen) segFirst[seen++] = i;
    segLast[s] = i;
    if (kind[i] === RETURN) segReturned[s] = 1;
  }
  return { seg, segFirst, segLast, segReturned };
}
