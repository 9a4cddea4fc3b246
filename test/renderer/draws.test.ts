// How the UI names the model's answers to an item: "draw 2 of 5", never "sample 1" beside a
// CRUXEval task id (sample_475) that names the item.
import { describe, expect, it } from 'vitest';
import { drawCount, drawName } from '../../renderer/src/lib/draws.js';

describe('draw names', () => {
  it('numbers draws from 1, with how many there are when given', () => {
    expect(drawName(0)).toBe('draw 1');
    expect(drawName(4, 5)).toBe('draw 5 of 5');
    expect(drawName(1, 10)).toBe('draw 2 of 10');
  });
  it('never reads as a CRUXEval task id', () => {
    for (const n of [0, 1, 474, 475]) expect(drawName(n, 800)).not.toMatch(/sample/);
  });
  it('counts draws in the singular and the plural', () => {
    expect(drawCount(1)).toBe('1 draw');
    expect(drawCount(2)).toBe('2 draws');
  });
});
