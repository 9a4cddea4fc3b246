/**
 * Scores of a run from its stored verdicts (docs/predictions.md, "Metrics"): what
 * `stepscope scores` prints and the API's scores method returns, computed here only.
 *
 * - em_<field>: the share of samples matching on that field, over the samples whose target
 *   has it; format errors count as wrong;
 * - exec_pass: the share of samples passing their execution check, over those that have one
 *   (CRUXEval's check on CRUXEval sets, the valid-alternative check on inverse predictions of
 *   a call's arguments elsewhere);
 * - pass@k: the unbiased estimator over each item's samples, averaged over items; a sample
 *   is correct by execution where it has a CRUXEval verdict, else by em_all (`correct`);
 * - --by field: one line per field, pass@k on that field's exact match.
 */
import { seedFrom, mulberry32, FIELDS, type Field, type ScoreBy, type ScoreLine } from '../semantics/index.js';
import type { EvalSetRecord, RunRecord, VerdictRow } from '../store/corpus.js';
import { meanPassAtK } from '../scoring/passk.js';

export type Correct = (r: VerdictRow) => boolean | null;

const pct = (num: number, den: number) => (den === 0 ? null : (num / den) * 100);

/** Per item: samples with a verdict (n) and correct ones (c). */
function perItem(rows: readonly VerdictRow[], correct: Correct): { n: number; c: number }[] {
  const items = new Map<number, { n: number; c: number }>();
  for (const r of rows) {
    const ok = correct(r);
    if (ok === null) continue;
    let it = items.get(r.itemId);
    if (!it) items.set(r.itemId, (it = { n: 0, c: 0 }));
    it.n++;
    if (ok) it.c++;
  }
  return [...items.values()];
}

function line(set: string, model: string, by: ScoreBy | null, group: ScoreLine['group'], rows: readonly VerdictRow[], correct: Correct, only?: Field | 'all'): ScoreLine {
  const em = (f: Field | 'all') => {
    if (only !== undefined && only !== f) return null;
    let n = 0;
    let ok = 0;
    for (const r of rows) if (r.em[f] !== null) (n++, r.em[f] && ok++);
    return pct(ok, n);
  };
  let execN = 0;
  let execOk = 0;
  for (const r of rows) {
    const v = r.exec ?? r.alt;
    if (v !== null) (execN++, v && execOk++);
  }
  const items = perItem(rows, correct);
  return {
    set, model, by, group,
    items: new Set(rows.map((r) => r.itemId)).size,
    samples: rows.length,
    format_errors: rows.filter((r) => r.formatError === true).length,
    em_event: em('event'), em_src: em('src'), em_locals: em('locals'), em_arg: em('arg'), em_all: em('all'),
    exec_pass: only === undefined ? pct(execOk, execN) : null,
    'pass@1': meanPassAtK(items, 1), 'pass@5': meanPassAtK(items, 5), 'pass@10': meanPassAtK(items, 10),
  };
}

/** The group value of a row; horizon fractions go to the nearest point of the set's grid. */
export function groupOf(by: Exclude<ScoreBy, 'field'>, set: EvalSetRecord): (r: VerdictRow) => string | number | null {
  if (by === 'action') return (r) => r.action;
  if (by === 'direction') return (r) => r.direction;
  if (by === 'length') return (r) => 2 ** Math.floor(Math.log2(Math.max(1, r.traceEvents)));
  if (by === 'depth') return (r) => r.depth ?? 'exit';
  const points = Number(set.options.per_action);
  return (r) => (r.horizon === null ? null : points >= 2 ? Math.round(r.horizon * (points - 1)) / (points - 1) : r.horizon);
}

/** One line of scores with the rows it was computed from (for intervals). */
export interface ScoreGroup {
  line: ScoreLine;
  rows: readonly VerdictRow[];
  correct: Correct;
}

/** The whole set first (group null), then one group per value of `by` (fields: event, src, locals, arg, all). */
export function scoreGroups(set: EvalSetRecord, run: RunRecord, rows: readonly VerdictRow[], by?: ScoreBy): ScoreGroup[] {
  const group = (g: ScoreLine['group'], rs: readonly VerdictRow[], correct: Correct, only?: Field | 'all'): ScoreGroup => ({
    line: line(set.name, run.label, by ?? null, g, rs, correct, only), rows: rs, correct,
  });
  const out = [group(null, rows, (r) => r.correct)];
  if (by === 'field') {
    for (const f of [...FIELDS, 'all'] as const) {
      const has = rows.filter((r) => r.em[f] !== null);
      if (has.length) out.push(group(f, has, (r) => r.em[f], f));
    }
  } else if (by) {
    const key = groupOf(by, set);
    const groups = new Map<string | number | null, VerdictRow[]>();
    for (const r of rows) {
      const g = key(r);
      if (!groups.has(g)) groups.set(g, []);
      groups.get(g)!.push(r);
    }
    const keys = [...groups.keys()];
    if (by === 'horizon' || by === 'length' || by === 'depth') keys.sort((a, b) => (typeof a !== 'number' ? 1 : typeof b !== 'number' ? -1 : a - b));
    for (const g of keys) out.push(group(g, groups.get(g)!, (r) => r.correct));
  }
  return out;
}

/** The lines of `stepscope scores --json` and of the API's getScores. */
export function scoreLines(set: EvalSetRecord, run: RunRecord, rows: readonly VerdictRow[], by?: ScoreBy): ScoreLine[] {
  return scoreGroups(set, run, rows, by).map((g) => g.line);
}

/**
 * A 95% percentile-bootstrap interval for pass@1 (items resampled with replacement, 2,000
 * times), seeded by the set, the run and the group: the same run prints the same interval.
 */
export function pass1Interval(rows: readonly VerdictRow[], seedParts: (string | number)[], correct: Correct = (r) => r.correct): [number, number] | null {
  const items = perItem(rows, correct).map(({ n, c }) => c / n);
  if (items.length === 0) return null;
  const rng = mulberry32(seedFrom('pass@1 bootstrap', ...seedParts));
  const means: number[] = [];
  for (let b = 0; b < 2000; b++) {
    let sum = 0;
    for (let i = 0; i < items.length; i++) sum += items[Math.floor(rng() * items.length)];
    means.push((sum / items.length) * 100);
  }
  means.sort((a, b) => a - b);
  return [means[Math.floor(0.025 * means.length)], means[Math.ceil(0.975 * means.length) - 1]];
}
