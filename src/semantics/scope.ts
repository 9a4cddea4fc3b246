/**
 * An entry scope and the debugger actions on it (docs/semantics.md §5).
 *
 * Entry: `0` means the root, i.e. the top level of the whole trace (seq 0's segment, plus
 * any segment with no traced ancestor, which the recorder also puts at the top level).
 * Any other entry must be the seq of a `call` event: the scope is that segment's events at
 * top level with everything under them, which is the contiguous seq range [lo, hi].
 *
 * Forward nodes are seqs, inverse nodes are inverse ids (tree.ts). Decisions where the paper
 * leaves room (docs/semantics.md, "Stepscope's own rules"):
 * - Leaving the scope forward gives the entry's exit: `exit_normal` when its last top-level
 *   node is a `return` with a value, `exit_error` when that return has a null arg, and
 *   `exit_never` when the entry has no return (the trace was cut inside it).
 * - `step_return` whose target segment has no `return` (cut by a limit) gives `exit_never`:
 *   the program never got there.
 * - `breakpoint` whose src is not the src of a later `line` in the scope, and `continue`,
 *   give the entry's exit (the program runs on to the end of the entry).
 * - An inverse trajectory over an entry cut by a limit starts at the first node of its
 *   inverse tree (the inverse of its last recorded event), since there is no inv_return.
 */
import { CALL, LINE, RETURN, TraceShapeError, type TreeIndex } from './tree.js';
import { UserError } from '../common/errors.js';
import { EVENT_KINDS, type TraceEvent } from '../trace/types.js';
import { directionAction, type Action, type Direction, type ExitKind, type Target } from './types.js';

export class Scope {
  /** First and last seq of the scope (forward pre-order range). */
  readonly lo: number;
  readonly hi: number;
  /** First and last position of the scope in the inverse pre-order. */
  readonly ilo: number;
  readonly ihi: number;
  private lineSrcs?: string[];

  constructor(
    readonly index: TreeIndex,
    readonly entry: number,
  ) {
    const n = index.count;
    if (n === 0) throw new TraceShapeError('the trace has no events', 0);
    if (!Number.isInteger(entry) || entry < 0 || entry >= n) {
      throw new TraceShapeError(`entry ${entry}: expected the seq of a call event (0 to ${n - 1})`, entry);
    }
    if (entry === 0) {
      this.lo = 0;
      this.hi = n - 1;
    } else {
      if (index.kind[entry] !== CALL) {
        throw new TraceShapeError(
          `entry ${entry}: expected the seq of a call event, got a ${EVENT_KINDS[index.kind[entry]]} event`,
          entry,
        );
      }
      this.lo = entry;
      this.hi = index.subtreeEnd[index.segLast[index.seg[entry]]];
    }
    this.ihi = index.invPos[2 * this.lo];
    const size = this.hi - this.lo + 1 + index.lcBefore[this.hi + 1] - index.lcBefore[this.lo];
    this.ilo = this.ihi - size + 1;
  }

  /** Forward parent within the scope, -1 at the scope's top level. */
  parentOf(seq: number): number {
    const p = this.index.parent[seq];
    return p >= this.lo ? p : -1;
  }

  /** The exit for leaving the scope forward. */
  get forwardExit(): ExitKind {
    let top = this.hi;
    while (this.parentOf(top) !== -1) top = this.parentOf(top);
    if (this.index.kind[top] !== RETURN) return 'exit_never';
    const ev = this.index.events?.[top];
    return ev && ev.arg === null ? 'exit_error' : 'exit_normal';
  }

  /** Where a trajectory in this direction starts: the entry's call, or the first inverse node. */
  start(direction: Direction): number {
    return direction === 'forward' ? this.lo : this.index.invOrder[this.ilo];
  }

  // ---- forward -------------------------------------------------------------------------

  private fwd(seq: number): Target {
    return seq <= this.hi ? { node: seq } : { exit: this.forwardExit };
  }

  stepInto(seq: number): Target {
    return this.fwd(seq + 1);
  }

  stepOver(seq: number): Target {
    // In a pre-order where every subtree is contiguous, the next sibling of the node or of
    // its nearest ancestor that has one is simply the node after its subtree.
    return this.fwd(this.index.subtreeEnd[seq] + 1);
  }

  stepReturn(seq: number): Target {
    const { seg, segLast, segReturned } = this.index;
    let cur = seq;
    for (;;) {
      const s = seg[cur];
      if (segLast[s] !== cur) return segReturned[s] ? { node: segLast[s] } : { exit: 'exit_never' };
      cur = this.parentOf(cur);
      if (cur === -1) return { exit: this.forwardExit };
    }
  }

  breakpoint(seq: number, src: string): Target {
    const next = nextLineWithSrc(this.index, seq, src);
    return next !== -1 && next <= this.hi ? { node: next } : { exit: this.forwardExit };
  }

  /** The distinct src of `line` events in the scope, in order of first appearance. */
  lineSources(): string[] {
    if (!this.lineSrcs) {
      const events = requireEvents(this.index);
      const seen = new Set<string>();
      for (let i = this.lo; i <= this.hi; i++) if (this.index.kind[i] === LINE) seen.add(events[i].src);
      this.lineSrcs = [...seen];
    }
    return this.lineSrcs;
  }

  // ---- inverse -------------------------------------------------------------------------

  private inv(pos: number): Target {
    return pos <= this.ihi ? { node: this.index.invOrder[pos] } : { exit: 'inv_exit_entry' };
  }

  invStepInto(id: number): Target {
    return this.inv(this.index.invPos[id] + 1);
  }

  invStepOver(id: number): Target {
    // An inv_line_call's subtree ends just before its plain copy; a plain copy is a leaf.
    return this.inv(id & 1 ? this.index.invPos[id - 1] : this.index.invPos[id] + 1);
  }

  invStepCall(id: number): Target {
    const { seg, segFirst } = this.index;
    let cur = id;
    for (;;) {
      const target = 2 * segFirst[seg[cur >> 1]];
      if (target !== cur) return { node: target };
      const p = this.parentOf(cur >> 1);
      if (p === -1) return { exit: 'inv_exit_entry' };
      cur = 2 * p + 1;
    }
  }

  /** Inverse parent within the scope (an inv_line_call id), -1 at the top level. */
  invParentOf(id: number): number {
    const p = this.parentOf(id >> 1);
    return p === -1 ? -1 : 2 * p + 1;
  }

  // ---- both ----------------------------------------------------------------------------

  /** Applies one action to a node of the tree of `direction`. */
  apply(direction: Direction, node: number, a: Action): Target {
    if (direction === 'forward') {
      switch (a.action) {
        case 'step_into':
          return this.stepInto(node);
        case 'step_over':
          return this.stepOver(node);
        case 'step_return':
          return this.stepReturn(node);
        case 'breakpoint':
          return this.breakpoint(node, a.src);
        case 'continue':
          return { exit: this.forwardExit };
      }
    } else {
      switch (a.action) {
        case 'inv_step_into':
          return this.invStepInto(node);
        case 'inv_step_over':
          return this.invStepOver(node);
        case 'inv_step_call':
          return this.invStepCall(node);
      }
    }
    throw new UserError(`${a.action} is not ${directionAction(direction)}`, 'bad-input');
  }
}

export function requireEvents(index: TreeIndex): readonly TraceEvent[] {
  if (!index.events) throw new Error('this operation needs the events: build the index with buildTraceIndex(events)');
  return index.events;
}

/**
 * Seqs of `line` events grouped by src, built once per index on first use (a WeakMap keeps
 * the index object itself frozen-shaped and shareable).
 */
const srcPositions = new WeakMap<TreeIndex, Map<string, Int32Array>>();

function nextLineWithSrc(index: TreeIndex, after: number, src: string): number {
  let bySrc = srcPositions.get(index);
  if (!bySrc) {
    const events = requireEvents(index);
    const lists = new Map<string, number[]>();
    for (let i = 0; i < index.count; i++) {
      if (index.kind[i] !== LINE) continue;
      const s = events[i].src;
      let l = lists.get(s);
      if (!l) lists.set(s, (l = []));
      l.push(i);
    }
    bySrc = new Map();
    for (const [s, l] of lists) bySrc.set(s, Int32Array.from(l));
    srcPositions.set(index, bySrc);
  }
  const seqs = bySrc.get(src);
  if (!seqs) return -1;
  let a = 0;
  let b = seqs.length;
  while (a < b) {
    const m = (a + b) >> 1;
    if (seqs[m] <= after) a = m + 1;
    else b = m;
  }
  return a < seqs.length ? seqs[a] : -1;
}
