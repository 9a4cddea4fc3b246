/**
 * Where an edge (Edge.svelte) draws its curve, arrowhead and label chip, in tree coordinates;
 * and `separateLabels`, which moves the chips of several edges apart so none covers another
 * (two actions to one node, or to neighbouring rows, put their chips within a few pixels).
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
  o: { label: string; bend: number; size: number; marker: boolean; labelMinX: number; labelMinY: number },
): EdgeGeometry {
  const { size } = o;
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

/**
 * The chips' centres moved apart so that no two overlap. Chips are placed in the order given
 * (the first keeps its place); a chip that overlaps one placed before moves away from `origin`
 * (the node the edges leave: down when the chip is below it, up when above), just past the
 * chip in its way, until it is clear. Moving away from the origin keeps chips off the
 * current node's dot and label, which the layers already bend the edges clear of. A chip that
 * would cross `minY` (the view's top) moving up moves right instead, at its own height.
 */
export function separateLabels(
  chips: { lx: number; ly: number; w: number; h: number }[],
  origin: Point,
  size = 1,
  minY = -Infinity,
): Point[] {
  const placed: { x: number; y: number; w: number; h: number }[] = [];
  const gap = GAP * size;
  for (const c of chips) {
    const dir = c.ly < origin.y ? -1 : 1;
    let [x, y, sideways] = [c.lx, c.ly, false];
    // Each pass moves past one chip in the way, always further in one direction, so no chip is
    // in the way twice: n chips need n passes, and n more after turning right at the top.
    for (let pass = 0; pass <= 2 * placed.length + 1; pass++) {
      const hit = placed.find((p) => Math.abs(p.x - x) < (p.w + c.w) / 2 && Math.abs(p.y - y) < (p.h + c.h) / 2);
      if (!hit) break;
      if (sideways) x = hit.x + (hit.w + c.w) / 2 + gap;
      else if (dir > 0 || hit.y - (hit.h + c.h) / 2 - gap - c.h / 2 >= minY)
        y = hit.y + dir * ((hit.h + c.h) / 2 + gap);
      else [sideways, y] = [true, c.ly];
    }
    placed.push({ x, y, w: c.w, h: c.h });
  }
  return placed.map((p) => ({ x: p.x, y: p.y }));
}
