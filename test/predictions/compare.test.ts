// Two runs compared item by item: the first sample decides, pending verdicts and items one run
// did not answer are left out and counted, and the 2×2 counts feed McNemar's b and c.
import { describe, expect, it } from 'vitest';
import { compareItems } from '../../src/predictions/compare.js';
import { itemVerdictsOf } from '../../src/predictions/item-verdicts.js';
import type { VerdictRow } from '../../src/store/corpus.js';
import { verdictRow } from '../helpers/verdict-rows.js';

const row = (itemId: number, action: string, correct: boolean | null): VerdictRow =>
  verdictRow(itemId, correct, { action });

/** Two runs' verdict rows, summed per item as the store sums them. */
const compareRows = (a: VerdictRow[], b: VerdictRow[]) => compareItems(itemVerdictsOf(a), itemVerdictsOf(b));

describe('compareItems', () => {
  it("counts both, only A, only B and neither per action, on each item's first sample", () => {
    const a = [
      row(1, 'step_into', true),
      row(1, 'step_into', false),
      row(2, 'step_into', true),
      row(3, 'step_over', false),
      row(4, 'step_over', false),
      row(5, 'step_over', true),
    ];
    const b = [
      row(1, 'step_into', false),
      row(1, 'step_into', true),
      row(2, 'step_into', true),
      row(3, 'step_over', true),
      row(4, 'step_over', false),
      row(5, 'step_over', null),
    ];
    const c = compareRows(a, b);
    expect(c.groups.map((g) => [g.action, g.items, g.both, g.onlyA, g.onlyB, g.neither])).toEqual([
      [null, 4, 1, 1, 1, 1],
      ['step_into', 2, 1, 1, 0, 0],
      ['step_over', 2, 0, 0, 1, 1],
    ]);
    expect(c.groups[0].mcnemar).toMatchObject({ b: 1, c: 1, exactP: 1 });
    expect(c.differing).toEqual([
      { itemId: 1, action: 'step_into', a: true, b: false },
      { itemId: 3, action: 'step_over', a: false, b: true },
    ]);
    // Item 5: B's verdict pending.
    expect(c.unpaired).toBe(1);
  });

  it('leaves out items only one run answered', () => {
    const c = compareRows(
      [row(1, 'continue', true), row(2, 'continue', true)],
      [row(2, 'continue', false), row(3, 'continue', false)],
    );
    expect(c.groups[0]).toMatchObject({ items: 1, onlyA: 1 });
    expect(c.unpaired).toBe(2);
  });
});

describe('comparing two runs: pending items, and the order items and groups are shown in', () => {
  it('an item pending in the first run is not paired', () => {
    const c = compareItems(
      itemVerdictsOf([verdictRow(1, null), verdictRow(2, true)]),
      itemVerdictsOf([verdictRow(1, true), verdictRow(2, false)]),
    );
    expect(c.groups[0]).toMatchObject({ items: 1, onlyA: 1 });
    expect(c.unpaired).toBe(1);
  });

  it('differing items in item order, action groups in name order, whatever order the verdicts come in', () => {
    const a = [
      verdictRow(3, true, { action: 'step_over' }),
      verdictRow(1, true, { action: 'step_over' }),
      verdictRow(2, false, { action: 'breakpoint' }),
    ];
    const b = [
      verdictRow(2, true, { action: 'breakpoint' }),
      verdictRow(1, false, { action: 'step_over' }),
      verdictRow(3, false, { action: 'step_over' }),
    ];
    const c = compareItems(itemVerdictsOf(a), itemVerdictsOf(b));
    expect(c.differing.map((p) => p.itemId)).toEqual([1, 2, 3]);
    expect(c.groups.map((g) => [g.action, g.items])).toEqual([
      [null, 3],
      ['breakpoint', 1],
      ['step_over', 2],
    ]);
  });
});
