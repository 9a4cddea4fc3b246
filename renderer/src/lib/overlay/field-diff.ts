/**
 * Predicted against true, field by field (the inspector's diff view, docs/explorer.md): the
 * event, the source line, each local (missing: the truth has it and the prediction not;
 * invented: the other way round; changed: both, different values, with a character-level
 * diff from the `diff` package) and the return or exception value. Values are compared as
 * the scorer compares them (src/semantics/score.ts): JSON values, object keys in any order.
 */
import { diffChars } from 'diff';
import type { Prediction } from '@core/semantics/parse.js';
import type { TargetFields } from '@core/semantics/eval.js';
import type { JsonValue } from '@core/semantics/json-parse.js';
import { jsonEqual } from '@core/semantics/score.js';

export type FieldStatus = 'same' | 'changed' | 'missing' | 'invented';

export interface DiffPart {
  text: string;
  /** In the prediction only (added) or in the truth only (removed). */
  op: 'same' | 'added' | 'removed';
}

export interface FieldRow {
  field: 'event' | 'src' | 'local' | 'arg';
  /** The local's name. */
  name?: string;
  status: FieldStatus;
  truth: string | null;
  predicted: string | null;
  /** For a changed value: truth → prediction, character by character. */
  parts?: DiffPart[];
}

/** A value as shown: a repr string as is, anything else (a model may write a number) as JSON. */
const show = (v: JsonValue | undefined): string | null =>
  v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v);

export function charDiff(truth: string, predicted: string): DiffPart[] {
  return diffChars(truth, predicted).map((c) => ({
    text: c.value,
    op: c.added ? 'added' : c.removed ? 'removed' : 'same',
  }));
}

function row(
  field: FieldRow['field'],
  truth: JsonValue | undefined,
  predicted: JsonValue | undefined,
  name?: string,
): FieldRow {
  const t = show(truth);
  const p = show(predicted);
  const base = { field, ...(name === undefined ? {} : { name }), truth: t, predicted: p };
  if (truth === undefined) return { ...base, status: 'invented' };
  if (predicted === undefined) return { ...base, status: 'missing' };
  if (jsonEqual(truth, predicted)) return { ...base, status: 'same' };
  return { ...base, status: 'changed', parts: charDiff(t ?? 'null', p ?? 'null') };
}

/**
 * The rows for a prediction (null: a format error, every true field missing). Fields the
 * truth does not have and the prediction does not write are left out; locals in the truth's
 * order, then the invented ones in the prediction's.
 */
export function fieldDiff(truth: TargetFields, p: Prediction | null): FieldRow[] {
  const rows: FieldRow[] = [row('event', truth.event, p?.event)];
  if (truth.src !== undefined || p?.src !== undefined) rows.push(row('src', truth.src, p?.src));
  const tl = truth.locals;
  const pl = p?.locals;
  if (tl)
    for (const [k, v] of Object.entries(tl))
      rows.push(row('local', v, pl && Object.hasOwn(pl, k) ? pl[k] : undefined, k));
  if (pl)
    for (const [k, v] of Object.entries(pl)) if (!tl || !Object.hasOwn(tl, k)) rows.push(row('local', undefined, v, k));
  if (truth.arg !== undefined || (p && 'arg' in p && p.arg !== undefined)) rows.push(row('arg', truth.arg, p?.arg));
  return rows;
}

/**
 * k samples: groups of samples that predict the same state (parsed fields equal as the
 * scorer compares them; unreadable or benchmark texts by their trimmed text), largest first.
 */
export function agreement(samples: { parsed: Prediction | null; completion: string }[]): number[][] {
  const groups: { key: Prediction | string; members: number[] }[] = [];
  samples.forEach((s, i) => {
    const key: Prediction | string = s.parsed ?? s.completion.trim();
    const g = groups.find((x) =>
      typeof x.key === 'string' || typeof key === 'string'
        ? x.key === key
        : jsonEqual(x.key as unknown as JsonValue, key as unknown as JsonValue),
    );
    if (g) g.members.push(i);
    else groups.push({ key, members: [i] });
  });
  return groups.map((g) => g.members).sort((a, b) => b.length - a.length || a[0] - b[0]);
}

/** The completion split at its special tokens (`<|…|>`), for highlighting. */
export function tokenParts(text: string): { text: string; token: boolean; offset: number }[] {
  const out: { text: string; token: boolean; offset: number }[] = [];
  const re = /<\|[a-z_]+\|>/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) out.push({ text: text.slice(last, m.index), token: false, offset: last });
    out.push({ text: m[0], token: true, offset: m.index });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last), token: false, offset: last });
  return out;
}

/** One run's side of a row of `pairDiff`. */
export interface PairSide {
  status: FieldStatus;
  predicted: string | null;
  parts?: DiffPart[];
}

export interface PairRow {
  field: FieldRow['field'];
  name?: string;
  truth: string | null;
  /** One per prediction, in the order given. */
  sides: PairSide[];
}

const FIELD_ORDER: Record<FieldRow['field'], number> = { event: 0, src: 1, local: 2, arg: 3 };

/**
 * Several predictions against one truth (two runs side by side): the rows of `fieldDiff` of
 * each, joined on field and local name, in the order event, source line, locals (the truth's
 * order, then invented ones), value. A row only another prediction has (a local it invented)
 * is, for this one, absent from both: `same`, nothing predicted.
 */
export function pairDiff(truth: TargetFields, preds: (Prediction | null)[]): PairRow[] {
  const rows = new Map<string, PairRow>();
  preds.forEach((p, j) => {
    for (const r of fieldDiff(truth, p)) {
      const key = `${r.field}:${r.name ?? ''}`;
      let row = rows.get(key);
      if (!row) {
        row = {
          field: r.field,
          ...(r.name === undefined ? {} : { name: r.name }),
          truth: r.truth,
          sides: preds.map(() => ({ status: 'same' as const, predicted: null })),
        };
        rows.set(key, row);
      }
      row.sides[j] = { status: r.status, predicted: r.predicted, ...(r.parts ? { parts: r.parts } : {}) };
    }
  });
  return [...rows.values()].sort((a, b) => FIELD_ORDER[a.field] - FIELD_ORDER[b.field]);
}
