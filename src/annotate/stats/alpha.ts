/**
 * Krippendorff's alpha for nominal data, any number of coders, missing values allowed
 * (Krippendorff, "Computing Krippendorff's Alpha-Reliability", 2011), computed from the
 * coincidence matrix: α = 1 − (n − 1) · Σ_{c≠k} o_ck / Σ_{c≠k} n_c·n_k, where a unit with m_u
 * values adds each ordered pair of values from different coders with weight 1/(m_u − 1), and
 * units with fewer than two values are not pairable and left out.
 */

export interface AlphaResult {
  /** null when undefined: no pairable values, or every value is the same category (no expected disagreement). */
  alpha: number | null;
  /** n: the pairable values (in units coded at least twice). */
  values: number;
  /** Units coded at least twice. */
  units: number;
  /** D_o and D_e, the observed and expected disagreement (their ratio is 1 − α). */
  observed: number;
  expected: number;
}

/** `units[u]` holds the values the coders gave unit u; null or undefined where a coder gave none. */
export function krippendorffAlpha(units: readonly (readonly (string | null | undefined)[])[]): AlphaResult {
  const total = new Map<string, number>();
  let n = 0;
  let pairable = 0;
  let disagree = 0; // Σ_{c≠k} o_ck
  for (const unit of units) {
    const counts = new Map<string, number>();
    let m = 0;
    for (const v of unit) {
      if (v === null || v === undefined) continue;
      counts.set(v, (counts.get(v) ?? 0) + 1);
      m++;
    }
    if (m < 2) continue;
    pairable++;
    n += m;
    let squares = 0;
    for (const [v, c] of counts) {
      squares += c * c;
      total.set(v, (total.get(v) ?? 0) + c);
    }
    disagree += (m * m - squares) / (m - 1);
  }
  let squares = 0;
  for (const c of total.values()) squares += c * c;
  const chance = n * n - squares; // Σ_{c≠k} n_c·n_k
  const observed = n === 0 ? 0 : disagree / n;
  const expected = n < 2 ? 0 : chance / (n * (n - 1));
  const alpha = n === 0 || chance === 0 ? null : 1 - ((n - 1) * disagree) / chance;
  return { alpha, values: n, units: pairable, observed, expected };
}
