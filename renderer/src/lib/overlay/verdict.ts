/**
 * What the overlay marks on a tree node (docs/explorer.md): one verdict per prediction and
 * per item, from the verdict columns the API gives (docs/predictions.md, "Scoring").
 *
 * - `pass`: correct (CRUXEval's execution check where there is one, else exact match on every field);
 * - `alternative`: wrong by exact match, but the predicted arguments give the true call's
 *   value (the valid alternative of an inverse target);
 * - `format`: the completion could not be read;
 * - `fail`: read but wrong; `wrongFields` says which fields;
 * - null: a check still pending.
 * An item's mark is its first sample's verdict (the greedy answer at temperature 0); the
 * inspector lists every sample.
 */
import type { ItemRow, VerdictInfo } from '@core/contract/index.js';
import { FIELDS } from '@core/semantics/eval.js';

export const VERDICTS = ['pass', 'fail', 'format', 'alternative'] as const;
export type OverlayVerdict = (typeof VERDICTS)[number];

export function sampleVerdict(v: Pick<VerdictInfo, 'correct' | 'alt' | 'formatError'>): OverlayVerdict | null {
  if (v.correct === true) return 'pass';
  if (v.alt === 'pass') return 'alternative';
  if (v.formatError === true) return 'format';
  if (v.correct === false) return 'fail';
  return null;
}

/** Fields exact match found wrong (`exec` when only the execution check failed). */
export function wrongFields(v: Pick<VerdictInfo, 'em' | 'exec'>): string[] {
  const out: string[] = FIELDS.filter((f) => v.em[f] === false);
  if (v.exec && v.exec !== 'pass' && v.exec !== 'pending') out.push(`exec ${v.exec}`);
  return out;
}

export interface ItemMark {
  item: ItemRow;
  verdict: OverlayVerdict;
  /** Samples correct, of samples scored. */
  correct: number;
  samples: number;
  wrong: string[];
}

/** The mark of an item for one run (its verdicts filtered to the run), or null (no prediction, or pending). */
export function itemMark(item: ItemRow, run: string): ItemMark | null {
  const vs = item.verdicts.filter((v) => v.run === run).sort((a, b) => a.sample - b.sample);
  if (!vs.length) return null;
  const verdict = sampleVerdict(vs[0]);
  if (!verdict) return null;
  return {
    item,
    verdict,
    correct: vs.filter((v) => v.correct === true).length,
    samples: vs.length,
    wrong: wrongFields(vs[0]),
  };
}

/** Several items on one node: the worst verdict shows (fail, format, alternative, pass). */
const RANK: Record<OverlayVerdict, number> = { fail: 0, format: 1, alternative: 2, pass: 3 };
export function worst(a: ItemMark, b: ItemMark): ItemMark {
  return RANK[b.verdict] < RANK[a.verdict] ? b : a;
}

export const isFailing = (v: OverlayVerdict) => v === 'fail' || v === 'format';
