/**
 * A run's verdicts summed per item (what the dashboard computes its scores, intervals and
 * comparisons from). Every figure of `stepscope scores` is a sum of these counts (or, for
 * pass@k and the interval, a function of each item's `correct` tally).
 *
 * SQL sums a run's predictions per item in one pass over the covering index
 * `predictions_verdicts` (migration 008), in index order, one row per item. `foldVerdicts`
 * makes the same sums from rows (`itemVerdictsOf` over `verdictRows`, one row per
 * prediction); the tests hold both equal.
 */
import type Database from 'better-sqlite3';
import { FIELDS, type Field } from '../../semantics/eval.js';
import { ITEM_DEPTH_CTE, type ItemFacts, type VerdictRow } from './predictions.js';

/** Of `n` samples with a verdict (not null), `ok` right. */
export interface Tally {
  n: number;
  ok: number;
}

/** One item's verdicts in one run (an item without predictions has none). */
export interface ItemVerdicts extends ItemFacts {
  samples: number;
  formatErrors: number;
  /** Exact match per field over the samples where it applies, and the format errors among those samples. */
  em: Record<Field | 'all', Tally & { formatErrors: number }>;
  /** The execution check: CRUXEval's where there is one, else the valid-alternative check. */
  exec: Tally;
  /** What pass@k counts (the `correct` column). */
  correct: Tally;
  /** The first sample's `correct` (null: pending or not applicable): what comparing two runs reads. */
  first: boolean | null;
  /** Samples with a check still pending. */
  pending: number;
}

/**
 * A combination of verdicts: `n` predictions of one item with these verdicts, the first of them sample `firstSample`.
 */
export type VerdictCombo = Pick<
  VerdictRow,
  'itemId' | 'formatError' | 'em' | 'exec' | 'alt' | 'correct' | 'pending'
> & { n: number; firstSample: number };

/** What an item is, for grouping: its action, trace and depth (the keys of `ItemVerdicts`). */
export type ItemKeys = Pick<ItemVerdicts, 'itemId' | 'action' | 'direction' | 'horizon' | 'traceEvents' | 'depth'>;

const EM = [...FIELDS, 'all'] as const;
const add = (t: Tally, v: boolean | null, n: number) => {
  if (v === null) return;
  t.n += n;
  if (v) t.ok += n;
};

const tallies = (): ItemVerdicts['em'] => {
  const t = () => ({ n: 0, ok: 0, formatErrors: 0 });
  return { event: t(), src: t(), locals: t(), arg: t(), all: t() }; // a literal: fast property access
};

/** Sums combinations per item, in the order items first appear. */
export function foldVerdicts(combos: Iterable<VerdictCombo>, keysOf: (itemId: number) => ItemKeys): ItemVerdicts[] {
  const items = new Map<number, ItemVerdicts>();
  const firstSample = new Map<number, number>();
  for (const c of combos) {
    let it = items.get(c.itemId);
    if (!it) {
      const { itemId, action, direction, horizon, traceEvents, depth } = keysOf(c.itemId);
      it = {
        itemId,
        action,
        direction,
        horizon,
        traceEvents,
        depth,
        samples: 0,
        formatErrors: 0,
        em: tallies(),
        exec: { n: 0, ok: 0 },
        correct: { n: 0, ok: 0 },
        first: c.correct,
        pending: 0,
      };
      items.set(c.itemId, it);
      firstSample.set(c.itemId, c.firstSample);
    }
    it.samples += c.n;
    if (c.formatError === true) it.formatErrors += c.n;
    for (const f of EM) {
      add(it.em[f], c.em[f], c.n);
      if (c.em[f] !== null && c.formatError === true) it.em[f].formatErrors += c.n;
    }
    add(it.exec, c.exec ?? c.alt, c.n);
    add(it.correct, c.correct, c.n);
    if (c.pending) it.pending += c.n;
    if (c.firstSample < firstSample.get(c.itemId)!) {
      it.first = c.correct;
      firstSample.set(c.itemId, c.firstSample);
    }
  }
  return [...items.values()];
}

// The generated columns are written out over the indexed statuses (SQLite does not read a
// VIRTUAL column's value from an index holding its inputs).
const PASS = (c: string) =>
  `(CASE WHEN ${c}_status IS NULL OR ${c}_status = 'pending' THEN NULL ELSE ${c}_status = 'pass' END)`;
const CORRECT = `(CASE WHEN exec_status = 'pending' THEN NULL WHEN exec_status IS NOT NULL THEN exec_status = 'pass' ELSE em_all END)`;
const EXEC = `coalesce(${PASS('exec')}, ${PASS('alt')})`; // foldVerdicts: exec ?? alt

/**
 * Per item: samples, format errors, then per field (event … all) applicable samples, right ones and format
 * errors among them, then exec and correct (applicable, right), pending, the first sample and its `correct`.
 * `count(x)` counts non-null values; `total` of a 0/1 column counts its ones. With one min() in the query,
 * SQLite takes the bare column (`correct`) from the row holding the minimum: the first sample's.
 */
const PER_ITEM = `SELECT item_id, count(*), total(format_error),
  ${EM.map((f) => `count(em_${f}), total(em_${f}), total(em_${f} IS NOT NULL AND format_error)`).join(',\n  ')},
  count(${EXEC}), total(${EXEC}), count(${CORRECT}), total(${CORRECT}),
  total(exec_status = 'pending' OR alt_status = 'pending'), min(sample), ${CORRECT}
  FROM predictions INDEXED BY predictions_verdicts WHERE run_id = ? GROUP BY item_id`;

const bool = (x: number | null) => (x === null ? null : x === 1);

/** The items of a run's set, by id, with what groups them. */
function itemKeys(db: Database.Database, runId: number): Map<number, ItemKeys> {
  const rows = db
    .prepare(
      `${ITEM_DEPTH_CTE}
      SELECT i.id, i.action, i.direction, i.horizon, t.events, depth.d FROM evalset_items i JOIN traces t ON t.id = i.trace_id
      LEFT JOIN depth ON depth.item = i.id WHERE i.set_id = (SELECT set_id FROM runs WHERE id = @run)`,
    )
    .raw()
    .all({ run: runId }) as [number, string, string, number | null, number, number | null][];
  return new Map(
    rows.map(([itemId, action, direction, horizon, traceEvents, depth]) => [
      itemId,
      { itemId, action, direction, horizon, traceEvents, depth },
    ]),
  );
}

/**
 * A run's verdicts summed per item by SQL in one pass over the covering index (one row per item, in item
 * order); the same sums as `foldVerdicts` over the run's rows.
 */
export function itemVerdicts(db: Database.Database, runId: number): ItemVerdicts[] {
  const keys = itemKeys(db, runId);
  const rows = db.prepare(PER_ITEM).raw().all(runId) as number[][];
  return rows.map((v) => {
    const em = tallies();
    EM.forEach((f, i) => {
      const t = em[f];
      t.n = v[3 + 3 * i];
      t.ok = v[4 + 3 * i];
      t.formatErrors = v[5 + 3 * i];
    });
    const { itemId, action, direction, horizon, traceEvents, depth } = keys.get(v[0])!;
    return {
      itemId,
      action,
      direction,
      horizon,
      traceEvents,
      depth,
      samples: v[1],
      formatErrors: v[2],
      em,
      exec: { n: v[18], ok: v[19] },
      correct: { n: v[20], ok: v[21] },
      first: bool(v[24]),
      pending: v[22],
    };
  });
}
