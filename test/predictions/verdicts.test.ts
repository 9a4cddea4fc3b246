// The checks a new prediction is due (src/predictions/verdicts.ts): CRUXEval's execution check
// and the valid-alternative check, by the set's task and the run's completion form.
import { describe, expect, it } from 'vitest';
import { execMode, newPrediction } from '../../src/predictions/verdicts.js';
import type { EvalTask } from '../../src/semantics/index.js';
import type { StoredItem } from '../../src/store/corpus.js';

describe('the checks a new prediction is due', () => {
  it("execMode: CRUXEval's check on CRUXEval sets; on the breakpoint task only for the benchmark's texts", () => {
    const tasks: EvalTask[] = [
      'next-state',
      'horizon',
      'cruxeval-output',
      'cruxeval-output-breakpoint',
      'cruxeval-input',
    ];
    const table = tasks.map((t) => [t, execMode(t, 'state'), execMode(t, 'cruxeval')]);
    expect(table).toEqual([
      ['next-state', null, null],
      ['horizon', null, null],
      ['cruxeval-output', 'output', 'output'],
      ['cruxeval-output-breakpoint', null, 'output'],
      ['cruxeval-input', 'input', 'input'],
    ]);
  });

  it("newPrediction: the valid-alternative check only where the item has a call's return to compare", () => {
    const item = {
      id: 4,
      truth: { event: 'inv_call', src: 'def f(x):', locals: { x: 1 } },
      callReturn: null,
    } as unknown as StoredItem;
    const completion = '<|inv_call_sep|><|src_sep|>def f(x):<|arg_sep|>{"x": "1"}';
    expect(newPrediction(item, 'next-state', 'state', 0, completion)).toMatchObject({
      itemId: 4,
      exec: null,
      alt: null,
    });
    expect(newPrediction({ ...item, callReturn: '2' }, 'next-state', 'state', 0, completion)).toMatchObject({
      exec: null,
      alt: 'pending',
    });
    expect(newPrediction(item, 'cruxeval-output-breakpoint', 'cruxeval', 1, '5')).toMatchObject({
      sample: 1,
      exec: 'pending',
      alt: null,
      em: null,
    });
  });
});
