/**
 * The pre-label input for a prediction of an evaluation item (a trajectory prefix cut right
 * after one action, docs/semantics.md §6 "Prompt and target"), built from the recorded trace:
 * the true target and the state before it as the prompt shows them, the events behind both,
 * the true state's frame, and the forward context for line numbers. What the store and CLI
 * call, so that every caller gives the rules the same context.
 */
import { requireEvents, Scope } from '../../semantics/scope.js';
import { seqOf, type ShownState } from '../../semantics/state.js';
import { showStates, walk } from '../../semantics/trajectory.js';
import { buildTraceIndex, type TreeIndex } from '../../semantics/tree.js';
import type { Action, Direction } from '../../semantics/types.js';
import type { Prediction } from '../../semantics/parse.js';
import type { TraceEvent } from '../../trace/types.js';
import type { PrelabelInput } from './input.js';

export interface ItemTrace {
  /** The trace's events, or an index built from them (buildTraceIndex). */
  events?: readonly TraceEvent[];
  index?: TreeIndex;
  /** The trace header's context_forward: the text the line numbers point into. */
  contextForward: string;
}

export interface ItemShape {
  direction: Direction;
  /** Seq of the entry's call; 0 for the root. */
  entry: number;
  /** Every action of the prompt; the prediction answers the last one. */
  actions: readonly Action[];
}

/** What the prediction adds: its text and whatever is known about how it was made and judged. */
export type PredictionInput = Pick<
  PrelabelInput,
  'completion' | 'completionForm' | 'finishReason' | 'execution' | 'nondeterministic'
>;

const asPrediction = (s: ShownState): Prediction => {
  const p: Prediction = { event: s.kind, src: s.src };
  if (s.locals !== undefined) p.locals = s.locals;
  if (s.arg !== undefined) p.arg = s.arg;
  return p;
};

/** Throws the semantics' own errors (WalkError, TraceShapeError) for an item the trace cannot give. */
export function itemPrelabelInput(trace: ItemTrace, item: ItemShape, prediction: PredictionInput): PrelabelInput {
  if (item.actions.length === 0) throw new RangeError('an item has at least one action');
  const index = trace.index ?? buildTraceIndex(trace.events ?? []);
  const events = requireEvents(index);
  const t = walk(new Scope(index, item.entry), item.direction, item.actions);
  const shown = showStates(index, t);
  const k = item.actions.length - 1;
  const before = events[seqOf(t.direction, t.states[k])];
  const input: PrelabelInput = {
    ...prediction,
    truth: k + 1 < shown.length ? asPrediction(shown[k + 1]) : { event: t.exit! },
    direction: item.direction,
    action: item.actions[k].action,
    source: trace.contextForward,
    previous: { state: asPrediction(shown[k]), event: before },
  };
  if (k + 1 < t.states.length) {
    const ev = events[seqOf(t.direction, t.states[k + 1])];
    input.trueEvent = ev;
    input.frameEvents = events.filter((e) => e.frame === ev.frame);
  }
  return input;
}
