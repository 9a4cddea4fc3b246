/**
 * Prompt and target of each step of a stored trajectory, cut from its stored text at the
 * separators (docs/semantics.md §6): the prompt of step k ends with the `<|frame_sep|>`
 * after action k, the target is the state (or exit token) after it. The same texts as
 * `promptTarget` in src/semantics/trajectory.ts gives from a walked tree, without walking;
 * and where each target lies in the text (a trajectories row's `target_spans`).
 */
import { UserError } from '../common/errors.js';
import { ACTION, FRAME, TRACE_END } from '../semantics/tokens.js';

/** Where each `<|frame_sep|>` ends; a trajectory of n actions has n + 1 of them. */
export function frameEnds(text: string, actions: number, id: number): number[] {
  const ends: number[] = [];
  for (let at = text.indexOf(FRAME); at >= 0; at = text.indexOf(FRAME, at + FRAME.length)) ends.push(at + FRAME.length);
  if (ends.length !== actions + 1) {
    throw new UserError(
      `trajectory ${id}: its text has ${ends.length} ${FRAME} for ${actions} actions (expected ${actions + 1}); a repr may contain a separator token`,
      'bad-input',
    );
  }
  return ends;
}

/** Where the state (or exit token) starting at `start` ends: the next `<|action_sep|>` or `<|trace_end|>`. */
function targetEnd(text: string, start: number): number {
  const a = text.indexOf(ACTION, start);
  const t = text.indexOf(TRACE_END, start);
  return a >= 0 && (t < 0 || a < t) ? a : t;
}

export function stepPromptTarget(text: string, ends: number[], k: number): { prompt: string; target: string } {
  const start = ends[k + 1];
  return { prompt: text.slice(0, start), target: text.slice(start, targetEnd(text, start)) };
}

/**
 * `[start, end]` of every step's target in `text` (what a model must predict: the state or
 * exit token after each `<|frame_sep|>` but the first, whose state the prompt gives), in
 * code points, so Python's `text[start:end]` is the target (docs/export.md, target_spans).
 */
export function targetSpans(text: string, ends: number[]): [number, number][] {
  const spans: [number, number][] = [];
  for (let k = 1; k < ends.length; k++) spans.push([ends[k], targetEnd(text, ends[k])]);
  return codePointSpans(text, spans);
}

/**
 * Code-unit offsets (JavaScript string indices) as code points: a surrogate pair (a character
 * past U+FFFF, such as an emoji in a repr) is two units and one code point. Offsets ascend.
 */
export function codePointSpans(text: string, spans: [number, number][]): [number, number][] {
  if (!/[\uD800-\uDBFF]/.test(text)) return spans;
  let unit = 0;
  let point = 0;
  const at = (u: number) => {
    while (unit < u) {
      const c = text.charCodeAt(unit);
      const pair = c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(unit + 1) & 0xfc00) === 0xdc00;
      unit += pair ? 2 : 1;
      point++;
    }
    return point;
  };
  return spans.map(([s, e]) => [at(s), at(e)]);
}
