/**
 * The view of a tree pane: d3's zoom transform over the pane's SVG (the wheel scrolls,
 * Ctrl+wheel and pinch zoom), the pane's size, and the moves that bring nodes into view: fit,
 * a range of states (the overview's brush), a node revealed when it is off screen, an item's
 * target with the node it was asked at. Created by TreePane with the scene it draws; reads it
 * through the scene's getters. Moves go through d3 (zoomer.transform …), whose zoom event sets
 * `transform`, so what the user drags and what a move sets are one state.
 */
import { select, zoom as d3zoom, zoomIdentity, type ZoomBehavior, type ZoomTransform } from 'd3';
import { untrack } from 'svelte';
import type { Layout } from './fold.js';
import { LEVEL_H, SLOT_W, type GraphPlace } from './graph.js';
import { ROW_H } from './lod.js';
import type { Tree } from './build.js';
import type { Point } from '../../views/tree/edge-geometry.js';

/** What the pane draws, as the camera needs it (getters: the pane's current values). */
export interface Scene {
  readonly tree: Tree | null;
  readonly layout: Layout | null;
  /** The graph's placement when the tree is drawn as a node-link graph; null for indented rows. */
  readonly graph: GraphPlace | null;
  /** Where node i is drawn, in tree coordinates (either shape). */
  place(i: number): Point;
}

/** What the camera keeps in view as it changes (getters: read inside the camera's effects). */
export interface Focus {
  /** The shape drawn (any value: a change of it re-homes the view). */
  readonly shape: string;
  /** The current node of this pane's tree, or -1. */
  readonly current: number;
  /** The selected node in this pane's tree, or -1 (selected in the other tree, or none). */
  readonly selected: number;
  /** The selected state's seq (the state itself, so a new selection of the same seq counts too). */
  readonly selection: { seq: number } | null;
  /** An open item's nodes: its target first (pinned in the pane). */
  readonly pinned: readonly number[];
}

/**
 * Where the indented rows' first column is drawn (px from the pane's left): the indentation
 * left of it holds the action edges' label chips of shallow rows (views/tree/edge-geometry.ts,
 * placeRowChips), so they never cover a row's text.
 */
export const ROWS_LEFT = 56;

export class Camera {
  transform = $state.raw<ZoomTransform>(zoomIdentity.translate(ROWS_LEFT, 12));
  width = $state(300);
  height = $state(300);
  #svg: SVGSVGElement | null = null;
  #zoomer: ZoomBehavior<SVGSVGElement, unknown> | null = null;

  constructor(private readonly scene: Scene) {}

  /** The part of the tree on screen, in tree coordinates, widened by `m` pixels on each side. */
  viewBox(m = 0): { x0: number; x1: number; y0: number; y1: number } {
    const t = this.transform;
    const { width, height } = this;
    return { x0: (-t.x - m) / t.k, x1: (width - t.x + m) / t.k, y0: (-t.y - m) / t.k, y1: (height - t.y + m) / t.k };
  }

  /**
   * Where the tree's first node is drawn at zoom k: in the graph, far enough below the top for
   * the action edges bent above the first row and their labels; in the rows, ROWS_LEFT in.
   */
  #home(k = 1): ZoomTransform {
    const graph = untrack(() => this.scene.graph);
    return zoomIdentity.translate(graph ? 12 : ROWS_LEFT, graph ? 44 : 12).scale(k);
  }

  #set(t: ZoomTransform): void {
    if (this.#svg && this.#zoomer) select(this.#svg).call(this.#zoomer.transform, t);
  }

  /** An {@attach} for the pane's SVG: d3's zoom and the wheel's scrolling on it while it is there. */
  attach = (svg: SVGSVGElement) => {
    this.#svg = svg;
    const zoomer = d3zoom<SVGSVGElement, unknown>()
      .scaleExtent([0.0005, 4])
      // The wheel scrolls (below); Ctrl+wheel and pinch zoom.
      .filter((e: Event) => (e.type === 'wheel' ? (e as WheelEvent).ctrlKey : e.type !== 'dblclick'))
      .on('zoom', (e: { transform: ZoomTransform }) => (this.transform = e.transform));
    this.#zoomer = zoomer;
    select(svg).call(zoomer).call(zoomer.transform, this.transform);
    const wheel = (e: WheelEvent) => {
      if (e.ctrlKey || !this.#zoomer) return;
      e.preventDefault();
      const k = this.transform.k;
      const dx = e.shiftKey ? e.deltaY : e.deltaX;
      const dy = e.shiftKey ? 0 : e.deltaY;
      select(svg).call(this.#zoomer.translateBy, -dx / k, -dy / k);
    };
    svg.addEventListener('wheel', wheel, { passive: false });
    return () => {
      svg.removeEventListener('wheel', wheel);
      select(svg).on('.zoom', null);
      this.#svg = null;
      this.#zoomer = null;
    };
  };

  /** Back to the tree's first node at zoom 1 (a new tree). */
  home(): void {
    this.#set(this.#home());
  }

  zoomBy(f: number): void {
    if (this.#svg && this.#zoomer) select(this.#svg).call(this.#zoomer.scaleBy, f);
  }

  /** The whole tree on screen (zoomed in no further than 1). */
  fit(): void {
    const { layout, graph } = this.scene;
    if (!this.#svg || !this.#zoomer || !layout) return;
    if (graph) {
      const w = Math.max(graph.slots - 1, 1) * SLOT_W;
      const h = Math.max(graph.maxDepth, 1) * LEVEL_H;
      const k = Math.min(1, (this.width - 40) / w, (this.height - 60) / h);
      return this.#set(zoomIdentity.translate(20, 20).scale(k));
    }
    const h = layout.rows.length * ROW_H;
    const k = Math.min(1, (this.height - 24) / Math.max(h, 1));
    this.#set(zoomIdentity.translate(ROWS_LEFT, 12).scale(k));
  }

  /** Zooms to the nodes of states [from, to] (the overview's brush): their rows, or their part of the graph. */
  showSeqs(from: number, to: number): void {
    const { tree, layout, graph } = this.scene;
    if (!this.#svg || !this.#zoomer || !layout || !tree) return;
    let x0 = Infinity,
      x1 = -Infinity,
      y0 = Infinity,
      y1 = -Infinity;
    for (let s = Math.max(0, from); s <= Math.min(to, tree.plainOf.length - 1); s++) {
      const i = tree.plainOf[s];
      if (i < 0) continue;
      const p = this.scene.place(i);
      if (p.x < x0) x0 = p.x;
      if (p.x > x1) x1 = p.x;
      if (p.y < y0) y0 = p.y;
      if (p.y > y1) y1 = p.y;
    }
    if (x0 > x1) return;
    const m = 20;
    const { width, height } = this;
    const k = Math.min(
      1,
      (height - 2 * m) / Math.max(y1 - y0, ROW_H),
      graph ? (width - 2 * m) / Math.max(x1 - x0, SLOT_W) : 1,
    );
    // The indented layout keeps the left edge; the graph centres the range.
    const tx = graph ? width / 2 - ((x0 + x1) / 2) * k : ROWS_LEFT;
    this.#set(zoomIdentity.translate(tx, m - y0 * k).scale(k));
  }

  /** Moves the view so node i is on screen, unless it already is (a third in from the left; centred in the graph). */
  reveal(i: number): void {
    const layout = this.scene.layout;
    // Not a node of this tree (a state of the trace before, whose walk landed late): its NaN place
    // would make the zoom NaN, the whole pane's "translate(NaN,NaN)".
    if (!layout || !this.#svg || !this.#zoomer || !(i >= 0 && i < layout.rowOf.length)) return;
    const p = this.scene.place(i);
    if (!this.#onScreen(p)) this.#lookAt(p);
  }

  /** An open item: its target (where the ghosts stand) and the node where the model was asked
   * (from), both in view when they fit on screen at this zoom, else the target. */
  revealItem(from: number, target: number): void {
    if (!this.scene.layout || !this.#svg || !this.#zoomer || target < 0) return;
    const b = this.scene.place(target);
    const a = from >= 0 ? this.scene.place(from) : b;
    if (this.#onScreen(a) && this.#onScreen(b)) return;
    const fits = Math.abs(b.y - a.y) * untrack(() => this.transform).k < this.height - 80;
    this.#lookAt(fits ? { x: Math.min(a.x, b.x), y: (a.y + b.y) / 2 } : b);
  }

  /** Whether a point in tree coordinates is on screen with the current transform. */
  #onScreen(p: Point): boolean {
    const t = untrack(() => this.transform);
    const y = p.y * t.k + t.y;
    const x = p.x * t.k + t.x;
    return y >= 10 && y <= this.height - 10 && x >= 0 && x <= this.width - 40;
  }

  #lookAt(p: Point): void {
    const t = untrack(() => this.transform);
    const g = this.scene.graph;
    const { width, height } = this;
    select(this.#svg!).call(
      this.#zoomer!.translateTo,
      g ? p.x : p.x + width / 3 / t.k,
      g ? p.y + height / 6 / t.k : p.y,
    );
  }

  /**
   * The camera's own effects (call during the pane's creation, after the pane's effect that
   * reveals the current node: when both run at once, the later ones decide).
   */
  follow(focus: Focus): void {
    // The shape drawn: back home at the same zoom, with the current node (or the selected one,
    // or the root) in view.
    let lastShape = untrack(() => focus.shape);
    $effect(() => {
      if (!this.scene.layout || focus.shape === lastShape) return;
      lastShape = focus.shape;
      untrack(() => {
        this.#set(this.#home(this.transform.k));
        this.reveal(focus.current >= 0 ? focus.current : focus.selected >= 0 ? focus.selected : 0);
      });
    });

    // The open item (its target pinned): its target and ghosts in view, with the node where the
    // model was asked when both fit.
    let lastPinned = '';
    $effect(() => {
      const key = focus.pinned.join(',');
      if (!this.scene.layout || key === lastPinned) return;
      lastPinned = key;
      const target = focus.pinned[0] ?? -1;
      if (target >= 0) untrack(() => this.revealItem(focus.current, target));
    });

    // The selected state (picked in a tree, the call stack, a search): itself in the tree it
    // was picked in, its twin in the other one.
    $effect(() => {
      const sel = focus.selection;
      const tree = this.scene.tree;
      if (!tree || !sel) return;
      untrack(() => {
        const node = focus.selected >= 0 ? focus.selected : tree.plainOf[sel.seq];
        if (node !== focus.current) this.reveal(node);
      });
    });
  }
}
