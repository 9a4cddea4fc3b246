// The explorer's drawing trees against the semantics: the inverse tree's pre-order must be
// exactly what inv_step_into walks, and collapsing hides exactly a node's subtree.
import { describe, expect, it } from 'vitest';
import { forwardTree, inverseTree, treeIndex, eventName, nodeOf } from '../../renderer/src/lib/tree/build.js';
import { visibleRows } from '../../renderer/src/lib/tree/fold.js';
import { buildTraceIndex, walkView } from '../../src/semantics/index.js';
import { cruxevalTraces } from '../semantics/helpers.js';
import { skeletonOf } from './skeleton.js';

describe('drawing trees', () => {
  const traces = cruxevalTraces().slice(0, 40);

  it('inverse pre-order equals the states inv_step_into walks, forward pre-order equals time', () => {
    for (const t of traces) {
      const sk = skeletonOf(t.events);
      const ix = treeIndex(sk);
      const fwd = forwardTree(ix);
      const inv = inverseTree(ix, fwd);
      const full = buildTraceIndex(t.events);
      const w = walkView(full, t.header, 'inverse', 0, Array(inv.size).fill({ action: 'inv_step_into' }));
      expect(w.states.length, t.header.name).toBe(inv.size);
      w.states.forEach((s, j) => {
        expect(inv.seq[j]).toBe(s.seq);
        expect(eventName(inv, j)).toBe(s.event);
        expect(nodeOf(inv, s.seq, s.event)).toBe(j);
      });
      expect(Array.from(fwd.seq)).toEqual(t.events.map((e) => e.seq));
      // Depth equals call depth: an event's depth is its parent's plus one.
      t.events.forEach((e) => expect(fwd.depth[e.seq]).toBe(e.parent === null ? 0 : fwd.depth[e.parent] + 1));
    }
  });

  it('collapsing a node hides its descendants and maps them to it', () => {
    const t = traces.find((x) => x.events.some((e) => e.parent !== null))!;
    const sk = skeletonOf(t.events);
    const fwd = forwardTree(treeIndex(sk));
    const caller = t.events.find((e) => e.parent !== null)!.parent!;
    const below = t.events.filter((e) => e.seq > caller && e.seq < fwd.end[caller]).length;
    const { rows, rowOf } = visibleRows(fwd, new Set([caller]));
    expect(rows.length).toBe(t.events.length - below);
    for (let s = caller + 1; s < fwd.end[caller]; s++) expect(rows[rowOf[s]]).toBe(caller);
  });
});
