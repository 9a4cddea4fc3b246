/**
 * The trajectories domain of the API: walking actions over a trace, and the trajectories
 * stored in the corpus. Actions cross the API as text (`step_into`, `breakpoint <src>`), as
 * walk takes them, so the renderer can replay a stored trajectory step by step.
 */
import { parseAction } from '../semantics/actions-text.js';
import { DIRECTIONS, type Direction, type ExitKind } from '../semantics/types.js';
import type { Walk } from '../semantics/walk-view.js';
import { read } from './method.js';
import { recordId } from './traces.js';
import { arrayOf, int, InvalidValue, object, oneOf, optional, str, type Validator } from './validate.js';

/** An action as text: step_into, …, inv_step_call, or `breakpoint <src>` (src kept exactly, indentation included). */
export const action: Validator<string> = (v, p) => {
  const s = str(100_000)(v, p);
  try {
    parseAction(s);
  } catch {
    throw new InvalidValue(p, "an action name or 'breakpoint <src>'", s);
  }
  return s;
};

/**
 * Most actions one walk takes: its answer (every state shown, its locals and the text) stays
 * a few MB on ordinary values, and walking re-runs from the entry on every call. 500,000
 * actions made a 93 MB answer and 1.2 GB of memory. The command line has no such limit.
 */
export const MAX_WALK_ACTIONS = 20_000;

export const trajectoryMethods = {
  walk: read(
    object({
      traceId: recordId,
      direction: oneOf(DIRECTIONS),
      entry: optional(int(0)),
      actions: arrayOf(
        action,
        MAX_WALK_ACTIONS,
        `at most ${MAX_WALK_ACTIONS.toLocaleString('en')} actions per walk (walk a longer trajectory with \`stepscope replay\`, which has no limit)`,
      ),
    }),
  ),
  listTrajectories: read(object({ traceId: recordId, offset: optional(int(0)), limit: optional(int(1, 1000)) })),
  getTrajectory: read(object({ id: recordId })),
};

export interface TrajectoryRow {
  id: number;
  traceId: number;
  direction: Direction;
  entry: number;
  actions: string[];
  exit: ExitKind | null;
  states: number;
}

export interface TrajectoryResults {
  walk: Walk;
  listTrajectories: { total: number; rows: TrajectoryRow[] };
  getTrajectory: TrajectoryRow;
}
