/**
 * A completion as a prediction to store: exact-match verdicts now (serialized states), and
 * which execution checks are due (`pending` until src/predictions/execute.ts runs them).
 *
 * - exec, CRUXEval's own check: on CRUXEval sets, for the benchmark's texts (an output
 *   literal, or an `f(...)` call on cruxeval-input), and for predicted states whose value is
 *   the answer: f's return on cruxeval-output, f's arguments on cruxeval-input. A predicted
 *   breakpoint state (cruxeval-output-breakpoint) holds locals, not the return value: no check.
 * - alt, the valid alternative: a predicted call's arguments (inv_call target on a call-mode
 *   trace) run through the function must give the value the true call returned.
 * The benchmark's texts are not states: their field verdicts and format_error are NULL.
 */
import { scoreCompletion, type EvalTask } from '../semantics/index.js';
import type { ItemTruth, NewPrediction, RunFormat } from '../store/corpus.js';

export type ExecMode = 'output' | 'input';

/** Which CRUXEval check a run's predictions get on a set of this task, if any. */
export function execMode(task: EvalTask, format: RunFormat): ExecMode | null {
  if (task === 'cruxeval-input') return 'input';
  if (task === 'cruxeval-output') return 'output';
  if (task === 'cruxeval-output-breakpoint') return format === 'cruxeval' ? 'output' : null;
  return null;
}

/** The item's true fields are all a verdict needs. */
export function newPrediction(
  item: Pick<ItemTruth, 'id' | 'truth' | 'callReturn'>,
  task: EvalTask,
  format: RunFormat,
  sample: number,
  completion: string,
  finish: string | null = null,
): NewPrediction {
  const exec = execMode(task, format) ? 'pending' : null;
  if (format === 'cruxeval')
    return { itemId: item.id, sample, completion, finish, em: null, parseError: null, exec, alt: null };
  const s = scoreCompletion(item.truth, completion);
  return {
    itemId: item.id,
    sample,
    completion,
    finish,
    em: s.em,
    parseError: s.parseError,
    exec,
    alt: item.callReturn === null ? null : 'pending',
  };
}
