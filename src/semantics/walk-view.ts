/**
 * A walked trajectory in the shape the explorer shows (the API's `walk` answer): per state
 * the event behind it and the name it is shown under, the locals as the model sees them, and
 * the text.
 */
import { Scope } from './scope.js';
import { renderState, type ShownState } from './state.js';
import { joinParts, showStates, walk, type Trajectory } from './trajectory.js';
import { BEGIN, CONTEXT, actionText, exitToken } from './tokens.js';
import type { TreeIndex } from './tree.js';
import type { Action, Direction, ExitKind, StateKind } from './types.js';

/** One state shown in a trajectory: the event behind it and the name it is shown under. */
export interface WalkState {
  seq: number;
  /** call, line, return, exception, or inv_call, inv_line, inv_return, inv_exception, inv_line_call. */
  event: StateKind;
}

/** The result of walking a list of actions from an entry: the states shown and the text. */
export interface Walk {
  direction: Direction;
  entry: number;
  states: WalkState[];
  /** The exit token's name, or null while the trajectory is inside its entry's scope. */
  exit: ExitKind | null;
  text: string;
  /**
   * Per state, the locals as the model sees them (the delta of docs/semantics.md §6), null for states without locals.
   */
  shown: (Record<string, string> | null)[];
}

/** Walks `actions` from `entry` and returns everything the explorer shows for it. */
export function walkView(
  index: TreeIndex,
  header: { context_forward: string; context_inverse: string },
  direction: Direction,
  entry: number,
  actions: readonly Action[],
): Walk {
  return viewOf(index, header, walk(new Scope(index, entry), direction, actions));
}

function viewOf(index: TreeIndex, header: { context_forward: string; context_inverse: string }, t: Trajectory): Walk {
  const shown: ShownState[] = showStates(index, t);
  const text = joinParts({
    head: BEGIN + CONTEXT + (t.direction === 'forward' ? header.context_forward : header.context_inverse),
    states: shown.map(renderState),
    actions: t.actions.map(actionText),
    exit: t.exit ? exitToken(t.exit) : null,
  });
  return {
    direction: t.direction,
    entry: t.entry,
    states: t.states.map((n, j) => ({ seq: t.direction === 'forward' ? n : n >> 1, event: shown[j].kind })),
    exit: t.exit,
    text,
    shown: shown.map((s) => s.locals ?? null),
  };
}
