/**
 * Trajectories: a direction, an entry, the states shown (node ids of that direction's tree),
 * the actions between them and how it ended (docs/semantics.md §5, §6).
 *
 * Invariant: `actions.length === states.length` when `exit` is set (the last action led out
 * of the scope), `states.length - 1` when the trajectory was cut (exit null).
 */
import { UserError } from '../common/errors.js';
import type { Scope } from './scope.js';
import { seqOf, showState, stateText, type ShownState } from './state.js';
import { ACTION, BEGIN, CONTEXT, END, FRAME, TRACE_END, actionText, exitToken } from './tokens.js';
import type { TreeIndex } from './tree.js';
import { actionDirection, directionAction, type Action, type Direction, type ExitKind } from './types.js';

export interface Trajectory {
  direction: Direction;
  /** Seq of the entry's call (0 = the root). */
  entry: number;
  /** Node ids: seqs forward; inverse ids (2*seq, or 2*seq+1 for inv_line_call) inverse. */
  states: number[];
  actions: Action[];
  exit: ExitKind | null;
}

/** An action list that cannot be walked; `step` is the index of the offending action. */
export class WalkError extends UserError {
  constructor(
    message: string,
    readonly step: number,
  ) {
    super(message, 'bad-input');
  }
}

/** Walks `actions` from the scope's start. Fails on an action of the other direction or after an exit. */
export function walk(scope: Scope, direction: Direction, actions: readonly Action[]): Trajectory {
  // The states' array at its final size from the start (one more than the actions, one less
  // when the last action exits): grown by push, a million states left about three times their
  // size of dead copies until the next full collection.
  const states: number[] = new Array<number>(actions.length + 1).fill(0);
  states[0] = scope.start(direction);
  let exit: ExitKind | null = null;
  for (let k = 0; k < actions.length; k++) {
    const a = actions[k];
    if (actionDirection(a.action) !== direction) {
      throw new WalkError(`action ${k + 1} (${a.action}) is not ${directionAction(direction)}`, k);
    }
    if (exit) throw new WalkError(`action ${k + 1} (${a.action}) comes after the trajectory exited with ${exit}`, k);
    const r = scope.apply(direction, states[k], a);
    if ('exit' in r) {
      exit = r.exit;
      states.length = k + 1;
    } else states[k + 1] = r.node;
  }
  return { direction, entry: scope.entry, states, actions: actions.slice(), exit };
}

/** Applies one action at the end of `t` (in place); returns true when it left the scope. */
export function advance(scope: Scope, t: Trajectory, a: Action): boolean {
  const r = scope.apply(t.direction, t.states[t.states.length - 1], a);
  t.actions.push(a);
  if ('exit' in r) {
    t.exit = r.exit;
    return true;
  }
  t.states.push(r.node);
  return false;
}

/** The seq of the event behind each state, and whether it is an inv_line_call copy. */
export function stateSeqs(t: Trajectory): number[] {
  return t.states.map((n) => seqOf(t.direction, n));
}

/** Each state as shown (with its locals delta against the state before it). */
export function showStates(index: TreeIndex, t: Trajectory): ShownState[] {
  return t.states.map((node, j) =>
    showState(
      index,
      t.direction,
      node,
      j === 0 ? -1 : t.states[j - 1],
      j > 0 && t.actions[j - 1].action === 'breakpoint',
    ),
  );
}

/** The parts the text is made of, so that prompts and targets can be cut without re-parsing. */
export interface TextParts {
  head: string;
  states: string[];
  actions: string[];
  exit: string | null;
}

export function textParts(index: TreeIndex, t: Trajectory, context: string): TextParts {
  return {
    head: BEGIN + CONTEXT + context,
    states: t.states.map((node, j) =>
      stateText(
        index,
        t.direction,
        node,
        j === 0 ? -1 : t.states[j - 1],
        j > 0 && t.actions[j - 1].action === 'breakpoint',
      ),
    ),
    actions: t.actions.map(actionText),
    exit: t.exit ? exitToken(t.exit) : null,
  };
}

export function joinParts(p: TextParts): string {
  let out = p.head;
  for (let j = 0; j < p.states.length; j++) {
    out += FRAME + p.states[j];
    if (j < p.actions.length) out += ACTION + p.actions[j];
  }
  if (p.exit) out += FRAME + p.exit;
  return out + TRACE_END + END;
}

/** The serialized text. `context` is the header's context_forward or context_inverse. */
export function serialize(index: TreeIndex, t: Trajectory, context: string): string {
  return joinParts(textParts(index, t, context));
}

/** An action's text, the same string object for each action kind but breakpoint (no string per step). */
const ACTION_TEXTS = new Map<string, string>();
const actionTextOnce = (a: Action) => {
  if (a.action === 'breakpoint') return actionText(a);
  let s = ACTION_TEXTS.get(a.action);
  if (s === undefined) ACTION_TEXTS.set(a.action, (s = actionText(a)));
  return s;
};

/**
 * serialize's text in pieces of about `size` characters (the last may be shorter; a single
 * state longer than `size` is one piece): their concatenation is exactly serialize(index, t,
 * context). For writing a long trajectory without holding its whole text: a 1,000,000-state
 * trajectory is about 107M characters as one string, and a few pieces at a time this way.
 */
export function* serializeChunks(
  index: TreeIndex,
  t: Trajectory,
  context: string,
  size = 1 << 16,
): Generator<string, void, undefined> {
  let parts: string[] = [BEGIN, CONTEXT, context];
  let length = 0;
  for (let j = 0; j < t.states.length; j++) {
    const state = stateText(
      index,
      t.direction,
      t.states[j],
      j === 0 ? -1 : t.states[j - 1],
      j > 0 && t.actions[j - 1].action === 'breakpoint',
    );
    parts.push(FRAME, state);
    length += state.length;
    if (j < t.actions.length) parts.push(ACTION, actionTextOnce(t.actions[j]));
    if (length >= size) {
      yield parts.join('');
      parts = [];
      length = 0;
    }
  }
  if (t.exit) parts.push(FRAME, exitToken(t.exit));
  parts.push(TRACE_END, END);
  yield parts.join('');
}

/**
 * Prompt and target for action `k` (0-based): the prompt is the text up to and including
 * `<|action_sep|>{action k}<|frame_sep|>`, the target the next state's text or exit token.
 */
export function promptTarget(p: TextParts, k: number): { prompt: string; target: string } {
  if (!Number.isInteger(k) || k < 0 || k >= p.actions.length) {
    throw new RangeError(
      `step ${k}: expected 0 to ${p.actions.length - 1} (the trajectory has ${p.actions.length} actions)`,
    );
  }
  let prompt = p.head;
  for (let j = 0; j <= k; j++) prompt += FRAME + p.states[j] + ACTION + p.actions[j];
  prompt += FRAME;
  const target = k + 1 < p.states.length ? p.states[k + 1] : (p.exit as string);
  return { prompt, target };
}

/** The context a trajectory's text starts with. */
export function contextFor(direction: Direction, header: { context_forward: string; context_inverse: string }): string {
  return direction === 'forward' ? header.context_forward : header.context_inverse;
}
