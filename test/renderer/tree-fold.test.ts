// Folding of long loops in the drawing trees (renderer/src/lib/tree/fold.ts): a synthetic loop of
// many iterations, folded to its first and last iterations and one fold row, in both trees.
import { describe, expect, it } from 'vitest';
import { forwardTree, inverseTree, treeIndex, type Tree } from '../../renderer/src/lib/tree/build.js';
import {
  FOLD_HEAD,
  FOLD_MIN,
  FOLD_TAIL,
  foldAt,
  foldLabel,
  foldPlan,
  seqSpan,
  visibleRows,
  type Layout,
} from '../../renderer/src/lib/tree/fold.js';
import type { Skeleton } from '../../src/contract/index.js';
import { randomSkeleton } from './skeleton.js';

// Lines of the synthetic program (as in bench/_ui-long.py, optionally with a call in the body):
//  1 def g(x):          4 def run(n):         6     for i in range(n):
//  2     return x       5     total = 0       7         total += g(i)  (or total += i)
//                                             8     return total
const DEF_G = 1,
  RET_G = 2,
  DEF_RUN = 4,
  INIT = 5,
  FOR = 6,
  BODY = 7,
  RET = 8;

/** Skeleton of run(n): one frame at the top level; with `calls` each body line calls g. */
function loopSkeleton(n: number, calls = false): Skeleton {
  const kind: number[] = [],
    parent: number[] = [],
    frame: number[] = [],
    line: number[] = [];
  const ev = (k: number, p: number, f: number, l: number) => (
    kind.push(k),
    parent.push(p),
    frame.push(f),
    line.push(l),
    kind.length - 1
  );
  ev(0, -1, 0, DEF_RUN);
  ev(1, -1, 0, INIT);
  let fr = 1;
  for (let i = 0; i < n; i++) {
    ev(1, -1, 0, FOR);
    const body = ev(1, -1, 0, BODY);
    if (calls) {
      const f = fr++;
      ev(0, body, f, DEF_G);
      ev(1, body, f, RET_G);
      ev(2, body, f, RET_G);
    }
  }
  ev(1, -1, 0, FOR);
  ev(1, -1, 0, RET);
  ev(2, -1, 0, RET);
  return { count: kind.length, kind, parent, frame, line, func: kind.map(() => 0), funcs: ['run'] };
}

function trees(sk: Skeleton): { fwd: Tree; inv: Tree } {
  const ix = treeIndex(sk);
  const fwd = forwardTree(ix);
  return { fwd, inv: inverseTree(ix, fwd) };
}

/** Every node is on its own row or hidden by a fold, a collapsed ancestor, and rows are pre-order. */
function checkLayout(t: Tree, l: Layout, collapsed: ReadonlySet<number> = new Set()) {
  // Plain checks with one expect at the end: 100k expect() calls are slow.
  const bad: string[] = [];
  let last = -1;
  let shown = 0;
  for (let r = 0; r < l.rows.length && bad.length < 5; r++) {
    const f = foldAt(l, r);
    if (f) {
      if (f.row !== r) bad.push(`fold on row ${r} says row ${f.row}`);
      if (f.open) continue;
      if (f.first !== last + 1) bad.push(`fold on row ${r} starts at ${f.first}, after ${last}`);
      for (let j = f.first; j < f.end; j++)
        if (l.rowOf[j] !== r) bad.push(`node ${j} hidden by the fold on row ${r} maps to ${l.rowOf[j]}`);
      last = f.end - 1;
    } else {
      const i = l.rows[r];
      if (i !== last + 1) bad.push(`row ${r} is node ${i}, after ${last}`);
      if (l.rowOf[i] !== r) bad.push(`node ${i} on row ${r} maps to ${l.rowOf[i]}`);
      shown++;
      last = collapsed.has(i) ? t.end[i] - 1 : i;
    }
  }
  expect(bad).toEqual([]);
  expect(last).toBe(t.size - 1);
  return shown;
}

describe('folding long loops', () => {
  const N = 50_000;
  const sk = loopSkeleton(N);
  const { fwd, inv } = trees(sk);
  const fplan = foldPlan(fwd, sk.line);
  const iplan = foldPlan(inv, sk.line);

  it('folds a flat loop to its first and last iterations and one fold row (forward)', () => {
    const l = visibleRows(fwd, new Set(), { plan: fplan });
    expect(l.folds).toHaveLength(1);
    const f = l.folds[0];
    // Cut at iteration boundaries: the first hidden node and the first node after are `for` lines.
    expect(sk.line[f.fromSeq]).toBe(FOR);
    expect(sk.line[f.end]).toBe(FOR);
    expect(f.fromSeq).toBeGreaterThanOrEqual(FOLD_HEAD);
    expect(f.fromSeq).toBe(fwd.seq[f.first]);
    expect(f.toSeq).toBe(f.end - 1);
    expect(fwd.size - f.end).toBeGreaterThanOrEqual(FOLD_TAIL);
    expect(f.nodes).toBe(f.end - f.first);
    expect(f.iterations).toBe(f.nodes / 2);
    expect(l.rows.length).toBe(fwd.size - f.nodes + 1);
    expect(l.rows.length).toBeLessThan(40);
    expect(checkLayout(fwd, l)).toBe(fwd.size - f.nodes);
    expect(foldLabel(f)).toBe(
      `⋯ ${f.iterations.toLocaleString('en-US')} iterations folded (#${f.fromSeq.toLocaleString('en-US')}–#${f.toSeq.toLocaleString('en-US')}) — click to expand`,
    );
    expect(f.iterations).toBeGreaterThan(N - 20);
  });

  it('the current node inside the fold splits it and is drawn with its iteration', () => {
    const cur = 60_001; // a body line, deep inside the loop
    const l = visibleRows(fwd, new Set(), { plan: fplan, pins: [cur] });
    expect(l.rows[l.rowOf[cur]]).toBe(cur);
    expect(l.folds.filter((f) => !f.open)).toHaveLength(2);
    const [a, b] = l.folds;
    expect(a.toSeq).toBeLessThan(cur);
    expect(b.fromSeq).toBeGreaterThan(cur);
    // Shown: its iteration and one either side, cut at `for` lines.
    const around = [];
    for (let r = a.row + 1; r < b.row; r++) around.push(l.rows[r]);
    expect(around.map((i) => sk.line[i])).toEqual([FOR, BODY, FOR, BODY, FOR, BODY]);
    expect(around).toContain(cur);
    checkLayout(fwd, l);
    // Pins outside any fold change nothing.
    expect(visibleRows(fwd, new Set(), { plan: fplan, pins: [3, -1] }).rows).toEqual(
      visibleRows(fwd, new Set(), { plan: fplan }).rows,
    );
  });

  it('expanding restores every row, behind one "fold again" row; the key survives moving the current node', () => {
    const key = visibleRows(fwd, new Set(), { plan: fplan }).folds[0].key;
    const keyWhileInside = visibleRows(fwd, new Set(), { plan: fplan, pins: [70_000] }).folds[0].key;
    expect(keyWhileInside).toBe(key);
    const l = visibleRows(fwd, new Set(), { plan: fplan, pins: [70_000], expanded: new Set([key]) });
    expect(l.rows.length).toBe(fwd.size + 1);
    expect(l.folds).toHaveLength(1);
    expect(l.folds[0].open).toBe(true);
    expect(foldLabel(l.folds[0])).toMatch(/shown — click to fold again$/);
    expect(checkLayout(fwd, l)).toBe(fwd.size);
  });

  it('folds the inverse tree too, cut after the plain copy of the loop line', () => {
    const l = visibleRows(inv, new Set(), { plan: iplan });
    expect(l.folds).toHaveLength(1);
    const f = l.folds[0];
    expect(sk.line[inv.seq[f.first - 1]]).toBe(FOR); // reversed: an iteration ends with its `for`
    expect(sk.line[inv.seq[f.end - 1]]).toBe(FOR);
    expect(f.iterations).toBeGreaterThan(N - 20);
    expect(l.rows.length).toBe(inv.size - f.nodes + 1);
    checkLayout(inv, l);
    const cur = inv.plainOf[30_000];
    const split = visibleRows(inv, new Set(), { plan: iplan, pins: [cur] });
    expect(split.rows[split.rowOf[cur]]).toBe(cur);
    expect(split.folds).toHaveLength(2);
    checkLayout(inv, split);
  });

  it('runs of at most FOLD_MIN siblings are not folded', () => {
    const small = loopSkeleton(Math.floor((FOLD_MIN - 6) / 2));
    const { fwd: f } = trees(small);
    expect(f.size).toBeLessThanOrEqual(FOLD_MIN + 1);
    expect(visibleRows(f, new Set(), { plan: foldPlan(f, small.line) }).rows.length).toBe(f.size);
    const big = loopSkeleton(FOLD_MIN);
    const { fwd: g } = trees(big);
    expect(visibleRows(g, new Set(), { plan: foldPlan(g, big.line) }).folds).toHaveLength(1);
  });

  it('a loop with calls: a pinned node inside a folded call shows its ancestors; collapse still works', () => {
    const s2 = loopSkeleton(5_000, true);
    const { fwd: f, inv: iv } = trees(s2);
    const plan = foldPlan(f, s2.line);
    const l = visibleRows(f, new Set(), { plan });
    expect(l.folds).toHaveLength(1);
    expect(l.folds[0].iterations).toBeGreaterThan(5_000 - 20);
    checkLayout(f, l);
    // The `return x` line of g in iteration 2500: its body line (the calling line) gets shown too.
    const deep = 2 + 2500 * 5 + 3;
    expect(s2.line[deep]).toBe(RET_G);
    const p = visibleRows(f, new Set(), { plan, pins: [deep] });
    expect(p.rows[p.rowOf[deep]]).toBe(deep);
    expect(p.rows[p.rowOf[f.parent[deep]]]).toBe(f.parent[deep]);
    checkLayout(f, p);
    // Collapsing the calling line hides g's events (the current node then maps to it).
    const c = new Set([f.parent[deep]]);
    const pc = visibleRows(f, c, { plan, pins: [deep] });
    expect(pc.rows[pc.rowOf[deep]]).toBe(f.parent[deep]);
    expect(pc.rows.length).toBe(p.rows.length - 3);
    checkLayout(f, pc, c);
    // Collapsing a node in the head keeps the fold.
    const head = new Set([3]);
    const ph = visibleRows(f, head, { plan });
    expect(ph.rows.length).toBe(l.rows.length - 3);
    expect(ph.folds).toHaveLength(1);
    // Inverse: every body line is doubled; twins (both copies of a seq) are pinned together.
    const ip = foldPlan(iv, s2.line);
    const body = f.parent[deep];
    const twins = [iv.plainOf[body], iv.lineCallOf[body]];
    const il = visibleRows(iv, new Set(), { plan: ip, pins: twins });
    for (const n of twins) expect(il.rows[il.rowOf[n]]).toBe(n);
    checkLayout(iv, il);
  });

  it('without a fold plan nothing is folded (and lines are optional)', () => {
    expect(visibleRows(fwd, new Set()).rows.length).toBe(fwd.size);
    const plain = visibleRows(fwd, new Set(), { plan: foldPlan(fwd) });
    expect(plain.folds).toHaveLength(1);
    expect(plain.folds[0].iterations).toBe(-1);
    expect(foldLabel(plain.folds[0])).toMatch(/^⋯ [\d,]+ states folded/);
  });

  // What keeps a 100k-state tree cheap to draw: wherever the current node is, the rows are a
  // handful (the loop stays folded around it), not a number that grows with the trace.
  // (How fast the plan and rows are built is measured in bench/ui.mjs, not asserted here.)
  it('100k states fold to a few dozen rows wherever the current node is pinned', () => {
    const plan = foldPlan(fwd, sk.line);
    const rowCounts: number[] = [];
    for (let k = 0; k < 10; k++) {
      const pin = k * 9_000;
      const l = visibleRows(fwd, new Set(), { plan, pins: [pin] });
      expect(l.rows[l.rowOf[pin]]).toBe(pin);
      rowCounts.push(l.rows.length);
      checkLayout(fwd, l);
    }
    // 26 rows with the first iteration current, 33 with one inside the fold (its iteration shown).
    expect(Math.max(...rowCounts)).toBeLessThanOrEqual(40);
  });
});

describe('what a fold row says it stands for', () => {
  it('its seq range is the smallest and largest seq of the nodes it hides, in both trees', () => {
    const bad: string[] = [];
    let pieces = 0;
    for (const seed of [1, 2, 3, 4, 5]) {
      const sk = randomSkeleton(seed, 6_000);
      const both = trees(sk);
      for (const t of [both.fwd, both.inv]) {
        const plan = foldPlan(t, sk.line, 8);
        for (const run of plan.runs) {
          const k = run.kids.length;
          const cuts: [number, number][] = [
            [run.head, run.tail],
            [0, k],
            [0, 1],
            [k - 1, k],
            [1, k - 1],
            [Math.floor(k / 3), Math.floor((2 * k) / 3) + 1],
          ];
          for (const [a, b] of cuts) {
            if (b <= a) continue;
            const first = run.kids[a];
            const end = t.end[run.kids[b - 1]];
            let lo = Infinity;
            let hi = -1;
            for (let j = first; j < end; j++) {
              lo = Math.min(lo, t.seq[j]);
              hi = Math.max(hi, t.seq[j]);
            }
            const got = seqSpan(t, run, a, b);
            pieces++;
            if (got[0] !== lo || got[1] !== hi)
              bad.push(
                `seed ${seed} ${t.inverse ? 'inverse' : 'forward'} run ${run.key} [${a}, ${b}): ${got} instead of ${lo},${hi}`,
              );
          }
        }
      }
    }
    expect(bad.slice(0, 5)).toEqual([]);
    expect(pieces).toBeGreaterThan(100);
  });

  it('the loop line is the most repeated line among the siblings, the smaller on a tie', () => {
    // 40 siblings (a run long enough to fold), their lines repeated by `pattern`.
    const sk = (lines: number[]): Skeleton => ({
      count: lines.length,
      kind: lines.map(() => 1),
      parent: lines.map(() => -1),
      frame: lines.map(() => 0),
      line: lines,
      func: lines.map(() => 0),
      funcs: ['f'],
    });
    const lineOf = (pattern: (i: number) => number) => {
      const lines = Array.from({ length: 40 }, (_, i) => pattern(i));
      return foldPlan(trees(sk(lines)).fwd, lines, 2).runs[0].line;
    };
    expect(lineOf((i) => 100 + (i >> 1))).toBe(-1); // each line twice: under the 3 repetitions a loop needs
    expect(lineOf((i) => (i % 2 ? 3 : 7))).toBe(3); // 20 each: the smaller
    expect(lineOf((i) => (i % 2 ? 40 : 12))).toBe(12);
    expect(lineOf((i) => (i % 3 === 2 ? 4 : 9))).toBe(9); // 27 against 13
    expect(lineOf((i) => (i % 4 === 3 ? 5 : 50 + (i % 3)))).toBe(5); // 5, 50, 51 and 52 ten times each: the smaller
  });
});
