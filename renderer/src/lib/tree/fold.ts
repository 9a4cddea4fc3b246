/**
 * Which rows a drawing tree shows: subtrees of collapsed nodes left out, and long loops folded.
 *
 * Folding of long loops. Python lines of one frame are siblings (§3), so a loop of 50,000
 * iterations is 100,000 siblings under one node. A run of more than FOLD_MIN children of one
 * node (in either tree) shows its first FOLD_HEAD and last FOLD_TAIL children with their
 * subtrees and ONE fold row for the rest. The cuts move (at most ALIGN siblings) to a loop
 * iteration boundary: the loop line is the line most often repeated among the siblings (ties:
 * the smaller line number, i.e. the `for`/`while` header). Forward, an iteration starts at a node
 * of that line; inverse (reversed order) it starts right after the plain copy of one.
 * Pinned nodes (current state, selected state, twins) are never hidden: the fold splits around
 * the iteration holding each, with PIN_CONTEXT iterations either side.
 */
import type { Tree } from './build.js';
import { LINE_CALL } from './kinds.js';

export const FOLD_MIN = 200;
export const FOLD_HEAD = 12;
export const FOLD_TAIL = 12;
const ALIGN = 64;
const PIN_CONTEXT = 1;
/** A piece of a fold shorter than this (in siblings) is shown rather than folded. */
const MIN_PIECE = 3;

/** A long run of siblings and where its fold is cut (positions among the siblings). */
export interface LoopRun {
  /** Stable id of the fold (kept while stepping): node index of its first hidden sibling. */
  key: number;
  parent: number;
  depth: number;
  /** The siblings, in pre-order. */
  kids: Int32Array;
  /** Hidden positions are [head, tail). */
  head: number;
  tail: number;
  /** 1 where a loop iteration starts (null when no repeated line was found). */
  start: Uint8Array | null;
  /** The loop line (line number into the forward context) or -1. */
  line: number;
}

export interface FoldPlan {
  runs: LoopRun[];
  /** For each node: the run it is a direct child of, or -1; and its position in that run. */
  runOf: Int32Array;
  pos: Int32Array;
}

/** One fold row: a closed fold (hidden nodes [first, end)) or an opened one's "fold again" row. */
export interface FoldRow {
  key: number;
  open: boolean;
  parent: number;
  depth: number;
  first: number;
  end: number;
  /** Smallest and largest seq among the nodes it stands for. */
  fromSeq: number;
  toSeq: number;
  /** Nodes it stands for, and loop iterations (-1 when no loop line was found). */
  nodes: number;
  iterations: number;
  row: number;
}

export interface Layout {
  /** Node index per row, or -(k+1) for the row of folds[k]. */
  rows: Int32Array;
  /** For every node: its row, or the row of the fold or collapsed ancestor that hides it. */
  rowOf: Int32Array;
  folds: FoldRow[];
}

export interface FoldOptions {
  plan: FoldPlan;
  /** Nodes that must be drawn (current, selected, twins); -1 entries are ignored. */
  pins?: readonly number[];
  /** Keys of folds the user opened. */
  expanded?: ReadonlySet<number>;
}

/** Finds the long sibling runs of a tree and their cuts; `lineOfSeq` aligns cuts to iterations. */
export function foldPlan(t: Tree, lineOfSeq?: ArrayLike<number>, min = FOLD_MIN): FoldPlan {
  const n = t.size;
  const count = new Int32Array(n + 1);
  const pos = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const p = t.parent[i] < 0 ? n : t.parent[i];
    pos[i] = count[p]++;
  }
  const runOf = new Int32Array(n).fill(-1);
  const runs: LoopRun[] = [];
  const slot = new Int32Array(n + 1).fill(-1);
  const kidsOf: Int32Array[] = [];
  for (let p = 0; p <= n; p++) {
    if (count[p] > min) {
      slot[p] = kidsOf.length;
      kidsOf.push(new Int32Array(count[p]));
    }
  }
  if (!kidsOf.length) return { runs, runOf, pos };
  for (let i = 0; i < n; i++) {
    const s = slot[t.parent[i] < 0 ? n : t.parent[i]];
    if (s >= 0) kidsOf[s][pos[i]] = i;
  }
  for (const kids of kidsOf) {
    const k = kids.length;
    let line = -1;
    let start: Uint8Array | null = null;
    if (lineOfSeq) {
      line = loopLine(t, kids, lineOfSeq);
      if (line >= 0) {
        start = new Uint8Array(k);
        for (let j = 0; j < k; j++) {
          const at = t.inverse ? j - 1 : j;
          if (at >= 0 && t.kind[kids[at]] !== LINE_CALL && lineOfSeq[t.seq[kids[at]]] === line) start[j] = 1;
        }
      }
    }
    let head = Math.min(FOLD_HEAD, k);
    let tail = Math.max(k - FOLD_TAIL, head);
    if (start) {
      for (let j = head; j < Math.min(k, FOLD_HEAD + ALIGN); j++)
        if (start[j]) {
          head = j;
          break;
        }
      for (let j = tail; j > Math.max(head, k - FOLD_TAIL - ALIGN); j--)
        if (start[j]) {
          tail = j;
          break;
        }
    }
    if (tail - head < MIN_PIECE) continue;
    const r = runs.length;
    const parent = t.parent[kids[0]];
    runs.push({ key: kids[head], parent, depth: t.depth[kids[0]], kids, head, tail, start, line });
    for (let j = 0; j < k; j++) runOf[kids[j]] = r;
  }
  return { runs, runOf, pos };
}

/**
 * The line most often repeated among the siblings (at least 3 times; ties: the smaller line
 * number), or -1. Lines are small numbers: counted in a typed array over their range, not a
 * hash (a 136,000-sibling loop is counted on every open).
 */
function loopLine(t: Tree, kids: Int32Array, lineOfSeq: ArrayLike<number>): number {
  let lo = Infinity;
  let hi = -Infinity;
  for (let j = 0; j < kids.length; j++) {
    if (t.kind[kids[j]] === LINE_CALL) continue;
    const l = lineOfSeq[t.seq[kids[j]]];
    if (l < lo) lo = l;
    if (l > hi) hi = l;
  }
  if (hi < lo) return -1;
  const freq = new Int32Array(hi - lo + 1);
  for (let j = 0; j < kids.length; j++) if (t.kind[kids[j]] !== LINE_CALL) freq[lineOfSeq[t.seq[kids[j]]] - lo]++;
  let line = -1;
  let best = 2;
  // Ascending lines: a later line wins only with a strictly higher count.
  for (let i = 0; i < freq.length; i++)
    if (freq[i] > best) {
      best = freq[i];
      line = lo + i;
    }
  return line;
}

/**
 * Smallest and largest seq among the nodes [first, end) that a run's siblings [a, b) and their
 * subtrees take, without visiting them: a run of siblings covers a contiguous range of time.
 * Forward (node = seq, pre-order = time): first and end - 1. Inverse (siblings latest first): the
 * earliest is the last sibling; the latest is the first sibling's own seq when it is a plain copy,
 * else (an inv_line_call) the latest event below it, the first plain copy after it in pre-order.
 */
export function seqSpan(t: Tree, run: LoopRun, a: number, b: number): [number, number] {
  const first = run.kids[a];
  if (!t.inverse) return [t.seq[first], t.seq[t.end[run.kids[b - 1]] - 1]];
  let j = first;
  while (t.kind[j] === LINE_CALL && j + 1 < t.end[first]) j++;
  return [t.seq[run.kids[b - 1]], t.seq[j]];
}

/** The window [from, to) of positions around pinned position q: its iteration and PIN_CONTEXT either side. */
function pinWindow(run: LoopRun, q: number): [number, number] {
  const { start, head, tail } = run;
  if (!start) return [Math.max(head, q - 2), Math.min(tail, q + 3)];
  let from = q;
  for (let it = 0; it <= PIN_CONTEXT; it++) {
    let j = it === 0 ? from : from - 1;
    const stop = Math.max(head, j - ALIGN);
    while (j > stop && !start[j]) j--;
    from = Math.max(head, j);
    if (from === head) break;
  }
  let to = q + 1;
  for (let it = 0; it <= PIN_CONTEXT; it++) {
    let j = to;
    const stop = Math.min(tail, j + ALIGN);
    while (j < stop && !start[j]) j++;
    to = Math.min(tail, it < PIN_CONTEXT ? j + 1 : j);
    if (to === tail) break;
  }
  return [from, to];
}

/**
 * The rows to draw: node indices in pre-order with the subtrees of collapsed nodes left out
 * and, with `fold`, long sibling runs folded. Returns rows, the folds drawn and, for every
 * node, its row or the row of whatever hides it.
 */
export function visibleRows(t: Tree, collapsed: ReadonlySet<number>, fold?: FoldOptions): Layout {
  // The folds this layout may draw, by the node before which each one's row comes.
  const markAt = new Map<number, FoldRow>();
  if (fold) {
    const { plan } = fold;
    const expanded = fold.expanded ?? new Set<number>();
    // Positions pinned in each closed run: every pinned node and its ancestors.
    const pinned = new Map<number, number[]>();
    for (const p of fold.pins ?? []) {
      for (let a = p; a >= 0 && a < t.size; a = t.parent[a]) {
        const r = plan.runOf[a];
        if (r < 0) continue;
        const run = plan.runs[r];
        const q = plan.pos[a];
        if (q < run.head || q >= run.tail || expanded.has(run.key)) continue;
        (pinned.get(r) ?? pinned.set(r, []).get(r)!).push(q);
      }
    }
    const add = (run: LoopRun, a: number, b: number, open: boolean) => {
      const first = run.kids[a];
      const end = t.end[run.kids[b - 1]];
      const [lo, hi] = seqSpan(t, run, a, b);
      let iterations = -1;
      if (run.start) {
        iterations = 0;
        for (let j = a; j < b; j++) iterations += run.start[j];
      }
      markAt.set(first, {
        key: run.key,
        open,
        parent: run.parent,
        depth: run.depth,
        first,
        end,
        fromSeq: lo,
        toSeq: hi,
        nodes: end - first,
        iterations,
        row: -1,
      });
    };
    plan.runs.forEach((run, r) => {
      if (expanded.has(run.key)) return add(run, run.head, run.tail, true);
      const qs = pinned.get(r);
      if (!qs) return add(run, run.head, run.tail, false);
      // Split the fold around the windows of its pinned positions.
      const wins = qs.map((q) => pinWindow(run, q)).sort((x, y) => x[0] - y[0]);
      let a = run.head;
      for (const [from, to] of wins) {
        if (from - a >= MIN_PIECE) add(run, a, from, false);
        a = Math.max(a, to);
      }
      if (run.tail - a >= MIN_PIECE) add(run, a, run.tail, false);
    });
  }
  const rows = new Int32Array(t.size + markAt.size);
  const rowOf = new Int32Array(t.size);
  const folds: FoldRow[] = [];
  let n = 0;
  for (let i = 0; i < t.size;) {
    const f = markAt.get(i);
    if (f) {
      f.row = n;
      folds.push(f);
      rows[n++] = -folds.length;
      if (!f.open) {
        rowOf.fill(f.row, f.first, f.end);
        i = f.end;
        continue;
      }
    }
    rowOf[i] = n;
    rows[n++] = i;
    if (collapsed.has(i) && t.end[i] > i + 1) {
      rowOf.fill(n - 1, i + 1, t.end[i]);
      i = t.end[i];
    } else i++;
  }
  return { rows: rows.subarray(0, n), rowOf, folds };
}

/** The fold drawn on row r, or null when the row is a node's. */
export function foldAt(layout: Layout, r: number): FoldRow | null {
  const v = layout.rows[r];
  return v < 0 ? layout.folds[-v - 1] : null;
}

/** Depth at which row r is drawn (a fold row sits at its siblings' depth). */
export function rowDepth(t: Tree, layout: Layout, r: number): number {
  const v = layout.rows[r];
  return v < 0 ? layout.folds[-v - 1].depth : t.depth[v];
}

/** The text drawn on a fold row (short enough for a narrow pane; foldLabel is its tooltip). */
export function foldShortLabel(f: FoldRow): string {
  return foldLabel(f).replace(/ — click to .*$/, '');
}

/** The full text of a fold row: what it stands for and what a click does. */
export function foldLabel(f: FoldRow): string {
  const num = (x: number) => x.toLocaleString('en-US');
  const what =
    f.iterations > 0 ? `${num(f.iterations)} iteration${f.iterations === 1 ? '' : 's'}` : `${num(f.nodes)} states`;
  const range = `(#${num(f.fromSeq)}–#${num(f.toSeq)})`;
  return f.open ? `⌃ ${what} ${range} shown — click to fold again` : `⋯ ${what} folded ${range} — click to expand`;
}
