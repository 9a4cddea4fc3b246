/**
 * A small seeded PRNG (mulberry32) and a hash to derive independent seeds, so sampling is
 * reproducible across runs and machines (Math.random is never used).
 */

export type Rng = () => number;

/** mulberry32: uniform floats in [0, 1) from a 32-bit seed. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mixes numbers and strings into one 32-bit seed (FNV-1a over the parts, then a murmur3 finaliser). */
export function seedFrom(...parts: (number | string)[]): number {
  let h = 0x811c9dc5;
  const mix = (x: number) => {
    h ^= x & 0xffff;
    h = Math.imul(h, 0x01000193);
    h ^= x >>> 16;
    h = Math.imul(h, 0x01000193);
  };
  for (const p of parts) {
    if (typeof p === 'number') {
      mix(p >>> 0);
      mix(Math.floor(p / 4294967296) >>> 0);
    } else {
      for (let i = 0; i < p.length; i++) mix(p.charCodeAt(i));
      mix(p.length);
    }
    mix(0x9e37);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Index drawn from non-negative weights (at least one positive). */
export function pickWeighted(rng: Rng, weights: readonly number[]): number {
  let total = 0;
  for (const w of weights) total += w;
  let x = rng() * total;
  for (let i = 0; i < weights.length; i++) {
    if (weights[i] <= 0) continue;
    x -= weights[i];
    if (x < 0) return i;
  }
  // Rounding can leave x at 0 after the last positive weight.
  for (let i = weights.length - 1; i >= 0; i--) if (weights[i] > 0) return i;
  throw new RangeError('pickWeighted: no positive weight');
}
