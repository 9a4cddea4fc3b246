/**
 * Turns a taxonomy example (program, state before, action, predicted, truth) into the input
 * the pre-label rules take, as the store will from an item: the truth and the previous state
 * read with the semantics' own parser, line numbers from the program text.
 */
import type { LabelExample, PrelabelInput } from '../../src/annotate/index.js';
import { parsePrediction, type ActionName, type Prediction } from '../../src/semantics/index.js';

export function read(text: string): Prediction {
  const p = parsePrediction(text);
  if (!p.ok) throw new Error(`test data does not parse: ${p.error.message}\n${text}`);
  return p.value;
}

export function exampleInput(ex: LabelExample, extra: Partial<PrelabelInput> = {}): PrelabelInput {
  const action = ex.action?.split(' ')[0] as ActionName | undefined;
  const input: PrelabelInput = {
    completion: ex.predicted,
    truth: read(ex.truth),
    direction: action?.startsWith('inv_') ? 'inverse' : 'forward',
  };
  if (action) input.action = action;
  if (ex.code) input.source = ex.code;
  if (ex.before) {
    const state = read(ex.before);
    const line = ex.code?.split('\n').indexOf(state.src ?? '\u0000');
    input.previous = { state };
    if (line !== undefined && line >= 0 && state.locals)
      input.previous.event = { line: line + 1, src: state.src!, locals: state.locals as Record<string, string> };
  }
  return { ...input, ...extra };
}
