/**
 * F8 across a whole evaluation set (docs/explorer.md, "Overlay a run on the trees"): the
 * failing items of one run in the order F8 visits them, the next one from where the user is,
 * and what to say at either end of the list. Pure: state/overlay.svelte.ts fetches and opens.
 */
import type { ItemRow } from '@core/contract/index.js';
import { isFailing, itemMark } from './verdict.js';

/** A failing item as F8 needs it: what to open, and where it sits. */
export interface FailingRef {
  id: number;
  key: string;
  traceId: number;
}

/**
 * The run's failing items (fail or format error on the first sample), trace by trace in the
 * order the set first lists each trace, and within a trace in tree order: the forward tree
 * first, then by target node (an exit, which has no node, after the nodes), then by id.
 */
export function failingOrder(rows: readonly ItemRow[], run: string): FailingRef[] {
  const traceRank = new Map<number, number>();
  for (const r of rows) if (!traceRank.has(r.traceId)) traceRank.set(r.traceId, traceRank.size);
  const node = (r: ItemRow) => r.targetNode ?? Number.MAX_SAFE_INTEGER;
  return rows
    .filter((r) => {
      const m = itemMark(r, run);
      return m !== null && isFailing(m.verdict);
    })
    .sort(
      (a, b) =>
        traceRank.get(a.traceId)! - traceRank.get(b.traceId)! ||
        Number(a.direction === 'inverse') - Number(b.direction === 'inverse') ||
        node(a) - node(b) ||
        a.id - b.id,
    )
    .map((r) => ({ id: r.id, key: r.key, traceId: r.traceId }));
}

/**
 * Which item F8 (step 1) or Shift+F8 (step -1) opens: the one after (before) `at`, the index of
 * the open item, wrapping round. With no item of the list open (at = -1), the first (last)
 * failing item of the open trace, else the first (last) of the set.
 */
export function nextFailure(
  list: readonly FailingRef[],
  at: number,
  step: 1 | -1,
  traceId: number | null,
): { index: number; wrapped: boolean } {
  const n = list.length;
  if (at < 0) {
    const here = list.map((f, i) => (f.traceId === traceId ? i : -1)).filter((i) => i >= 0);
    if (here.length) return { index: step > 0 ? here[0] : here[here.length - 1], wrapped: false };
    return { index: step > 0 ? 0 : n - 1, wrapped: false };
  }
  const raw = at + step;
  return { index: (raw + n) % n, wrapped: raw < 0 || raw >= n };
}

/** What the bar says beside "n of m" after a jump to `index`: an end reached, or wrapped round. */
export function failureNote(index: number, n: number, step: 1 | -1, wrapped: boolean): string | null {
  if (n === 1) return 'the only failing item';
  if (wrapped) return step > 0 ? 'wrapped round to the first failing item' : 'wrapped round to the last failing item';
  if (step > 0 && index === n - 1) return 'last failing item; F8 again wraps to the first';
  if (step < 0 && index === 0) return 'first failing item; Shift+F8 again wraps to the last';
  return null;
}
