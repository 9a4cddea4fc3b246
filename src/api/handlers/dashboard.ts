/** The dashboard's handlers (contract: ../contract/dashboard.ts). */
import { UserError } from '../../common/errors.js';
import { compareItems } from '../../predictions/compare.js';
import { groupOf, pass1Interval, scoreGroups, scoreLines } from '../../predictions/scores.js';
import { itemRow, requireRun, requireSet } from '../../predictions/views.js';
import type { ScoreBy, ScoreLine } from '../../semantics/index.js';
import type { EvalSetRecord, ItemVerdicts, ReadCorpus, RunRecord } from '../../store/corpus.js';
import { DASHBOARD_BREAKDOWNS, type Api, type DashboardBreakdown, type ScoreInterval } from '../../contract/index.js';

type Methods = 'getRunScores' | 'getScoreIntervals' | 'listGroupItems' | 'compareRuns';

/**
 * A run's verdicts summed per item (one SQL pass over the verdicts' covering index), kept for
 * the runs read last, with their whole-set interval (2,000 resamples): one dashboard draw reads
 * each run several times (scores, a clicked group, a comparison). A run is read again when its
 * predictions or pending checks change (an import, checks that ran); `--replace` makes a new run.
 */
interface CachedRun {
  key: string;
  items: ItemVerdicts[];
  interval?: ScoreInterval;
}

class VerdictCache {
  #runs = new Map<number, CachedRun>();
  constructor(private readonly corpus: ReadCorpus) {}

  #entry(run: RunRecord) {
    const key = `${run.created}/${run.predictions}/${run.pending}`;
    const hit = this.#runs.get(run.id);
    if (hit?.key === key) return hit;
    const entry: CachedRun = { key, items: this.corpus.itemVerdicts(run.id) };
    this.#runs.delete(run.id);
    this.#runs.set(run.id, entry);
    if (this.#runs.size > 4) this.#runs.delete(this.#runs.keys().next().value!);
    return entry;
  }

  items(run: RunRecord): ItemVerdicts[] {
    return this.#entry(run).items;
  }

  /** pass@1's interval on the whole set. */
  interval(set: EvalSetRecord, run: RunRecord): ScoreInterval {
    const e = this.#entry(run);
    return (e.interval ??= intervals(set, run, e.items)[0]);
  }
}

function intervals(set: EvalSetRecord, run: RunRecord, items: readonly ItemVerdicts[], by?: ScoreBy): ScoreInterval[] {
  return scoreGroups(set, run, items, by).map((g) => {
    // Seeded as `stepscope scores` seeds it: the same interval in the table and here.
    const iv = pass1Interval(g.items, [set.name, run.label, String(g.line.group)]);
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
      const items = cache.items(run);
      const lines = (by: DashboardBreakdown) =>
        by === 'horizon' && set.task !== 'horizon' ? [] : scoreLines(set, run, items, by);
      return {
        by: Object.fromEntries(DASHBOARD_BREAKDOWNS.map((by) => [by, lines(by)])) as Record<
          DashboardBreakdown,
          ScoreLine[]
        >,
        interval: p.interval === false ? null : cache.interval(set, run),
      };
    },

    getScoreIntervals(p) {
      const { set, run } = setRun(p.set, p.run);
      return intervals(set, run, cache.items(run), p.by);
    },

    listGroupItems(p) {
      const { set, run } = setRun(p.set, p.run);
      let inGroup: (it: ItemVerdicts) => boolean = () => true;
      if (p.group !== undefined) {
        if (p.by === undefined)
          throw new UserError(
            'listGroupItems: a group needs "by" (action, direction, horizon, field, length or depth)',
            'bad-input',
          );
        if (p.by === 'field') {
          const f = p.group as keyof ItemVerdicts['em'];
          if (!['event', 'src', 'locals', 'arg', 'all'].includes(f))
            throw new UserError(
              `listGroupItems: no field ${JSON.stringify(p.group)}; expected event, src, locals, arg or all`,
              'bad-input',
            );
          inGroup = (it) => it.em[f].n > 0;
        } else {
          const key = groupOf(p.by, set);
          inGroup = (it) => String(key(it)) === p.group;
        }
      }
      const ids = cache
        .items(run)
        .filter(inGroup)
        .map((it) => it.itemId);
      const page = ids.slice(p.offset ?? 0, (p.offset ?? 0) + (p.limit ?? 100));
      return {
        total: ids.length,
        rows: page.map((id) =>
          itemRow(corpus.getItem(id)!, [...corpus.iteratePredictions({ setId: set.id, itemId: id, runId: run.id })]),
        ),
      };
    },

    compareRuns(p) {
      const set = requireSet(corpus, p.set);
      const [a, b] = [requireRun(corpus, set, p.a), requireRun(corpus, set, p.b)];
      const c = compareItems(cache.items(a), cache.items(b));
      const items = new Map<number, { key: string; traceId: number }>();
      for (const it of corpus.iterateItems(set.id)) items.set(it.id, { key: it.key, traceId: it.traceId });
      return {
        set: set.name,
        a: a.label,
        b: b.label,
        groups: c.groups,
        unpaired: c.unpaired,
        differing: c.differing.map((d) => ({
          id: d.itemId,
          ...items.get(d.itemId)!,
          action: d.action,
          a: d.a,
          b: d.b,
        })),
      };
    },
  };
}
