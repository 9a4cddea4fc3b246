/**
 * Checking a model at any state of a trace, without importing a run (docs/explorer.md):
 * `checkCompletions` parses and scores completions a user pasted against the true state the
 * last action leads to; `askModel` first asks the configured OpenAI-compatible server for them
 * (from the server or the desktop app's main process, never from the page; src/model/). Both
 * only read the corpus and store nothing.
 */
import type { FieldVerdicts, ParseError, Prediction, TargetFields } from '../semantics/index.js';
import { DIRECTIONS, type Direction } from '../semantics/types.js';
import { read } from './method.js';
import { recordId } from './traces.js';
import { action } from './trajectories.js';
import { arrayOf, int, InvalidValue, object, oneOf, optional, str, type Validator } from './validate.js';

/** At least one action: the item is cut right after the last one. */
const actions: Validator<string[]> = (v, p) => {
  const a = arrayOf(action, 100_000)(v, p);
  if (!a.length) throw new InvalidValue(p, 'at least one action (the state asked for follows the last one)', v);
  return a;
};

const at = { traceId: recordId, direction: oneOf(DIRECTIONS), entry: optional(int(0)), actions };

/** A positive number (temperature 0 allowed). */
const num =
  (min: number, max: number): Validator<number> =>
  (v, p) => {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max)
      throw new InvalidValue(p, `a number from ${min} to ${max}`, v);
    return v;
  };

export const askMethods = {
  checkCompletions: read(object({ ...at, completions: arrayOf(str(100_000), 100) })),
  askModel: read(
    object({
      ...at,
      endpoint: str(2000),
      model: str(500),
      /** The name of the environment variable holding the key (never the key). */
      apiKeyEnv: optional(str(200)),
      samples: optional(int(1, 20)),
      temperature: optional(num(0, 5)),
      maxTokens: optional(int(1, 32_768)),
      timeoutSeconds: optional(num(1, 600)),
    }),
  ),
};

/** One completion read against the truth. */
export interface CheckedAnswer {
  completion: string;
  /** Why generation stopped ('stop', 'length', …); null when pasted or not said. */
  finish: string | null;
  parsed: Prediction | null;
  parseError: ParseError | null;
  em: FieldVerdicts;
}

export interface StateCheck {
  traceId: number;
  direction: Direction;
  entry: number;
  actions: string[];
  prompt: string;
  target: string;
  truth: TargetFields;
  /** The node the last action leads to in the tree of `direction` (null: an exit), and its seq. */
  targetNode: number | null;
  targetSeq: number | null;
  answers: CheckedAnswer[];
}

export interface AskResults {
  checkCompletions: StateCheck;
  askModel: StateCheck & { model: string | null };
}
