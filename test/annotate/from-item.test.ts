/**
 * The pre-label input built from an evaluation item and its recorded trace: the running
 * example of docs/semantics.md (count("berry", "r")), recorded by the recorder. Expected
 * targets are the ones §9 of that page prints.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { itemPrelabelInput, prelabel, type ItemTrace } from '../../src/annotate/index.js';
import type { Action } from '../../src/semantics/index.js';
import { record } from '../semantics/helpers.js';
import { COUNT } from './cases.js';
import { read } from './example-input.js';

let trace: ItemTrace;
beforeAll(() => {
  const t = record(COUNT, 'count("berry", "r")');
  trace = { events: t.events, contextForward: t.header.context_forward };
});

const steps = (...names: string[]) => names.map((action) => ({ action }) as Action);
const labels = (s: { label: string; rule: string }[]) => s.map((x) => `${x.label} by ${x.rule}`);

describe('itemPrelabelInput', () => {
  it("output prediction (§9): the target is count's return, the state before it count's call", () => {
    const item = { direction: 'forward' as const, entry: 0, actions: steps('step_into', 'step_into', 'step_return') };
    const input = itemPrelabelInput(trace, item, { completion: '<|return_sep|><|src_sep|>    return n<|arg_sep|>"1"' });
    expect(input.truth).toEqual(read('<|return_sep|><|src_sep|>    return n<|arg_sep|>"2"'));
    expect(input.previous?.state).toEqual(
      read('<|call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"s": "\'berry\'", "t": "\'r\'"}'),
    );
    expect(input.trueEvent?.seq).toBe(16);
    expect(input.frameEvents?.map((e) => e.seq)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
    expect(labels(prelabel(input))).toEqual(['return.wrong_value by arg-value']);
  });

  it('input prediction (§9): a CRUXEval-style call that passes by execution is a valid alternative', () => {
    const item = { direction: 'inverse' as const, entry: 2, actions: steps('inv_step_call') };
    const input = itemPrelabelInput(trace, item, {
      completion: "count('rr', 'r')",
      completionForm: 'call',
      execution: 'pass',
    });
    expect(input.truth).toEqual(
      read('<|inv_call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"s": "\'berry\'", "t": "\'r\'"}'),
    );
    expect(labels(prelabel(input))).toEqual(['inverse.valid_alternative by passes-by-execution']);
  });

  it('breakpoints: the state of another iteration of the loop body is an iteration off', () => {
    const bp = { action: 'breakpoint', src: '        n += int(c == t)' } as Action;
    const item = { direction: 'forward' as const, entry: 0, actions: [...steps('step_into', 'step_into'), bp, bp, bp] };
    const completion =
      '<|line_sep|><|arg_sep|>{"s": "\'berry\'", "t": "\'r\'", "n": "2", "c": "\'y\'"}<|src_sep|>        n += int(c == t)';
    const input = itemPrelabelInput(trace, item, { completion });
    expect(input.truth).toEqual(
      read(
        '<|line_sep|><|arg_sep|>{"s": "\'berry\'", "t": "\'r\'", "n": "0", "c": "\'r\'"}<|src_sep|>        n += int(c == t)',
      ),
    );
    const got = prelabel(input);
    expect(labels(got)).toEqual(['control.loop_iteration by other-iteration']);
    expect(got[0].reason).toBe(
      'the prediction is the state of `n += int(c == t)` at its 5th visit (seq 13); the truth is its 3rd: 2 iterations ahead',
    );
  });

  it('an exit target: the right exit gets nothing, a state where the scope ends is a wrong event', () => {
    const item = { direction: 'forward' as const, entry: 0, actions: steps(...Array(18).fill('step_into')) };
    expect(itemPrelabelInput(trace, item, { completion: '' }).truth).toEqual({ event: 'exit_normal' });
    expect(prelabel(itemPrelabelInput(trace, item, { completion: '<|exit_normal|>' }))).toEqual([]);
    const wrong = itemPrelabelInput(trace, item, {
      completion: '<|line_sep|><|arg_sep|>{}<|src_sep|>    return count("berry", "r")',
    });
    expect(labels(prelabel(wrong))).toEqual(['control.wrong_event by wrong-event']);
  });

  it('refuses an item the trace cannot walk, with the semantics own error', () => {
    expect(() =>
      itemPrelabelInput(trace, { direction: 'forward', entry: 0, actions: steps('inv_step_into') }, { completion: '' }),
    ).toThrow('action 1 (inv_step_into) is not a forward action');
  });

  it('an item without actions is refused with a reason, not a crash', () => {
    expect(() =>
      itemPrelabelInput(
        { events: [], contextForward: '' },
        { direction: 'forward', entry: 0, actions: [] },
        { completion: '' },
      ),
    ).toThrow(/an item has at least one action/);
  });
});
