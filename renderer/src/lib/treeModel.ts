/**
 * Flat, array-based forward and inverse state trees for drawing (100k nodes must build in
 * a few tens of ms). Node i of a tree is its i-th node in pre-order; `seq` is the event behind
 * it and `kind` what it shows (0 call, 1 line, 2 return, 3 exception, 4 inv_line_call; the
 * inverse tree shows kinds 0-3 with the `inv_` prefix). The shapes follow the spec:
 * forward §3 (children of an event = events whose parent is it, in time order) and
 * inverse §4 (each level reversed; a node with children doubled into an inv_line_call
 * holding the inverse of its children, then its plain copy). Which node an action leads to
 * is NOT decided here: that is the semantics module's job, reached through the `walk` API.
 */
import type { Skeleton } from '../../../src/api/contract.js';

export const KIND_NAMES = ['call', 'line', 'return', 'exception', 'line_call'] as const;

export interface Tree {
  inverse: boolean;
  size: number;
  seq: Int32Array;
  kind: Uint8Array;
  depth: Int32Array;
  parent: Int32Array;
  /** One past the last descendant, in pre-order: the subtree of i is [i, end[i]). */
  end: Int32Array;
  /** Node index of the plain copy of each seq, and (inverse only) of its inv_line_call or -1. */
  plainOf: Int32Array;
  lineCallOf: Int32Array;
}

export function eventName(tree: Tree, i: number): string {
  const k = KIND_NAMES[tree.kind[i]];
  return tree.inverse ? `inv_${k}` : k;
}

function childrenOf(sk: Skeleton): { top: number[]; kids: (number[] | undefined)[] } {
  const kids: (number[] | undefined)[] = new Array(sk.count);
  const top: number[] = [];
  for (let s = 0; s < sk.count; s++) {
    const p = sk.parent[s];
    if (p < 0) top.push(s);
    else (kids[p] ??= []).push(s);
  }
  return { top, kids };
}

function alloc(n: number, inverse: boolean, events: number): Tree {
  return {
    inverse,
    size: n,
    seq: new Int32Array(n),
    kind: new Uint8Array(n),
    depth: new Int32Array(n),
    parent: new Int32Array(n),
    end: new Int32Array(n),
    plainOf: new Int32Array(events).fill(-1),
    lineCallOf: new Int32Array(events).fill(-1),
  };
}

export function forwardTree(sk: Skeleton): Tree {
  const { top, kids } = childrenOf(sk);
  const t = alloc(sk.count, false, sk.count);
  let i = 0;
  // Explicit stack: call depth can reach Python's recursion limit.
  const stack: { list: number[]; at: number; node: number; depth: number }[] = [{ list: top, at: 0, node: -1, depth: 0 }];
  while (stack.length) {
    const f = stack[stack.length - 1];
    if (f.at >= f.list.length) {
      stack.pop();
      if (f.node >= 0) t.end[f.node] = i;
      continue;
    }
    const s = f.list[f.at++];
    t.seq[i] = s;
    t.kind[i] = sk.kind[s];
    t.depth[i] = f.depth;
    t.parent[i] = f.node;
    t.plainOf[s] = i;
    const node = i++;
    const ch = kids[s];
    if (ch) stack.push({ list: ch, at: 0, node, depth: f.depth + 1 });
    else t.end[node] = node + 1;
  }
  return t;
}

export function inverseTree(sk: Skeleton): Tree {
  const { top, kids } = childrenOf(sk);
  let doubled = 0;
  for (let s = 0; s < sk.count; s++) if (kids[s]) doubled++;
  const t = alloc(sk.count + doubled, true, sk.count);
  let i = 0;
  // Frame: a forward level walked backwards; `pendingPlain` = the seq whose plain copy
  // follows once its inv_line_call's children are done.
  type F = { list: number[]; at: number; node: number; depth: number; pendingPlain: number };
  const stack: F[] = [{ list: top, at: top.length - 1, node: -1, depth: 0, pendingPlain: -1 }];
  const emit = (s: number, kind: number, depth: number, parent: number) => {
    t.seq[i] = s;
    t.kind[i] = kind;
    t.depth[i] = depth;
    t.parent[i] = parent;
    t.end[i] = i + 1;
    return i++;
  };
  while (stack.length) {
    const f = stack[stack.length - 1];
    if (f.at < 0) {
      stack.pop();
      if (f.node >= 0) {
        t.end[f.node] = i;
        const up = stack[stack.length - 1];
        t.plainOf[f.pendingPlain] = emit(f.pendingPlain, sk.kind[f.pendingPlain], f.depth - 1, up.node);
      }
      continue;
    }
    const s = f.list[f.at--];
    const ch = kids[s];
    if (ch) {
      const lc = emit(s, 4, f.depth, f.node);
      t.lineCallOf[s] = lc;
      stack.push({ list: ch, at: ch.length - 1, node: lc, depth: f.depth + 1, pendingPlain: s });
    } else t.plainOf[s] = emit(s, sk.kind[s], f.depth, f.node);
  }
  return t;
}

/**
 * The rows to draw: node indices in pre-order with the subtrees of collapsed nodes left
 * out. Returns rows and, for every node, its row or the row of its nearest shown ancestor.
 */
export function visibleRows(t: Tree, collapsed: ReadonlySet<number>): { rows: Int32Array; rowOf: Int32Array } {
  const rows = new Int32Array(t.size);
  const rowOf = new Int32Array(t.size);
  let n = 0;
  for (let i = 0; i < t.size; ) {
    rowOf[i] = n;
    rows[n++] = i;
    if (collapsed.has(i) && t.end[i] > i + 1) {
      for (let j = i + 1; j < t.end[i]; j++) rowOf[j] = n - 1;
      i = t.end[i];
    } else i++;
  }
  return { rows: rows.subarray(0, n), rowOf };
}

/** Nodes that have children (what collapse applies to). */
export function hasChildren(t: Tree, i: number): boolean {
  return t.end[i] > i + 1;
}

/** Node of `seq` shown as `event` (inverse inv_line_call vs plain copy), or -1. */
export function nodeOf(t: Tree, seq: number, event: string): number {
  if (seq < 0 || seq >= t.plainOf.length) return -1;
  return event === 'inv_line_call' ? t.lineCallOf[seq] : t.plainOf[seq];
}
