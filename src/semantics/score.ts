/**
 * Exact-match scoring of one predicted target (docs/semantics.md §8): the completion is read
 * with parsePrediction and each field compared with the true target's.
 *
 * - event and src: equal strings (src to the character, indentation included);
 * - locals: equal JSON objects. Key order does not matter: the paper compares JSON objects,
 *   and a JSON object (like the Python dict json.loads makes of it) is unordered. The
 *   `"..": ".."` marker of a delta is a key like any other, so a prediction that writes every
 *   local where the truth shows a delta is wrong;
 * - arg: equal JSON values (the truth is a repr as a JSON string, or null);
 * - a field the true state does not have is not applicable (null);
 * - all: every applicable field matches;
 * - text that cannot be read is a format error: wrong on every applicable field, with the
 *   parse error kept (where reading stopped, what was expected).
 */
import type { TargetFields, Field } from './eval.js';
import type { JsonValue } from './json-parse.js';
import { parsePrediction, type ParseError, type Prediction } from './parse.js';

export type FieldVerdicts = Record<Field | 'all', boolean | null>;

export interface Scored {
  em: FieldVerdicts;
  /** Set when the completion is a format error. */
  parseError: ParseError | null;
  /** The fields read from the completion (null on a format error). */
  parsed: Prediction | null;
}

/** Which fields the true target has. */
export function applicable(truth: TargetFields): Record<Field, boolean> {
  return {
    event: true,
    src: truth.src !== undefined,
    locals: truth.locals !== undefined,
    arg: truth.arg !== undefined,
  };
}

export function scoreCompletion(truth: TargetFields, completion: string): Scored {
  const p = parsePrediction(completion);
  const has = applicable(truth);
  const em = (f: Field, ok: () => boolean): boolean | null => (has[f] ? ok() : null);
  if (!p.ok) {
    const no = () => false;
    return {
      em: { event: false, src: em('src', no), locals: em('locals', no), arg: em('arg', no), all: false },
      parseError: p.error,
      parsed: null,
    };
  }
  const v = p.value;
  const out: FieldVerdicts = {
    event: v.event === truth.event,
    src: em('src', () => v.src === truth.src),
    locals: em('locals', () => v.locals !== undefined && jsonEqual(v.locals, truth.locals!)),
    arg: em('arg', () => v.arg !== undefined && jsonEqual(v.arg, truth.arg!)),
    all: false,
  };
  out.all = out.event === true && out.src !== false && out.locals !== false && out.arg !== false;
  return { em: out, parseError: null, parsed: v };
}

/** Deep equality of JSON values; objects compare without regard to key order. */
export function jsonEqual(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
}
