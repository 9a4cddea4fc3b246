/**
 * Building the flat, array-based forward and inverse state trees for drawing (100k nodes must
 * build in a few tens of ms). Node i of a tree is its i-th node in pre-order; `seq` is the
 * event behind it and `kind` what it shows (see kinds.ts; the inverse tree shows the same
 * kinds with the `inv_` prefix). The shapes follow the spec: forward §3 (children of an
 * event = events whose parent is it, in time order) and inverse §4. They come from the
 * semantics' TreeIndex (src/semantics/tree.ts); this file only adds what drawing needs
 * (depth, subtree ends, node of each seq). Which rows are drawn (collapsed subtrees, long
 * loops folded) is fold.ts; which node an action leads to is the semantics' (the `walk` API).
 */
import type { Skeleton } from '@core/contract/index.js';
import { buildTreeOrder, type TreeOrder } from '@core/semantics/tree.js';
import { LINE_CALL, NODE_KINDS } from './kinds.js';

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
  const k = NODE_KINDS[tree.kind[i]];
  return tree.inverse ? `inv_${k}` : k;
}

/** The semantics' order of both trees (its index without segments), built from the skeleton's columns. */
export function treeIndex(sk: Skeleton): TreeOrder {
  return buildTreeOrder({ count: sk.count, kind: sk.kind, parent: sk.parent, frame: sk.frame });
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

/**
 * Forward tree: node i is seq i (pre-order equals time order). Its kinds and parents are the
 * index's own arrays (shared, never written), and seq and plainOf the same identity array: a
 * 270,000-state trace is built on every open, in a worker whose code has not warmed up.
 */
export function forwardTree(ix: TreeOrder): Tree {
  const n = ix.count;
  const seq = new Int32Array(n);
  const depth = new Int32Array(n);
  const end = new Int32Array(n);
  const { parent, subtreeEnd } = ix;
  for (let s = 0; s < n; s++) {
    const p = parent[s];
    seq[s] = s;
    depth[s] = p < 0 ? 0 : depth[p] + 1;
    end[s] = subtreeEnd[s] + 1;
  }
  return {
    inverse: false,
    size: n,
    seq,
    kind: ix.kind,
    depth,
    parent,
    end,
    plainOf: seq,
    lineCallOf: new Int32Array(n).fill(-1),
  };
}

/** Inverse tree, in the semantics' inverse pre-order (ids 2*seq plain, 2*seq+1 inv_line_call). */
export function inverseTree(ix: TreeOrder, fwd: Tree): Tree {
  const n = ix.invOrder.length;
  const t = alloc(n, true, ix.count);
  for (let j = 0; j < n; j++) {
    const id = ix.invOrder[j];
    const s = id >> 1;
    const lc = (id & 1) === 1;
    const p = ix.parent[s];
    t.seq[j] = s;
    t.kind[j] = lc ? LINE_CALL : ix.kind[s];
    t.depth[j] = fwd.depth[s];
    t.parent[j] = p < 0 ? -1 : ix.invPos[2 * p + 1];
    // An inv_line_call holds the inverse of the forward subtree below s: its nodes plus their line-call copies.
    t.end[j] = lc ? j + 1 + (ix.subtreeEnd[s] - s) + (ix.lcBefore[ix.subtreeEnd[s] + 1] - ix.lcBefore[s + 1]) : j + 1;
    if (lc) t.lineCallOf[s] = j;
    else t.plainOf[s] = j;
  }
  return t;
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
