/**
 * Level of detail for the tree panes: only rows inside the viewport are drawn, and when more
 * than MAX_DRAWN rows would be visible (zoomed far out) every `stride`-th row stands for its
 * neighbours. This keeps the DOM at a few hundred nodes whatever the trace length.
 */
export const ROW_H = 20;
export const COL_W = 16;
export const MAX_DRAWN = 400;

export function pickRows(
  rows: number,
  t: { y: number; k: number },
  height: number,
): { from: number; to: number; stride: number } {
  const rowPx = ROW_H * t.k;
  const from = Math.max(0, Math.floor(-t.y / rowPx) - 2);
  const to = Math.min(rows, Math.ceil((height - t.y) / rowPx) + 2);
  const stride = Math.max(1, Math.ceil((to - from) / MAX_DRAWN));
  return { from: from - (from % stride), to, stride };
}
