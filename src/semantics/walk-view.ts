/**
 * A walked trajectory in the shape the explorer shows (the API's `Walk`): per state the
 * event behind it and the name it is shown under, the locals as the model sees them, and the
 * text. Structurally equal to `Walk` in src/api/contract.ts (kept free of that import so the
 * semantics stay a leaf module).
 */
import { Scope } from './scope.js';
import { renderState, type ShownState } from './state.js';
import { joinParts, showStates, walk, type Trajectory } from './trajectory.js';
import { BEGIN, CONTEXT, actionText, exitToken } from './tokens.js';
import type { TreeIndex } from './tree.js';
import type { Action, Direction } from './types.js';

export interface WalkView {
  direction: Direction;
  entry: number;
  states: { seq: number; event: string }[];
  exit: string | null;
  text: string;
  shown: (Record<string, string> | null)[];
}

/** Walks `actions` from `entry` and returns everything the explorer shows for it. */
export function walkView(
  index: TreeIndex,
  header: { context_forward: string; context_inverse: string },
  direction: Direction,
  entry: number,
  actions: readonly Action[],
): WalkView {
  return viewOf(index, header, walk(new Scope(index, entry), direction, actions));
}

export function viewOf(index: TreeIndex, header: { context_forward: string; context_inverse: string }, t: Trajectory): WalkView {
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
