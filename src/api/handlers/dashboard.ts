/** The dashboard's handlers (contract: ../contract/dashboard.ts). */
import { UserError } from '../../common/errors.js';
import { compareRows } from '../../predictions/compare.js';
import { groupOf, pass1Interval, scoreGroups, scoreLines } from '../../predictions/scores.js';
import { itemRow, requireRun, requireSet } from '../../predictions/views.js';
import type { ScoreBy, ScoreLine } from '../../semantics/index.js';
import type { EvalSetRecord, ReadCorpus, RunRecord, VerdictRow } from '../../store/corpus.js';
import { DASHBOARD_BREAKDOWNS, type Api, type DashboardBreakdown, type ScoreInterval } from '../contract/index.js';

type Methods = 'getRunScores' | 'getScoreIntervals' | 'listGroupItems' | 'compareRuns';

/**
 * A run's verdict rows, kept for the runs read last: one dashboard draw reads each run several
 * times (scores, intervals, a clicked group, a comparison), and reading 100,000 predictions
 * takes seconds. A run is read again when its predictions or pending checks change (an import,
 * checks that ran); `--replace` makes a new run.
 */
class VerdictCache {
  #runs = new Map<number, { key: string; rows: VerdictRow[] }>();
  constructor(private readonly corpus: ReadCorpus) {}

  rows(run: RunRecord): VerdictRow[] {
    const key = `${run.created}/${run.predictions}/${run.pending}`;
    const hit = this.#runs.get(run.id);
    if (hit?.key === key) return hit.rows;
    const rows = this.corpus.verdictRows(run.id);
    this.#runs.delete(run.id);
    this.#runs.set(run.id, { key, rows });
    if (this.#runs.size > 4) this.#runs.delete(this.#runs.keys().next().value!);
    return rows;
  }
}

function intervals(set: EvalSetRecord, run: RunRecord, rows: readonly VerdictRow[], by?: ScoreBy): ScoreInterval[] {
  return scoreGroups(set, run, rows, by).map((g) => {
    // Seeded as `stepscope scores` seeds it: the same interval in the table and here.
    const iv = pass1Interval(g.rows, [set.name, run.label, String(g.line.group)], g.correct);
    return { group: g.line.group, lo: iv?.[0] ?? null, hi: iv?.[1] ?? null };
  });
}

export function dashboardHandlers(corpus: ReadCorpus): Pick<Api, Methods> {
  const cache = new VerdictCache(corpus);
  const setRun = (set: string, run: string) => {
    const s = requireSet(corpus, set);
    return { set: s, run: requireRun(corpus, s, run) };
  };
  return {
    getRunScores(p) {
      const { set, run } = setRun(p.set, p.run);
      const rows = cache.rows(run);
      const lines = (by: DashboardBreakdown) => (by === 'horizon' && set.task !== 'horizon' ? [] : scoreLines(set, run, rows, by));
      return {
        by: Object.fromEntries(DASHBOARD_BREAKDOWNS.map((by) => [by, lines(by)])) as Record<DashboardBreakdown, ScoreLine[]>,
        interval: intervals(set, run, rows)[0],
      };
    },

    getScoreIntervals(p) {
      const { set, run } = setRun(p.set, p.run);
      return intervals(set, run, cache.rows(run), p.by);
    },

    listGroupItems(p) {
      const { set, run } = setRun(p.set, p.run);
      const rows = cache.rows(run);
      let inGroup: (r: VerdictRow) => boolean = () => true;
      if (p.group !== undefined) {
        if (p.by === undefined) throw new UserError('listGroupItems: a group needs "by" (action, direction, horizon, field, length or depth)', 'bad-input');
        if (p.by === 'field') {
          const f = p.group as keyof VerdictRow['em'];
          if (!['event', 'src', 'locals', 'arg', 'all'].includes(f)) throw new UserError(`listGroupItems: no field ${JSON.stringify(p.group)}; expected event, src, locals, arg or all`, 'bad-input');
          inGroup = (r) => r.em[f] !== null;
        } else {
          const key = groupOf(p.by, set);
          inGroup = (r) => String(key(r)) === p.group;
        }
      }
      const ids = [...new Set(rows.filter(inGroup).map((r) => r.itemId))];
      const page = ids.slice(p.offset ?? 0, (p.offset ?? 0) + (p.limit ?? 100));
      return {
        total: ids.length,
        rows: page.map((id) => itemRow(corpus.getItem(id)!, [...corpus.iteratePredictions({ setId: set.id, itemId: id, runId: run.id })])),
      };
    },

    compareRuns(p) {
      const set = requireSet(corpus, p.set);
      const [a, b] = [requireRun(corpus, set, p.a), requireRun(corpus, set, p.b)];
      const c = compareRows(cache.rows(a), cache.rows(b));
      const items = new Map<number, { key: string; traceId: number }>();
      for (const it of corpus.iterateItems(set.id)) items.set(it.id, { key: it.key, traceId: it.traceId });
      return {
        set: set.name, a: a.label, b: b.label, groups: c.groups, unpaired: c.unpaired,
        differing: c.differing.map((d) => ({ id: d.itemId, ...items.get(d.itemId)!, action: d.action, a: d.a, b: d.b })),
      };
    },
  };
}
