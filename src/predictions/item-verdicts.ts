/**
 * A run's verdict rows (one per prediction, `verdictRows`) summed per item, in the rows' order
 * (item order): what `stepscope scores` scores from. Each row is a combination of verdicts of
 * one prediction; the dashboard reads the store's `itemVerdicts`, which SQL groups first.
 */
import { foldVerdicts, type ItemVerdicts, type VerdictRow } from '../store/corpus.js';

export function itemVerdictsOf(rows: readonly VerdictRow[]): ItemVerdicts[] {
  const keys = new Map(rows.map((r) => [r.itemId, r]));
  return foldVerdicts(
    rows.map((r, i) => ({ ...r, n: 1, firstSample: i })),
    (id) => {
      const { itemId, action, direction, horizon, traceEvents, depth } = keys.get(id)!;
      return { itemId, action, direction, horizon, traceEvents, depth };
    },
  );
}
