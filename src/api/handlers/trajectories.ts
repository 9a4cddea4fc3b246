/** The trajectories domain's handlers (contract: ../contract/trajectories.ts). */
import { UserError } from '../../common/errors.js';
import { formatAction, parseAction, walkView } from '../../semantics/index.js';
import type { ReadCorpus, StoredTrajectory } from '../../store/corpus.js';
import type { Api, TrajectoryRow } from '../../contract/index.js';
import type { TraceCache } from './trace-cache.js';

function row(t: StoredTrajectory): TrajectoryRow {
  return {
    id: t.id,
    traceId: t.traceId,
    direction: t.direction,
    entry: t.entry,
    actions: t.actions.map(formatAction),
    exit: t.exit,
    states: t.states.length,
  };
}

export function trajectoryHandlers(
  corpus: ReadCorpus,
  cache: TraceCache,
): Pick<Api, 'walk' | 'listTrajectories' | 'getTrajectory'> {
  return {
    walk(p) {
      // A bad entry, an action of the other direction or after the exit: a bad-input UserError.
      const t = cache.get(p.traceId);
      return walkView(t.index, t.record, p.direction, p.entry ?? 0, p.actions.map(parseAction));
    },

    listTrajectories(p) {
      cache.record(p.traceId);
      const r = corpus.listTrajectories(p.traceId, p.offset ?? 0, p.limit ?? 100);
      return { total: r.total, rows: r.rows.map(row) };
    },

    getTrajectory(p) {
      const t = corpus.getTrajectory(p.id);
      if (!t) throw new UserError(`no trajectory with id ${p.id}`, 'not-found');
      return row(t);
    },
  };
}
