/**
 * Saved (sampled) trajectories of a trace, read through src/trajectories/store.ts. Actions
 * cross the API as text (`step_into`, `breakpoint <src>`), as the walk method takes them,
 * so the renderer can replay an opened trajectory step by step with `walk`.
 */
import type { Corpus } from '../store/corpus.js';
import { formatAction } from '../semantics/index.js';
import { getTrajectory, listTrajectories, type StoredTrajectory } from '../trajectories/store.js';
import type { Api, TrajectoryRow } from './contract.js';
import { ApiError } from './result.js';

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

export function trajectoryApi(corpus: Corpus): Pick<Api, 'listTrajectories' | 'getTrajectory'> {
  return {
    listTrajectories(p) {
      if (!corpus.getTrace(p.traceId)) throw new ApiError(`no trace with id ${p.traceId}`);
      const r = listTrajectories(corpus.db, p.traceId, p.offset ?? 0, p.limit ?? 100);
      return { total: r.total, rows: r.rows.map(row) };
    },
    getTrajectory(p) {
      const t = getTrajectory(corpus.db, p.id);
      if (!t) throw new ApiError(`no trajectory with id ${p.id}`);
      return row(t);
    },
  };
}
