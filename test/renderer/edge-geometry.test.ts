// The action edges' label chips (renderer/src/views/tree/edge-geometry.ts): step into and step
// over from a call lead to the same next row, and their chips sat on top of each other (the
// explorer's screenshot at 1280 wide showed "step over" over "step into").
import { describe, expect, it } from 'vitest';
import { chipWidth, edgeGeometry, separateLabels, type Point } from '../../renderer/src/views/tree/edge-geometry.js';

type Chip = { lx: number; ly: number; w: number; h: number };
const overlaps = (a: Chip, b: Chip) =>
  Math.abs(a.lx - b.lx) < (a.w + b.w) / 2 && Math.abs(a.ly - b.ly) < (a.h + b.h) / 2;
const moved = (chips: Chip[], at: Point[]) => chips.map((c, i) => ({ ...c, lx: at[i].x, ly: at[i].y }));
const pairs = (cs: Chip[]) => cs.flatMap((a, i) => cs.slice(i + 1).map((b) => [a, b] as const));
const opts = { size: 1, marker: false, labelMinX: -Infinity, labelMinY: -Infinity };

describe('action edge labels', () => {
  it('two actions to the next row (rows shape, bent to either side): the chips overlap as drawn, and are moved apart', () => {
    // A chip's box is its 15 px rectangle and its 1 px outline (half outside): 16 px high.
    const from = { x: 665, y: 422 };
    const to = { x: 665, y: 442 };
    const chips = [
      edgeGeometry(from, to, { ...opts, label: 'step into', bend: -30 }),
      edgeGeometry(from, to, { ...opts, label: 'step over', bend: 30 }),
    ];
    expect(overlaps(chips[0], chips[1])).toBe(true);
    const at = separateLabels(chips, from);
    expect(at[0]).toEqual({ x: chips[0].lx, y: chips[0].ly });
    expect(overlaps(...(moved(chips, at) as [Chip, Chip]))).toBe(false);
    expect(chips[0].h).toBe(16);
    // Below the current node, so the second moves down, just past the first (2 px apart).
    expect(at[1].y).toBeCloseTo(chips[0].ly + 16 + 2);
    expect(at[1].x).toBe(chips[1].lx);
  });

  it('chips above the node they leave move up; a chip that would cross the top of the view moves right instead', () => {
    const chip = (ly: number, label = 'step over'): Chip => ({ lx: 100, ly, w: chipWidth(label) + 1, h: 16 });
    const origin = { x: 100, y: 200 };
    const up = separateLabels([chip(150), chip(152), chip(149)], origin);
    expect(up.map((p) => p.y)).toEqual([150, 150 - 18, 150 - 36]);
    const top = separateLabels([chip(150), chip(152), chip(151)], origin, 1, 140);
    const w = chipWidth('step over') + 1;
    expect(top).toEqual([
      { x: 100, y: 150 },
      { x: 100 + w + 2, y: 152 },
      { x: 100 + 2 * (w + 2), y: 151 },
    ]);
  });

  it('many chips near one another: none overlaps another, whatever their order', () => {
    // Every action of a state, its edges to rows close together, at zoom 1 and zoomed out.
    for (const size of [1, 0.6]) {
      const from = { x: 300, y: 300 };
      const labels = ['step into', 'step over', 'step out', 'continue', 'step_return', 'inv_step_into'];
      const chips = labels.map((label, i) =>
        edgeGeometry(
          from,
          { x: 300 + (i % 2) * 10, y: 320 + i * 6 },
          { ...opts, size, label, bend: (i % 2 ? 1 : -1) * (30 + i * 5) },
        ),
      );
      for (const order of [chips, [...chips].reverse()]) {
        const placed = moved(order, separateLabels(order, from, size));
        for (const [a, b] of pairs(placed)) expect(overlaps(a, b)).toBe(false);
      }
    }
  });

  it('chips that do not touch keep their places', () => {
    const from = { x: 0, y: 0 };
    const chips = [
      edgeGeometry(from, { x: 0, y: 100 }, { ...opts, label: 'step into', bend: -30 }),
      edgeGeometry(from, { x: 0, y: 300 }, { ...opts, label: 'step over', bend: 30 }),
    ];
    expect(separateLabels(chips, from)).toEqual(chips.map((c) => ({ x: c.lx, y: c.ly })));
  });
});
