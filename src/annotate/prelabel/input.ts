/**
 * What the pre-label rules are given about one prediction, and what they answer. The caller
 * (store, CLI, UI) assembles it from the prediction, its item and the trace; every field past
 * `completion`, `truth` and `direction` is optional and only makes more rules able to speak.
 */
import type { Prediction } from '../../semantics/parse.js';
import type { ActionName, Direction } from '../../semantics/types.js';
import type { CompletionForm } from './completion-form.js';

/** A recorded state (a trace event, docs/semantics.md §2) as far as the rules need it. */
export interface EventFacts {
  seq?: number;
  /** `call`, `line`, `return` or `exception`. */
  event?: string;
  /** Frame instance number; two states of one activation share it. */
  frame?: number;
  line: number;
  src: string;
  /** Every local, name → repr (not a delta). */
  locals: Record<string, string>;
  /** Names whose repr the recorder cut; `<arg>` for the value. */
  cut?: string[];
}

export interface PrelabelInput {
  /** The completion as the model wrote it. */
  completion: string;
  /**
   * How the completion is written: a serialized state (default); or, for CRUXEval's own
   * generation files, a bare value (`value`, output prediction) or a call (`call`, input).
   */
  completionForm?: CompletionForm;
  /** Why generation stopped, as the server said (`length`: the token limit). */
  finishReason?: string | null;
  /** The true target, read by parsePrediction from the item's target text. */
  truth: Prediction;
  direction: Direction;
  /** The action the prediction answers (the last action of the prompt). */
  action?: ActionName;
  /** The program text the line numbers point into (the forward context). */
  source?: string;
  /** The recorded event behind the true state (absent for an exit). */
  trueEvent?: EventFacts;
  /** The state the action was taken from (the prompt's last state) as shown, and its event. */
  previous?: { state: Prediction; event?: EventFacts };
  /** Every recorded state of the true state's frame instance, to spot a prediction of another loop iteration. */
  frameEvents?: EventFacts[];
  /** Verdict of running the prediction, when there is one (CRUXEval; inverse arguments). */
  execution?: 'pass' | 'fail' | null;
  /** The truth is known to change between recordings (the caller re-recorded and compared). */
  nondeterministic?: boolean;
}

/** One pre-label: a label of the taxonomy, the rule that made it and why. */
export interface Suggestion {
  label: string;
  rule: string;
  reason: string;
}
