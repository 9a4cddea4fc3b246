/** The dashboard's handlers (contract: ../contract/dashboard.ts). */
import { UserError } from '../../common/errors.js';
import { compareRows } from '../../predictions/compare.js';
import { groupOf, pass1Interval, scoreGroups } from '../../predictions/scores.js';
import { itemRow, requireRun, requireSet } from '../../predictions/views.js';
import type { ReadCorpus, VerdictRow } from '../../store/corpus.js';
import type { Api } from '../contract/index.js';

type Methods = 'getScoreIntervals' | 'listGroupItems' | 'compareRuns';

export function dashboardHandlers(corpus: ReadCorpus): Pick<Api, Methods> {
  const setRun = (set: string, run: string) => {
    const s = requireSet(corpus, set);
    return { set: s, run: requireRun(corpus, s, run) };
  };
  return {
    getScoreIntervals(p) {
      const { set, run } = setRun(p.set, p.run);
      return scoreGroups(set, run, corpus.verdictRows(run.id), p.by).map((g) => {
        // Seeded as `stepscope scores` seeds it: the same interval in the table and here.
        const iv = pass1Interval(g.rows, [set.name, run.label, String(g.line.group)], g.correct);
        return { group: g.line.group, lo: iv?.[0] ?? null, hi: iv?.[1] ?? null };
      });
    },

    listGroupItems(p) {
      const { set, run } = setRun(p.set, p.run);
      const rows = corpus.verdictRows(run.id);
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
      const c = compareRows(corpus.verdictRows(a.id), corpus.verdictRows(b.id));
      const items = new Map<number, { key: string; traceId: number }>();
      for (const it of corpus.iterateItems(set.id)) items.set(it.id, { key: it.key, traceId: it.traceId });
      return {
        set: set.name, a: a.label, b: b.label, groups: c.groups, unpaired: c.unpaired,
        differing: c.differing.map((d) => ({ id: d.itemId, ...items.get(d.itemId)!, action: d.action, a: d.a, b: d.b })),
      };
    },
  };
}
