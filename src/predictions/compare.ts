/**
 * Two runs of one set, item by item (docs/dashboard.md, "Comparing two runs"). An item is
 * right for a run when its first sample is correct (`correct`: CRUXEval's check, else every
 * field), so a run with k samples is compared on what a single answer would have scored. Only
 * items both runs answered with a settled verdict are paired; the rest are counted, not
 * guessed. Per action kind (and for the whole set): the 2×2 counts and McNemar's test.
 */
import { mcnemar, type McNemar } from '../scoring/mcnemar.js';
import type { ItemVerdicts } from '../store/corpus.js';

export interface PairCounts {
  /** The action kind; null for the whole set. */
  action: string | null;
  /** Paired items: both + onlyA + onlyB + neither. */
  items: number;
  both: number;
  onlyA: number;
  onlyB: number;
  neither: number;
  mcnemar: McNemar;
}

export interface PairedItem {
  itemId: number;
  action: string;
  a: boolean;
  b: boolean;
}

export interface Comparison {
  groups: PairCounts[];
  /** Items where exactly one run is right, in item order. */
  differing: PairedItem[];
  /** Items one run did not answer, or whose first verdict is still pending. */
  unpaired: number;
}

/** Each item's first sample's verdict, by item id. */
const firstVerdicts = (items: readonly ItemVerdicts[]) =>
  new Map(items.map((it) => [it.itemId, { action: it.action, ok: it.first }]));

export function compareItems(itemsA: readonly ItemVerdicts[], itemsB: readonly ItemVerdicts[]): Comparison {
  const a = firstVerdicts(itemsA);
  const b = firstVerdicts(itemsB);
  const paired: PairedItem[] = [];
  for (const [itemId, va] of a) {
    const vb = b.get(itemId);
    if (va.ok !== null && vb !== undefined && vb.ok !== null)
      paired.push({ itemId, action: va.action, a: va.ok, b: vb.ok });
  }
  paired.sort((x, y) => x.itemId - y.itemId);
  const allItems = new Set([...a.keys(), ...b.keys()]).size;
  const count = (action: string | null, ps: PairedItem[]): PairCounts => {
    let both = 0,
      onlyA = 0,
      onlyB = 0,
      neither = 0;
    for (const p of ps) p.a ? (p.b ? both++ : onlyA++) : p.b ? onlyB++ : neither++;
    return { action, items: ps.length, both, onlyA, onlyB, neither, mcnemar: mcnemar(onlyA, onlyB) };
  };
  const actions = [...new Set(paired.map((p) => p.action))].sort();
  return {
    groups: [
      count(null, paired),
      ...actions.map((act) =>
        count(
          act,
          paired.filter((p) => p.action === act),
        ),
      ),
    ],
    differing: paired.filter((p) => p.a !== p.b),
    unpaired: allItems - paired.length,
  };
}
