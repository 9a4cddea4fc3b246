// The pass@1 interval's resampling draws its items with mulberry32 written out in a loop: for groups and
// seeds of every kind (seeds above 2^31 included), the interval is the one mulberry32 itself gives.
import { describe, expect, it } from 'vitest';
import { itemVerdictsOf } from '../../src/predictions/item-verdicts.js';
import { pass1Interval } from '../../src/predictions/scores.js';
import { mulberry32, seedFrom } from '../../src/semantics/index.js';
import { verdictRow } from '../helpers/verdict-rows.js';

function reference(values: number[], parts: string[]): [number, number] {
  const rng = mulberry32(seedFrom('pass@1 bootstrap', ...parts));
  const means = Array.from({ length: 2000 }, () => {
    let total = 0;
    for (let i = 0; i < values.length; i++) total += values[Math.floor(rng() * values.length)];
    return (total / values.length) * 100;
  }).sort((a, b) => a - b);
  return [means[50], means[1949]];
}

describe('the pass@1 interval', () => {
  it('draws what mulberry32 draws, whatever the seed', () => {
    let high = 0;
    for (let g = 0; g < 12; g++) {
      const rows = Array.from({ length: 3 + g * 5 }, (_, i) =>
        Array.from({ length: 1 + (i % 4) }, (_, j) => verdictRow(i + 1, (i * 13 + j * g) % 5 < 2)),
      ).flat();
      const items = itemVerdictsOf(rows);
      const parts = ['set', 'model', String(g)];
      if (seedFrom('pass@1 bootstrap', ...parts) >= 2 ** 31) high++;
      const values = items.map((it) => it.correct.ok / it.correct.n);
      expect(pass1Interval(items, parts)).toEqual(reference(values, parts));
    }
    expect(high).toBeGreaterThan(0);
  });
});
