/**
 * Where an edge (Edge.svelte) draws its curve, arrowhead and label chip, in tree coordinates;
 * and where the action edges' chips go in each shape of a tree (placeRowChips,
 * placeGraphChips) so that none covers a node, its text or another chip.
 */

export interface Point {
  x: number;
  y: number;
}

export interface EdgeGeometry {
  /** The curve (SVG path), a quadratic from `from` to just short of `to`. */
  d: string;
  head: string;
  /** The label chip's centre, and its width and height with its 1 px outline (scaled by `size`). */
  lx: number;
  ly: number;
  w: number;
  h: number;
}

/** A chip is 15 px high, and 6.2 px per character of its 10 px monospace text plus 8 wide. */
export const chipWidth = (label: string) => label.length * 6.2 + 8;
const CHIP_HEIGHT = 15;
/** The chip's outline: 1 px wide, centred on the rectangle's edge, so half a pixel outside it. */
const OUTLINE = 1;
/** Space left between two chips moved apart (unscaled px). */
const GAP = 2;

export function edgeGeometry(
  from: Point,
  to: Point,
  o: {
    label: string;
    bend: number;
    size: number;
    marker: boolean;
    labelMinX: number;
    labelMinY: number;
    /** A point the edge passes through (its chip's end, in the rows shape): a curve to it, then straight on. */
    via?: Point;
  },
): EdgeGeometry {
  const { size } = o;
  if (o.via) return viaGeometry(from, to, o.via, o);
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const len = Math.hypot(dx, dy) || 1;
  // Control point: the middle, pushed sideways by `bend` (a self-loop gets a loop).
  const nx = len > 1 ? -dy / len : 1;
  const ny = len > 1 ? dx / len : 0;
  const b = len > 1 ? o.bend * size : 40 * size;
  const cx = (from.x + to.x) / 2 + nx * b;
  const cy = (from.y + to.y) / 2 + ny * b - (len > 1 ? 0 : 30 * size);
  // Stop short of the target's dot, arrowhead along the curve's last tangent.
  const tx = to.x - cx;
  const ty = to.y - cy;
  const tl = Math.hypot(tx, ty) || 1;
  const stop = (o.marker ? 4 : 8) * size;
  const ex = to.x - (tx / tl) * stop;
  const ey = to.y - (ty / tl) * stop;
  const ah = 7 * size;
  const ux = tx / tl;
  const uy = ty / tl;
  const head = `M${ex},${ey}L${ex - ux * ah - uy * ah * 0.5},${ey - uy * ah + ux * ah * 0.5}L${ex - ux * ah + uy * ah * 0.5},${ey - uy * ah - ux * ah * 0.5}Z`;
  // Label on the curve's middle (t = 1/2 of the quadratic), kept inside the view's top and left.
  const w = chipWidth(o.label);
  const lx = 0.25 * from.x + 0.5 * cx + 0.25 * ex;
  const ly = 0.25 * from.y + 0.5 * cy + 0.25 * ey;
  return {
    d: `M${from.x},${from.y}Q${cx},${cy} ${ex},${ey}`,
    head,
    lx: Math.max(lx, o.labelMinX + (w / 2 + 2) * size),
    ly: Math.max(ly, o.labelMinY + 10 * size),
    w: (w + OUTLINE) * size,
    h: (CHIP_HEIGHT + OUTLINE) * size,
  };
}

/** An edge through `via`: a curve from `from` bent by `bend`, then a straight arrow on to `to`. */
function viaGeometry(
  from: Point,
  to: Point,
  via: Point,
  o: { label: string; bend: number; size: number },
): EdgeGeometry {
  const { size } = o;
  const dx = via.x - from.x;
  const dy = via.y - from.y;
  const len = Math.hypot(dx, dy) || 1;
  const cx = (from.x + via.x) / 2 + (-dy / len) * o.bend * size;
  const cy = (from.y + via.y) / 2 + (dx / len) * o.bend * size;
  const tx = to.x - via.x;
  const ty = to.y - via.y;
  const tl = Math.hypot(tx, ty) || 1;
  const [ux, uy] = [tx / tl, ty / tl];
  const stop = 8 * size;
  const ex = to.x - ux * stop;
  const ey = to.y - uy * stop;
  const ah = 7 * size;
  const head = `M${ex},${ey}L${ex - ux * ah - uy * ah * 0.5},${ey - uy * ah + ux * ah * 0.5}L${ex - ux * ah + uy * ah * 0.5},${ey - uy * ah - ux * ah * 0.5}Z`;
  return {
    d: `M${from.x},${from.y}Q${cx},${cy} ${via.x},${via.y}L${ex},${ey}`,
    head,
    lx: via.x,
    ly: via.y,
    w: (chipWidth(o.label) + OUTLINE) * size,
    h: (CHIP_HEIGHT + OUTLINE) * size,
  };
}

/** An action's label as drawn where the full one has no room: `into`, `over`, `out`, `cont`, `call`, `L12`. */
export function shortLabel(label: string): string {
  const bp = /^breakpoint (L\d+)$/.exec(label);
  if (bp) return bp[1];
  const short: Record<string, string> = { step_return: 'out', continue: 'cont', inv_step_call: 'call' };
  return short[label] ?? label.replace(/^(inv_)?step_/, '');
}

/** Clearance between a chip and the dot of a row it sits beside: the dot and the verdict badge left of it. */
const DOT_CLEAR = 17;
/** A row's text and dot reach this far above and below the row's centre (unscaled: they zoom with the tree). */
const ROW_INK = 8;

export interface RowChip {
  /** The full label and the short one (shortLabel), tried in that order. */
  labels: [string, string];
  /** The row the edge points at (its y), or an exit marker: the chip goes right of it, on its row. */
  anchor: Point;
  /** Width of the exit marker at the anchor (0 for a node). */
  marker: number;
}

export interface PlacedChip {
  x: number;
  y: number;
  label: string;
}

/**
 * Where the action chips of the rows shape go, so that none covers a row's dot or text: a chip
 * beside a node sits left of the dot of every row it spans (in the indentation, where the tree
 * draws only its thin links), on the target's row or the nearest rows above and below it with
 * room, its full label where it fits and its short one else; a chip to an exit sits right of
 * the exit marker, below the last row. A chip whose anchor is off screen, or that fits nowhere
 * on screen, is not drawn (null): its edge keeps its tooltip. `rowX(r)` is the x of row r's
 * dot (undefined past the rows); sizes are unscaled px, times `size` (TreeGeometry.dot).
 */
export function placeRowChips(
  chips: readonly RowChip[],
  o: {
    rowH: number;
    size: number;
    view: { x0: number; x1: number; y0: number; y1: number };
    rowX: (r: number) => number | undefined;
  },
): (PlacedChip | null)[] {
  const { rowH, size, view } = o;
  const h = (CHIP_HEIGHT + OUTLINE) * size;
  const gap = GAP * size;
  const placed: { x: number; y: number; w: number }[] = [];
  const free = (x: number, y: number, w: number) =>
    placed.every((p) => Math.abs(p.x - x) >= (p.w + w) / 2 + gap || Math.abs(p.y - y) >= h + gap);
  /** The x left of which a chip centred at y covers no row's dot or text. */
  const lane = (y: number) => {
    let right = Infinity;
    const reach = h / 2 + ROW_INK;
    for (let r = Math.ceil((y - reach) / rowH); r * rowH < y + reach; r++) {
      const x = o.rowX(r);
      if (x !== undefined) right = Math.min(right, x - DOT_CLEAR * size);
    }
    return right;
  };
  return chips.map((c) => {
    if (c.anchor.y < view.y0 || c.anchor.y > view.y1) return null;
    if (c.marker) {
      for (const label of c.labels) {
        const w = (chipWidth(label) + OUTLINE) * size;
        let x = c.anchor.x + c.marker * size + gap * 2 + w / 2;
        while (!free(x, c.anchor.y, w)) x += w + gap;
        if (x + w / 2 > view.x1) continue;
        placed.push({ x, y: c.anchor.y, w });
        return { x, y: c.anchor.y, label };
      }
      return null;
    }
    // The target's row, then half a row and a row up and down from it, nearest first; on each
    // the full label, else the short one.
    for (let j = 0; j <= 4; j++) {
      const y = c.anchor.y + (j % 2 ? -1 : 1) * Math.ceil(j / 2) * (rowH / 2);
      if (y < view.y0 + h / 2 || y > view.y1 - h / 2) continue;
      const right = Math.min(lane(y), c.anchor.x - DOT_CLEAR * size, view.x1);
      for (const label of c.labels) {
        const w = (chipWidth(label) + OUTLINE) * size;
        const x = right - w / 2;
        if (x - w / 2 < view.x0 + gap || !free(x, y, w)) continue;
        placed.push({ x, y, w });
        return { x, y, label };
      }
    }
    return null;
  });
}

/**
 * Where the action chips of the graph shape go, so that none covers a node or its label: in the
 * free band between two levels (below a level's labels, above the next level's dots: BAND_AT px
 * below a level), the band nearest the middle of the edge, at the middle of its ends' x (kept
 * inside the view's sides: the band covers nothing), moved right past the chips placed before
 * it in that band; a chip to an exit sits right of the exit marker. A chip off screen (its band
 * above or below the view, an exit's marker out of view) is left out (null). Sizes are unscaled
 * px, times `size`.
 */
export function placeGraphChips(
  chips: readonly { from: Point; to: Point; label: string; marker: number }[],
  o: { levelH: number; size: number; view: { x0: number; x1: number; y0: number; y1: number } },
): (Point | null)[] {
  const { levelH, size, view } = o;
  const h = (CHIP_HEIGHT + OUTLINE) * size;
  const gap = GAP * size;
  const placed: { x: number; y: number; w: number }[] = [];
  return chips.map((c) => {
    const w = (chipWidth(c.label) + OUTLINE) * size;
    let x: number;
    let y: number;
    if (c.marker) {
      [x, y] = [c.to.x + c.marker * size + gap * 2 + w / 2, c.to.y];
    } else {
      const mid = (c.from.y + c.to.y) / 2;
      y = Math.round((mid - BAND_AT) / levelH) * levelH + BAND_AT;
      // Keep the band between the edge's ends (an edge within one level: the band above it).
      if (y > Math.max(c.from.y, c.to.y)) y -= levelH;
      // In the band nothing is drawn but links: a chip whose middle is off screen (its target far
      // to one side) comes in to the border, on its edge's way there.
      x = Math.min(Math.max((c.from.x + c.to.x) / 2, view.x0 + w / 2 + gap), view.x1 - w / 2 - gap);
    }
    // Moved right past the chips in its way, or, where that runs off the view, left of them.
    const start = x;
    for (const dir of [1, -1]) {
      x = start;
      for (let pass = 0; pass <= placed.length; pass++) {
        const hit = placed.find((p) => Math.abs(p.x - x) < (p.w + w) / 2 + gap && Math.abs(p.y - y) < h + gap);
        if (!hit) break;
        x = hit.x + dir * ((hit.w + w) / 2 + gap);
      }
      if (x - w / 2 >= view.x0 && x + w / 2 <= view.x1) break;
    }
    const clear = placed.every((p) => Math.abs(p.x - x) >= (p.w + w) / 2 + gap || Math.abs(p.y - y) >= h + gap);
    if (!clear || x - w / 2 < view.x0 || x + w / 2 > view.x1 || y - h / 2 < view.y0 || y + h / 2 > view.y1) return null;
    placed.push({ x, y, w });
    return { x, y };
  });
}

/** The middle of the free band under a graph level: its labels end ~34 px below it, the next level's dots ~55. */
const BAND_AT = 44;
