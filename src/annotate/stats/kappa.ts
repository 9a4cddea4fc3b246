/**
 * Cohen's kappa for two annotators on nominal categories (Cohen, "A coefficient of agreement
 * for nominal scales", 1960): κ = (p_o − p_e) / (1 − p_e), with p_e from each annotator's
 * own category proportions.
 */

export interface KappaResult {
  /** null when undefined: no items, or both annotators used one and the same category throughout (p_e = 1). */
  kappa: number | null;
  /** p_o: the share of items both put in the same category. */
  observed: number;
  /** p_e: the agreement expected by chance. */
  expected: number;
  items: number;
}

/** One pair per item both annotators labeled: [category of A, category of B]. */
export function cohenKappa(pairs: readonly (readonly [string, string])[]): KappaResult {
  const n = pairs.length;
  if (n === 0) return { kappa: null, observed: 0, expected: 0, items: 0 };
  const a = new Map<string, number>();
  const b = new Map<string, number>();
  let same = 0;
  for (const [x, y] of pairs) {
    if (x === y) same++;
    a.set(x, (a.get(x) ?? 0) + 1);
    b.set(y, (b.get(y) ?? 0) + 1);
  }
  let expected = 0;
  for (const [c, na] of a) expected += (na / n) * ((b.get(c) ?? 0) / n);
  const observed = same / n;
  const kappa = expected === 1 ? null : (observed - expected) / (1 - expected);
  return { kappa, observed, expected, items: n };
}
