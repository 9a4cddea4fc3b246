/**
 * Navigation of both trees of a scope, for the UI: top level, children, parent, pre-order.
 * All iterative and proportional to the answer's size. Ids as in tree.ts.
 */
import type { Scope } from './scope.js';

/** Seqs of the scope's top level (the entry segment's events). */
export function forwardRoots(scope: Scope): number[] {
  const out: number[] = [];
  for (let c = scope.lo; c <= scope.hi; c = scope.index.subtreeEnd[c] + 1) out.push(c);
  return out;
}

/** Children of a forward node: the events of the segments called from it, in time order. */
export function forwardChildren(scope: Scope, seq: number): number[] {
  const end = scope.index.subtreeEnd;
  const out: number[] = [];
  for (let c = seq + 1; c <= end[seq]; c = end[c] + 1) out.push(c);
  return out;
}

/** Forward parent within the scope, -1 at its top level. */
export function forwardParent(scope: Scope, seq: number): number {
  return scope.parentOf(seq);
}

/** Forward pre-order of the scope: the seqs lo..hi (time order). */
export function forwardPreorder(scope: Scope): { from: number; to: number } {
  return { from: scope.lo, to: scope.hi };
}

function inverseRange(scope: Scope, from: number, to: number): number[] {
  const { invOrder, invPos } = scope.index;
  const out: number[] = [];
  for (let pos = from; pos <= to;) {
    const id = invOrder[pos];
    out.push(id);
    pos = id & 1 ? invPos[id - 1] : pos + 1;
  }
  return out;
}

/** Inverse ids of the scope's top level: the entry segment reversed, doubled where it has children. */
export function inverseRoots(scope: Scope): number[] {
  return inverseRange(scope, scope.ilo, scope.ihi);
}

/** Children of an inverse node: only an inv_line_call (odd id) has any. */
export function inverseChildren(scope: Scope, id: number): number[] {
  if (!(id & 1)) return [];
  const { invPos } = scope.index;
  return inverseRange(scope, invPos[id] + 1, invPos[id - 1] - 1);
}

/** Inverse parent within the scope (an inv_line_call id), -1 at its top level. */
export function inverseParent(scope: Scope, id: number): number {
  return scope.invParentOf(id);
}

/** Inverse pre-order of the scope (a view, do not modify). */
export function inversePreorder(scope: Scope): Int32Array {
  return scope.index.invOrder.subarray(scope.ilo, scope.ihi + 1);
}

/** Depth of a node in its tree (0 at the top level of the scope). */
export function depthOf(scope: Scope, seq: number): number {
  let d = 0;
  for (let p = scope.parentOf(seq); p !== -1; p = scope.parentOf(p)) d++;
  return d;
}
