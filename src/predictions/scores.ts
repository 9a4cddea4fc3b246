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
 *
 * Every figure is computed from a run's verdicts summed per item (`ItemVerdicts`: the store's
 * `itemVerdicts`, or `itemVerdictsOf` over its rows), in item order.
 */
import { seedFrom, FIELDS, type Field, type ScoreBy, type ScoreLine } from '../semantics/index.js';
import type { EvalSetRecord, ItemVerdicts, RunRecord } from '../store/corpus.js';
import { meanPassAtK } from '../scoring/passk.js';

const pct = (num: number, den: number) => (den === 0 ? null : (num / den) * 100);
const sum = (items: readonly ItemVerdicts[], of: (it: ItemVerdicts) => number) =>
  items.reduce((s, it) => s + of(it), 0);

/** Per item with a verdict: samples with one (n) and correct ones (c). */
const perItem = (items: readonly ItemVerdicts[]) =>
  items.filter((it) => it.correct.n > 0).map((it) => ({ n: it.correct.n, c: it.correct.ok }));

function line(
  set: string,
  model: string,
  by: ScoreBy | null,
  group: ScoreLine['group'],
  items: readonly ItemVerdicts[],
  only?: Field | 'all',
): ScoreLine {
  const em = (f: Field | 'all') =>
    only !== undefined && only !== f
      ? null
      : pct(
          sum(items, (it) => it.em[f].ok),
          sum(items, (it) => it.em[f].n),
        );
  const passK = perItem(items);
  return {
    set,
    model,
    by,
    group,
    items: items.length,
    samples: sum(items, (it) => it.samples),
    format_errors: sum(items, (it) => it.formatErrors),
    em_event: em('event'),
    em_src: em('src'),
    em_locals: em('locals'),
    em_arg: em('arg'),
    em_all: em('all'),
    exec_pass:
      only === undefined
        ? pct(
            sum(items, (it) => it.exec.ok),
            sum(items, (it) => it.exec.n),
          )
        : null,
    'pass@1': meanPassAtK(passK, 1),
    'pass@5': meanPassAtK(passK, 5),
    'pass@10': meanPassAtK(passK, 10),
  };
}

/** What groups items: their set's breakdowns are properties of the item, not of a sample. */
type ItemKeys = Pick<ItemVerdicts, 'action' | 'direction' | 'horizon' | 'traceEvents' | 'depth'>;

/** The group value of an item; horizon fractions go to the nearest point of the set's grid. */
export function groupOf(by: Exclude<ScoreBy, 'field'>, set: EvalSetRecord): (r: ItemKeys) => string | number | null {
  if (by === 'action') return (r) => r.action;
  if (by === 'direction') return (r) => r.direction;
  if (by === 'length') return (r) => 2 ** Math.floor(Math.log2(Math.max(1, r.traceEvents)));
  if (by === 'depth') return (r) => r.depth ?? 'exit';
  const points = Number(set.options.per_action);
  return (r) =>
    r.horizon === null ? null : points >= 2 ? Math.round(r.horizon * (points - 1)) / (points - 1) : r.horizon;
}

/**
 * An item restricted to its samples where field f applies, scored on f's exact match (`--by
 * field`). Only the counts a field's line reads are kept.
 */
function onField(it: ItemVerdicts, f: Field | 'all'): ItemVerdicts {
  const t = it.em[f];
  return { ...it, samples: t.n, formatErrors: t.formatErrors, correct: { n: t.n, ok: t.ok } };
}

/** One line of scores with the items it was computed from (for intervals). */
export interface ScoreGroup {
  line: ScoreLine;
  items: readonly ItemVerdicts[];
}

/** The whole set first (group null), then one group per value of `by` (fields: event, src, locals, arg, all). */
export function scoreGroups(
  set: EvalSetRecord,
  run: RunRecord,
  items: readonly ItemVerdicts[],
  by?: ScoreBy,
): ScoreGroup[] {
  const group = (g: ScoreLine['group'], its: readonly ItemVerdicts[], only?: Field | 'all'): ScoreGroup => ({
    line: line(set.name, run.label, by ?? null, g, its, only),
    items: its,
  });
  const out = [group(null, items)];
  if (by === 'field') {
    for (const f of [...FIELDS, 'all'] as const) {
      const has = items.filter((it) => it.em[f].n > 0).map((it) => onField(it, f));
      if (has.length) out.push(group(f, has, f));
    }
  } else if (by) {
    const key = groupOf(by, set);
    const groups = new Map<string | number | null, ItemVerdicts[]>();
    for (const it of items) {
      const g = key(it);
      if (!groups.has(g)) groups.set(g, []);
      groups.get(g)!.push(it);
    }
    const keys = [...groups.keys()];
    if (by === 'horizon' || by === 'length' || by === 'depth')
      keys.sort((a, b) => (typeof a !== 'number' ? 1 : typeof b !== 'number' ? -1 : a - b));
    for (const g of keys) out.push(group(g, groups.get(g)!));
  }
  return out;
}

/** The lines of `stepscope scores --json` and of the API's getScores. */
export function scoreLines(
  set: EvalSetRecord,
  run: RunRecord,
  items: readonly ItemVerdicts[],
  by?: ScoreBy,
): ScoreLine[] {
  return scoreGroups(set, run, items, by).map((g) => g.line);
}

/**
 * A 95% percentile-bootstrap interval for pass@1 (items resampled with replacement, 2,000
 * times), seeded by the set, the run and the group: the same run prints the same interval.
 */
export function pass1Interval(items: readonly ItemVerdicts[], seedParts: (string | number)[]): [number, number] | null {
  const values = Float64Array.from(perItem(items), ({ n, c }) => c / n);
  const len = values.length;
  if (len === 0) return null;
  // mulberry32 (src/semantics/prng.ts) written out in the loop, bit for bit: the draws, and so the interval, are
  // the same as mulberry32(seed)'s; the loop runs 2,000 x items times (20 million for 10,000 items).
  let a = seedFrom('pass@1 bootstrap', ...seedParts) | 0;
  const means = new Float64Array(2000);
  for (let b = 0; b < 2000; b++) {
    let total = 0;
    for (let i = 0; i < len; i++) {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), a | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      total += values[Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * len)];
    }
    means[b] = (total / len) * 100;
  }
  means.sort();
  return [means[Math.floor(0.025 * means.length)], means[Math.ceil(0.975 * means.length) - 1]];
}
