// pass@k against the definition 1 - C(n-c, k) / C(n, k), computed exactly with BigInt
// binomials (an independent route from the product form under test).
import { describe, expect, it } from 'vitest';
import { meanPassAtK, passAtK } from '../../src/scoring/passk.js';

function binom(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let r = 1n;
  for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i);
  return r;
}
function byDefinition(n: number, c: number, k: number): number {
  // 1 - C(n-c,k)/C(n,k) with 15 significant digits kept through the division.
  const scale = 10n ** 18n;
  return 1 - Number((binom(n - c, k) * scale) / binom(n, k)) / 1e18;
}

describe('pass@k, the unbiased estimator', () => {
  it('equals 1 - C(n-c,k)/C(n,k) on every count up to n = 20 and on large n', () => {
    const cases: [number, number, number][] = [];
    for (let n = 1; n <= 20; n++)
      for (let c = 0; c <= n; c++) for (const k of [1, 2, 5, 10]) if (k <= n) cases.push([n, c, k]);
    cases.push([200, 3, 100], [1000, 1, 10], [1000, 999, 10], [150, 75, 50]);
    for (const [n, c, k] of cases)
      expect(passAtK(n, c, k), `n=${n} c=${c} k=${k}`).toBeCloseTo(byDefinition(n, c, k), 12);
  });

  it('gives the textbook values: pass@1 = c/n, all correct = 1, none correct = 0', () => {
    expect(passAtK(10, 3, 1)).toBeCloseTo(0.3, 15);
    expect(passAtK(10, 10, 5)).toBe(1);
    expect(passAtK(10, 0, 10)).toBe(0);
    expect(passAtK(10, 1, 10)).toBe(1); // every 10-subset of 10 holds the correct one
    expect(passAtK(10, 2, 5)).toBeCloseTo(1 - 56 / 252, 15); // C(8,5)/C(10,5)
  });

  it('is null (not estimable) when k exceeds the number of samples', () => {
    expect(passAtK(3, 1, 5)).toBeNull();
    expect(passAtK(0, 0, 1)).toBeNull();
  });

  it('refuses impossible counts', () => {
    expect(() => passAtK(5, 6, 1)).toThrow(/0 <= c <= n/);
    expect(() => passAtK(5, 1, 0)).toThrow(/k >= 1/);
    expect(() => passAtK(5.5, 1, 1)).toThrow(RangeError);
  });

  it('averages over items as a percentage, null when any item is too small', () => {
    expect(
      meanPassAtK(
        [
          { n: 10, c: 5 },
          { n: 10, c: 0 },
        ],
        1,
      ),
    ).toBeCloseTo(25, 12);
    expect(
      meanPassAtK(
        [
          { n: 10, c: 5 },
          { n: 3, c: 3 },
        ],
        5,
      ),
    ).toBeNull();
    expect(meanPassAtK([], 1)).toBeNull();
  });
});
