/** A confusion table between two annotators: rows what A said, columns what B said. */

export interface Confusion {
  /** The categories, rows and columns alike: by how often they were used, then by name. */
  categories: string[];
  /** counts[i][j]: items A put in categories[i] and B in categories[j]. */
  counts: number[][];
  items: number;
}

export function confusionTable(pairs: readonly (readonly [string, string])[]): Confusion {
  const freq = new Map<string, number>();
  for (const [a, b] of pairs) for (const c of [a, b]) freq.set(c, (freq.get(c) ?? 0) + 1);
  const categories = [...freq.keys()].sort((x, y) => freq.get(y)! - freq.get(x)! || (x < y ? -1 : x > y ? 1 : 0));
  const index = new Map(categories.map((c, i) => [c, i]));
  const counts = categories.map(() => categories.map(() => 0));
  for (const [a, b] of pairs) counts[index.get(a)!][index.get(b)!]++;
  return { categories, counts, items: pairs.length };
}
