/**
 * The layer interface of a tree pane. A pane (TreePane.svelte) owns the zoom, the collapsed
 * nodes, the opened folds and the rows they leave (a Layout); everything drawn on top of that
 * is a layer, drawn inside the zoomed group in tree coordinates. A pane has two shapes: the
 * indented layout ('rows': x = depth * COL_W, y = row * ROW_H) and the node-link graph
 * ('graph', lib/tree/graph.ts: x = slot * SLOT_W, y = depth * LEVEL_H). Layers that only use
 * `at` and `end` draw right in both.
 *
 * - RowsLayer / GraphLayer: links, one <g data-seq data-event> per drawn node, fold rows (the
 *   e2e hooks), in the pane's shape.
 * - TrailLayer: the trajectory walked so far, through the positions of its states.
 * - EdgesLayer: labeled arrows from the current node to where each action leads (Edge.svelte
 *   draws one edge, to a node, an exit marker or a free "ghost" position).
 * - marks (marks.ts): classes and data attributes put on node rows (current, selected, twin).
 *
 * A new layer is added without touching these, from the pane's owner (App):
 * - to draw shapes (verdict badges, ghost nodes of a prediction, action edges), pass a snippet
 *   `under` or `over` to TreePane; it gets this TreeGeometry and reads positions with `at`,
 *   which answers for every node, folded or collapsed or not (a hidden node sits on the row
 *   that hides it, with `hidden: true`), so an edge to a folded target still lands somewhere;
 * - to mark rows (a verdict colour, "predicted here"), pass a RowMarker in `markers`; its
 *   classes land on the node's <g> beside the built-in ones, so styles can key on them.
 * Layers only read the geometry; they change the view through the callbacks they are given.
 * Positions are cheap (typed-array reads); `drawn` tells which rows are on screen, so a layer
 * with many shapes should draw only those.
 */
import type { Tree } from '../../lib/tree/build.js';
import type { FoldRow, Layout } from '../../lib/tree/fold.js';
import type { GraphPlace } from '../../lib/tree/graph.js';

export type Shape = 'rows' | 'graph';

/** Zoomed out so far that fewer than one row in this many would be drawn: nodes give way to a depth profile. */
export const PROFILE_STRIDE = 3;

export interface TreeGeometry {
  which: 'forward' | 'inverse';
  shape: Shape;
  tree: Tree;
  layout: Layout;
  /** Rows on screen (indented layout): [from, to), every `stride`-th drawn when zoomed far out. */
  drawn: { from: number; to: number; stride: number };
  /** The graph layout's placement and the rows it draws (on screen, LOD-picked); null / empty in the indented one. */
  graph: GraphPlace | null;
  shown: Int32Array;
  /**
   * Every stride-th row drawn (either shape); past PROFILE_STRIDE the pane shows its depth profile instead
   * (ProfileLayer).
   */
  stride: number;
  /** The part of the tree on screen, in tree coordinates (e.g. to keep a label inside it). */
  view: { x0: number; x1: number; y0: number; y1: number };
  /** Where something past the end of the tree goes (an exit marker), in tree coordinates. */
  end: { x: number; y: number };
  /** Zoom scale, and the factor that keeps dots a visible size zoomed out (>= 1). */
  k: number;
  dot: number;
  /** Where node i is drawn, in tree coordinates; hidden when a fold or collapsed ancestor stands for it. */
  at(i: number): { x: number; y: number; hidden: boolean };
}

/** What the pane hands the layer that draws its nodes (RowsLayer or GraphLayer). */
export interface NodeLayerProps {
  geo: TreeGeometry;
  /** Nodes drawn even when the level of detail skips their rows (current, selected, twins). */
  pinned: readonly number[];
  collapsed: ReadonlySet<number>;
  mark: (i: number) => { cls: string; data: Record<string, string> };
  label: (i: number) => string;
  onselect: (i: number) => void;
  ontoggle: (i: number) => void;
  onfold: (f: FoldRow) => void;
  ontip: (e: MouseEvent | null, text: string) => void;
}

/** Classes (added to `node k-<kind>`) and data attributes for a node's row, or null. */
export interface RowMark {
  classes?: string[];
  data?: Record<string, string>;
}
export type RowMarker = (node: number) => RowMark | null;

/** Merges markers: classes add up, later data attributes win. */
export function combineMarkers(
  markers: readonly RowMarker[],
): (node: number) => { cls: string; data: Record<string, string> } {
  return (node) => {
    let cls = '';
    const data: Record<string, string> = {};
    for (const m of markers) {
      const r = m(node);
      if (!r) continue;
      if (r.classes?.length) cls += ' ' + r.classes.join(' ');
      if (r.data) Object.assign(data, r.data);
    }
    return { cls, data };
  };
}
