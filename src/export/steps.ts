/**
 * Prompt and target of each step of a stored trajectory, cut from its stored text at the
 * separators (docs/semantics.md §6): the prompt of step k ends with the `<|frame_sep|>`
 * after action k, the target is the state (or exit token) after it. The same texts as
 * `promptTarget` in src/semantics/trajectory.ts gives from a walked tree, without walking.
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

export function stepPromptTarget(text: string, ends: number[], k: number): { prompt: string; target: string } {
  const start = ends[k + 1];
  const a = text.indexOf(ACTION, start);
  const t = text.indexOf(TRACE_END, start);
  const stop = a >= 0 && (t < 0 || a < t) ? a : t;
  return { prompt: text.slice(0, start), target: text.slice(start, stop) };
}
