// McNemar's test against published worked examples, not against our own numbers.
import { describe, expect, it } from 'vitest';
import { mcnemar } from '../../src/scoring/mcnemar.js';

describe('McNemar', () => {
  it('gives the published p-values of Fagerland, Lydersen & Laake (2013), Table 1 (Bentur et al.: b = 1, c = 7)', () => {
    // BMC Med Res Methodol 13:91, "An example": exact conditional p = 0.070, asymptotic with
    // continuity correction p = 0.077 (their values, to three decimals). Exact: 2·(1 + 8)/2⁸.
    const r = mcnemar(1, 7);
    expect(r.exactP).toBeCloseTo(0.0703125, 7);
    expect(r.exactP!.toFixed(3)).toBe('0.070');
    expect(r.chi2).toBeCloseTo(25 / 8, 12);
    expect(r.chi2P!.toFixed(3)).toBe('0.077');
  });

  it('is symmetric in A and B, 1 when they differ equally, and empty without discordant pairs', () => {
    expect(mcnemar(7, 1).exactP).toBe(mcnemar(1, 7).exactP);
    expect(mcnemar(5, 5)).toMatchObject({ exactP: 1, chi2: 0, chi2P: 1 });
    expect(mcnemar(0, 0)).toEqual({ b: 0, c: 0, exactP: null, chi2: null, chi2P: null });
    expect(() => mcnemar(-1, 2)).toThrow(RangeError);
  });

  it('stays accurate for large counts (χ²₁ of 6.635 is p = 0.01 in any table)', () => {
    // (|141 − 100| − 1)² / 241 = 6.64: p = 0.01 at one degree of freedom (χ² tables: 6.635).
    const r = mcnemar(100, 141);
    expect(r.chi2).toBeCloseTo(1600 / 241, 12);
    expect(r.chi2P!).toBeGreaterThan(0.009);
    expect(r.chi2P!).toBeLessThan(0.011);
    const big = mcnemar(50_000, 50_000);
    expect(big.exactP).toBe(1);
    expect(mcnemar(50_000, 51_000).exactP!).toBeLessThan(0.01);
  });
});
