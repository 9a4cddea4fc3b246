/**
 * Reading a completion into a Prediction. Most completions are a serialized state
 * (docs/semantics.md §6), read by parsePrediction. CRUXEval's own generation files hold other
 * forms: a bare Python value for output prediction (`[1, 2]`) and a call for input prediction
 * (`f('rr', 'r')`); they are read into the true state's shape so the same rules apply.
 */
import type { JsonValue } from '../../semantics/json-parse.js';
import { parsePrediction, type ParseError, type Parsed, type Prediction } from '../../semantics/parse.js';
import { splitTop } from './repr.js';

/** `state`: a serialized state (the default); `value`: a Python value; `call`: a call `f(…)`. */
export type CompletionForm = 'state' | 'value' | 'call';

function fail(text: string, offset: number, expected: string): { ok: false; error: ParseError } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  const rest = text.slice(offset);
  const got = rest === '' ? 'end of text' : JSON.stringify(rest.length > 40 ? rest.slice(0, 40) + '…' : rest);
  return {
    ok: false,
    error: {
      offset,
      line,
      column,
      tokenIndex: 0,
      expected,
      got,
      message: `line ${line}, column ${column} (offset ${offset}): expected ${expected}, got ${got}`,
    },
  };
}

/**
 * The call's arguments bound to the true call's parameter names (the true state's locals, in
 * order): positional in order, `name=value` by name. Parameters the call does not give keep
 * the truth's value, since their defaults cannot be read from the call.
 */
function readCall(text: string, truth: Prediction): Parsed<Prediction> {
  const start = text.search(/[A-Za-z_][\w.]*\s*\(/);
  const open = start < 0 ? -1 : text.indexOf('(', start);
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return fail(text, Math.max(0, start), 'a call such as f(1, 2)');
  const args = splitTop(text.slice(open + 1, close), ',');
  if (!args) return fail(text, open, 'a call with balanced brackets and quotes');
  const given = args[args.length - 1] === '' ? args.slice(0, -1) : args;
  const names = Object.keys(truth.locals ?? {});
  const locals: Record<string, JsonValue> = { ...(truth.locals ?? {}) };
  let positional = 0;
  for (const a of given) {
    const kw = /^([A-Za-z_]\w*)\s*=(?!=)\s*([\s\S]*)$/.exec(a);
    if (kw) locals[kw[1]] = kw[2];
    else if (positional < names.length) locals[names[positional++]] = a;
    else
      return fail(
        text,
        close,
        `at most ${names.length} argument${names.length === 1 ? '' : 's'} (${names.join(', ')})`,
      );
  }
  return { ok: true, value: { event: truth.event, src: truth.src, locals } };
}

export function readCompletion(text: string, form: CompletionForm, truth: Prediction): Parsed<Prediction> {
  if (form === 'state') return parsePrediction(text);
  if (form === 'call') return readCall(text, truth);
  const value = text.trim();
  if (value === '') return fail(text, text.length, 'a Python value');
  const event = truth.event === 'return' || truth.event === 'inv_return' ? truth.event : 'return';
  return { ok: true, value: { event, src: truth.src, arg: value } };
}
