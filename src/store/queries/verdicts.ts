/**
 * A run's verdicts summed per item (what the dashboard computes its scores, intervals and
 * comparisons from). Every figure of `stepscope scores` is a sum of these counts (or, for
 * pass@k and the interval, a function of each item's `correct` tally).
 *
 * SQL groups a run's predictions by item and combination of verdicts, over the covering index
 * `predictions_verdicts` (migration 008), in index order: k samples of an item make at most k
 * combinations and usually a few, so 100,000 predictions come back as some 20,000 rows, which
 * `foldVerdicts` sums per item. `stepscope scores` folds `verdictRows` (one row per
 * prediction, each a combination of one) instead; the tests hold both equal.
 */
import type Database from 'better-sqlite3';
import { FIELDS, type Field } from '../../semantics/eval.js';
import type { FieldVerdicts } from '../../semantics/score.js';
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
// VIRTUAL column's value from an index holding its inputs); as expressions of the grouped
// columns they are computed once per combination.
const PASS = (c: string) =>
  `(CASE WHEN ${c}_status IS NULL OR ${c}_status = 'pending' THEN NULL ELSE ${c}_status = 'pass' END)`;
const CORRECT = `(CASE WHEN exec_status = 'pending' THEN NULL WHEN exec_status IS NOT NULL THEN exec_status = 'pass' ELSE em_all END)`;
const VERDICTS = `format_error, ${EM.map((f) => `em_${f}`).join(', ')}, exec_status, alt_status`;

const bool = (x: number | null) => (x === null ? null : x === 1);

/** A run's verdict combinations (item order). */
function verdictCombos(db: Database.Database, runId: number): VerdictCombo[] {
  const rows = db
    .prepare(
      `SELECT item_id, format_error, ${EM.map((f) => `em_${f}`).join(', ')}, ${PASS('exec')}, ${PASS('alt')}, ${CORRECT},
        (exec_status = 'pending' OR alt_status = 'pending'), count(*), min(sample)
      FROM predictions INDEXED BY predictions_verdicts WHERE run_id = ? GROUP BY item_id, ${VERDICTS}`,
    )
    .raw()
    .all(runId) as (number | null)[][];
  return rows.map((v) => {
    const em: FieldVerdicts = {
      event: bool(v[2]),
      src: bool(v[3]),
      locals: bool(v[4]),
      arg: bool(v[5]),
      all: bool(v[6]),
    };
    return {
      itemId: v[0]!,
      formatError: bool(v[1]),
      em,
      exec: bool(v[7]),
      alt: bool(v[8]),
      correct: bool(v[9]),
      pending: v[10] === 1,
      n: v[11]!,
      firstSample: v[12]!,
    };
  });
}

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

export function itemVerdicts(db: Database.Database, runId: number): ItemVerdicts[] {
  const keys = itemKeys(db, runId);
  return foldVerdicts(verdictCombos(db, runId), (id) => keys.get(id)!);
}
