// A verdict row as the store reads it for `stepscope scores` and the comparison of two runs,
// written by hand: shared by the predictions tests that sum rows without a corpus.
import type { VerdictRow } from '../../src/store/corpus.js';

/**
 * One sample of a forward step_into item whose target has an event and a src (no locals, no
 * return value): right or wrong as `correct` says, pending when it is null. `extra` overrides.
 */
export function verdictRow(itemId: number, correct: boolean | null, extra: Partial<VerdictRow> = {}): VerdictRow {
  return {
    itemId,
    action: 'step_into',
    direction: 'forward',
    horizon: null,
    traceEvents: 10,
    depth: 0,
    formatError: false,
    em: { event: correct, src: correct, locals: null, arg: null, all: correct },
    exec: null,
    alt: null,
    correct,
    pending: correct === null,
    ...extra,
  };
}
