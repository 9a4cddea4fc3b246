/**
 * The node-link ("graph") layout of a tree pane: a tidy top-down tree over the rows a Layout
 * leaves (fold.ts), so collapse and folding apply as in the indented layout. Depth goes down
 * (y = depth * LEVEL_H); each leaf row (a node without drawn children, a fold row) takes the
 * next slot left to right in pre-order, and a parent sits centred over its first and last
 * drawn child (x = slot * SLOT_W). This is d3.tree's shape without its subtree compaction,
 * done flat on typed arrays in one pass each way, so 100,000 rows lay out in a few ms and
 * the layout can be redone on every step (the pins of a fold move with the current node).
 */
import type { Tree } from './build.js';
import { rowDepth, type Layout } from './fold.js';

export const SLOT_W = 40;
export const LEVEL_H = 60;

export interface GraphPlace {
  /** Per row: horizontal position in slots, depth, and the row of its drawn parent (-1 at the top). */
  x: Float64Array;
  depth: Int32Array;
  parentRow: Int32Array;
  /** Slots used (width of the tree) and its deepest level. */
  slots: number;
  maxDepth: number;
}

export function graphPlace(t: Tree, layout: Layout): GraphPlace {
  const n = layout.rows.length;
  const x = new Float64Array(n);
  const depth = new Int32Array(n);
  const parentRow = new Int32Array(n).fill(-1);
  const firstKid = new Int32Array(n).fill(-1);
  const lastKid = new Int32Array(n).fill(-1);
  const stack = new Int32Array(n + 1);
  let top = 0;
  let maxDepth = 0;
  for (let r = 0; r < n; r++) {
    const d = rowDepth(t, layout, r);
    depth[r] = d;
    if (d > maxDepth) maxDepth = d;
    while (top > 0 && depth[stack[top - 1]] >= d) top--;
    const p = top > 0 ? stack[top - 1] : -1;
    parentRow[r] = p;
    if (p >= 0) {
      if (firstKid[p] < 0) firstKid[p] = r;
      lastKid[p] = r;
    }
    stack[top++] = r;
  }
  let slots = 0;
  for (let r = 0; r < n; r++) if (firstKid[r] < 0) x[r] = slots++;
  for (let r = n - 1; r >= 0; r--) if (firstKid[r] >= 0) x[r] = (x[firstKid[r]] + x[lastKid[r]]) / 2;
  return { x, depth, parentRow, slots, maxDepth };
}

/**
 * Rows of a graph layout inside a view rectangle (tree coordinates), at most `max` of them:
 * when more are inside, every stride-th (in row order) is kept. A linear scan over typed
 * arrays: about a millisecond for 100,000 rows.
 */
export function graphRowsIn(
  g: GraphPlace,
  view: { x0: number; x1: number; y0: number; y1: number },
  max: number,
): { rows: Int32Array; stride: number } {
  const n = g.x.length;
  const inside = new Int32Array(n);
  let k = 0;
  const s0 = view.x0 / SLOT_W;
  const s1 = view.x1 / SLOT_W;
  const d0 = view.y0 / LEVEL_H;
  const d1 = view.y1 / LEVEL_H;
  for (let r = 0; r < n; r++) {
    const s = g.x[r];
    const d = g.depth[r];
    if (s >= s0 && s <= s1 && d >= d0 && d <= d1) inside[k++] = r;
  }
  const stride = Math.max(1, Math.ceil(k / max));
  if (stride === 1) return { rows: inside.subarray(0, k), stride };
  const out = new Int32Array(Math.ceil(k / stride));
  let j = 0;
  for (let i = 0; i < k; i += stride) out[j++] = inside[i];
  return { rows: out.subarray(0, j), stride };
}
