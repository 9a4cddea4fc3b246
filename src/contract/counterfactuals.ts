/**
 * Counterfactuals in the API (docs/semantics.md, "Counterfactuals"): `recordCounterfactual`
 * records a stored trace's program again with locals set at one event, stores the new trace
 * linked to its origin, and answers what `stepscope counterfactual --json` prints. The new
 * trace is an ordinary trace: getTrace, getEvents, getSkeleton and walk serve it by its id, so
 * a view aligns the two forward trees by seq (equal before `first_difference`).
 * `getCounterfactual` says whether a trace is a counterfactual, and of what.
 */
import { read, write } from './method.js';
import { recordId } from './traces.js';
import { int, InvalidValue, object, str, type Validator } from './validate.js';

/** At most this many locals set in one counterfactual. */
export const MAX_COUNTERFACTUAL_SETS = 20;

/** {name: Python literal text}: 1 to MAX_COUNTERFACTUAL_SETS names; the recorder checks the rest. */
const sets: Validator<Record<string, string>> = (v, p) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new InvalidValue(p, 'an object {name: Python literal text}', v);
  const entries = Object.entries(v as Record<string, unknown>);
  if (!entries.length || entries.length > MAX_COUNTERFACTUAL_SETS)
    throw new InvalidValue(p, `an object of 1 to ${MAX_COUNTERFACTUAL_SETS} names`, v);
  const out: Record<string, string> = {};
  for (const [k, val] of entries) {
    if (!k || k.length > 200) throw new InvalidValue(`${p} name`, 'a name of 1 to 200 characters', k);
    out[k] = str(10_000)(val, `${p}.${k}`);
  }
  return out;
};

export const counterfactualMethods = {
  /**
   * Slow (a whole recording): the UI shows progress. `seq` must be a `line`, `call` or `exception`
   * state, and each name one of that state's locals; each value a Python literal. Refusals come as
   * `bad-input` with one line to show (also a program that runs differently each time).
   */
  recordCounterfactual: write(object({ traceId: recordId, seq: int(0), set: sets })),
  /**
   * A trace is open where counterfactuals may be asked: the server starts the recorder that
   * records them (src/recorder/warm.ts) now, so the first one is as quick as the next. Answers at
   * once (null); nothing is stored. A write method because the write worker records them.
   */
  prepareCounterfactual: write(object({ traceId: recordId })),
  getCounterfactual: read(object({ traceId: recordId })),
};

/** A counterfactual and its origin: what recordCounterfactual answers. */
export interface CounterfactualInfo {
  /** The counterfactual trace's id. */
  trace: number;
  /** The trace it was recorded from. */
  origin: number;
  /** The edited event, the same seq in both traces. */
  seq: number;
  /** The locals set at `seq`: name -> Python literal text. */
  set: Record<string, string>;
  /**
   * The first seq at which the two traces' events differ (`seq` itself when an edited value
   * changed); null when no event differs. Events before it are equal in both.
   */
  first_difference: number | null;
}

export interface CounterfactualResults {
  recordCounterfactual: CounterfactualInfo & {
    exit: 'normal' | 'error' | 'never';
    reason: string | null;
    /** The new trace's event count. */
    events: number;
    /** False when this very counterfactual was stored before (its trace is answered). */
    inserted: boolean;
  };
  /** null for a trace recorded plainly. */
  getCounterfactual: CounterfactualInfo | null;
  prepareCounterfactual: null;
}
