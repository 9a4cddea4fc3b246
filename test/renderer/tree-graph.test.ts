// The graph shape's placement (renderer/src/lib/tree/graph.ts) on CRUXEval trees: a node sits
// one level below its parent (parent from the recorded events), leaves never share a slot, a
// parent is centred over its drawn children, and a collapsed node or a fold row is a leaf.
import { describe, expect, it } from 'vitest';
import { forwardTree, inverseTree, treeIndex, type Tree } from '../../renderer/src/lib/tree/build.js';
import { foldPlan, visibleRows, type Layout } from '../../renderer/src/lib/tree/fold.js';
import { graphPlace, graphRowsIn, LEVEL_H, SLOT_W } from '../../renderer/src/lib/tree/graph.js';
import type { Skeleton } from '../../src/contract/index.js';
import { cruxevalTraces } from '../semantics/helpers.js';
import { skeletonOf } from './skeleton.js';

function check(t: Tree, l: Layout) {
  const g = graphPlace(t, l);
  const bad: string[] = [];
  const kids = new Map<number, number[]>();
  const leafSlots: number[] = [];
  for (let r = 0; r < l.rows.length; r++) {
    const i = l.rows[r];
    // The drawn parent: the node's tree parent, or for a fold row its run's parent.
    const p = i >= 0 ? t.parent[i] : l.folds[-i - 1].parent;
    const pr = g.parentRow[r];
    if ((p < 0 ? -1 : l.rowOf[p]) !== pr) bad.push(`row ${r}: parent row ${pr}, expected ${p < 0 ? -1 : l.rowOf[p]}`);
    if (pr >= 0 && g.depth[r] !== g.depth[pr] + 1) bad.push(`row ${r}: depth ${g.depth[r]} under ${g.depth[pr]}`);
    if (pr >= 0) (kids.get(pr) ?? kids.set(pr, []).get(pr)!).push(r);
  }
  for (let r = 0; r < l.rows.length; r++) {
    const k = kids.get(r);
    if (!k) leafSlots.push(g.x[r]);
    else if (g.x[r] !== (g.x[k[0]] + g.x[k[k.length - 1]]) / 2) bad.push(`row ${r}: not centred over its children`);
  }
  expect(bad.slice(0, 5)).toEqual([]);
  // Leaves take slots 0, 1, 2 … left to right in pre-order.
  expect(leafSlots).toEqual(leafSlots.map((_, j) => j));
  expect(g.slots).toBe(leafSlots.length);
  return g;
}

describe('graph placement', () => {
  const traces = cruxevalTraces().slice(0, 60);
  it('both trees of CRUXEval traces, whole, with a collapsed node, and folded', () => {
    for (const tr of traces) {
      const sk = skeletonOf(tr.events);
      const ix = treeIndex(sk);
      const fwd = forwardTree(ix);
      const inv = inverseTree(ix, fwd);
      for (const t of [fwd, inv]) {
        check(t, visibleRows(t, new Set()));
        const withKids = Array.from({ length: t.size }, (_, i) => i).find((i) => t.end[i] > i + 1);
        if (withKids !== undefined) {
          const l = visibleRows(t, new Set([withKids]));
          const g = check(t, l);
          expect(g.parentRow.includes(l.rowOf[withKids])).toBe(false); // collapsed: a leaf
        }
        check(t, visibleRows(t, new Set(), { plan: foldPlan(t, sk.line, 4) }));
      }
    }
  });

  it('picks the rows inside a view, every stride-th when too many', () => {
    const n = 1000;
    const sk: Skeleton = {
      count: n,
      kind: Array(n).fill(1),
      parent: Array(n).fill(-1),
      frame: Array(n).fill(0),
      line: Array(n).fill(1),
      func: Array(n).fill(0),
      funcs: ['f'],
    };
    const t = forwardTree(treeIndex(sk));
    const g = graphPlace(t, visibleRows(t, new Set()));
    const inView = graphRowsIn(g, { x0: 10 * SLOT_W, x1: 19 * SLOT_W, y0: -1, y1: LEVEL_H }, 400);
    expect(Array.from(inView.rows)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    const all = graphRowsIn(g, { x0: 0, x1: n * SLOT_W, y0: 0, y1: 1 }, 100);
    expect(all.stride).toBe(10);
    expect(all.rows.length).toBe(100);
    expect(all.rows[1]).toBe(10);
  });
});
