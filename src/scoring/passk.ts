/**
 * The unbiased pass@k estimator (Chen et al. 2021, as CRUXEval computes it): over n samples
 * of which c are correct, 1 - C(n-c, k) / C(n, k), in the numerically stable product form
 * 1 - Π_{i=n-c+1..n} (1 - k/i). Pure.
 */

/** pass@k of one item as a fraction in [0, 1]; null when k > n (not estimable). */
export function passAtK(n: number, c: number, k: number): number | null {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k) || n < 0 || c < 0 || c > n || k < 1) {
    throw new RangeError(`pass@k needs integers 0 <= c <= n and k >= 1, got n=${n} c=${c} k=${k}`);
  }
  if (k > n) return null;
  if (n - c < k) return 1;
  let miss = 1;
  for (let i = n - c + 1; i <= n; i++) miss *= 1 - k / i;
  return 1 - miss;
}

/**
 * The mean of pass@k over items, as a percentage (CRUXEval's figures); null when there are
 * no items or any item has fewer than k samples.
 */
export function meanPassAtK(items: readonly { n: number; c: number }[], k: number): number | null {
  if (items.length === 0) return null;
  let sum = 0;
  for (const { n, c } of items) {
    const p = passAtK(n, c, k);
    if (p === null) return null;
    sum += p;
  }
  return (sum / items.length) * 100;
}
