/**
 * McNemar's test of paired binary outcomes (two models on the same items). Only the
 * discordant pairs count: b items only A got right, c items only B got right. Pure.
 *
 * - exact: the conditional exact test; under the null, b ~ Binomial(b + c, 1/2), and the
 *   two-sided p-value is twice the smaller tail, at most 1 (1 when b = c);
 * - chi2: the asymptotic test with continuity correction, (|b − c| − 1)² / (b + c), and its
 *   p-value from the χ² distribution with one degree of freedom.
 * Both follow Fagerland, Lydersen & Laake (2013), "The McNemar test for binary matched-pairs
 * data", BMC Med Res Methodol 13:91, whose worked example test/scoring/mcnemar.test.ts checks.
 */

export interface McNemar {
  /** Discordant pairs: only A right (b), only B right (c). */
  b: number;
  c: number;
  /** Two-sided p-value of the exact conditional test; null when there is no discordant pair. */
  exactP: number | null;
  /** The continuity-corrected statistic and its p-value; null when there is no discordant pair. */
  chi2: number | null;
  chi2P: number | null;
}

/** P(X ≤ k) for X ~ Binomial(n, 1/2), summed in log space (2⁻ⁿ underflows past n ≈ 1074). */
function binomCdfHalf(k: number, n: number): number {
  // log C(n, i) by the recurrence C(n, i) = C(n, i − 1)·(n − i + 1)/i, then log-sum-exp.
  const logs: number[] = [0];
  for (let i = 1; i <= k; i++) logs.push(logs[i - 1] + Math.log(n - i + 1) - Math.log(i));
  const top = logs.reduce((a, x) => Math.max(a, x), -Infinity);
  let s = 0;
  for (const l of logs) s += Math.exp(l - top);
  return Math.exp(top + Math.log(s) - n * Math.LN2);
}

/** The complementary error function (Numerical Recipes' erfcc: relative error below 1.2e-7). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

export function mcnemar(b: number, c: number): McNemar {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0)
    throw new RangeError(`McNemar needs counts b, c >= 0, got b=${b} c=${c}`);
  const n = b + c;
  if (n === 0) return { b, c, exactP: null, chi2: null, chi2P: null };
  const exactP = b === c ? 1 : Math.min(1, 2 * binomCdfHalf(Math.min(b, c), n));
  const chi2 = Math.max(0, Math.abs(b - c) - 1) ** 2 / n;
  // P(χ²₁ > x) = erfc(√(x/2)).
  return { b, c, exactP, chi2, chi2P: chi2 === 0 ? 1 : erfc(Math.sqrt(chi2 / 2)) };
}
