/**
 * Gaps the mutation run left in the format, delta and event rules (rules-format.ts,
 * rules-events.ts): the reasons shown to annotators, the limits of each rule, and the
 * "explains everything" stops. Expected labels come from the default taxonomy's definitions;
 * docs/mutation-prelabel-survivors-format.md lists which mutant each test catches.
 */
import { describe, expect, it } from 'vitest';
import { COUNT, countEvent, countEvents, labels, lineState, run } from './cases.js';

const TRUTH = lineState('{"..": "..", "n": "1"}', '    for c in s:');
const BEFORE = lineState('{"s": "\'berry\'", "t": "\'r\'", "n": "0", "c": "\'r\'"}', '        n += int(c == t)');
const base = { truth: TRUTH, before: BEFORE, direction: 'forward' as const, action: 'step_into' as const, source: COUNT };

describe('format rules: what the text says', () => {
  it('repeated-text: copies separated by line breaks (a display form) are still one state written again', () => {
    const got = run({ ...base, completion: `${TRUTH}\n\n${TRUTH} \n${TRUTH}` });
    expect(labels(got)).toEqual(['format.repeated by repeated-text']);
    // The state as the annotator reads it: clipped to 40 characters, no trailing break.
    expect(got[0].reason).toBe(`the state ${TRUTH.slice(0, 40)}… is written 3 times in a row`);
  });

  it('repeated-text: a state written twice is already a loop', () => {
    const got = run({ ...base, completion: TRUTH + TRUTH });
    expect(labels(got)).toEqual(['format.repeated by repeated-text']);
    expect(got[0].reason).toMatch(/ is written 2 times in a row$/);
  });

  it('repeated-text stays silent on a readable state: what the model wrote after it is not scored', () => {
    // The model went on generating the same step again and again after a wrong state; the
    // prediction is the first state (n is 2, true 1), and the rest is ignored.
    const wrong = lineState('{"..": "..", "n": "2"}', '    for c in s:');
    const step = `${wrong}<|action_sep|><|step_into|><|frame_sep|>`;
    expect(labels(run({ ...base, completion: step + step + step }))).toEqual(['data.wrong_value by wrong-value']);
  });

  it('a loop that ran into the token limit is a loop: the cut is its consequence, not a second error', () => {
    const completion = TRUTH + TRUTH + TRUTH + '<|line_sep|><|arg_sep|>{"..": "..", "n"';
    expect(labels(run({ ...base, completion, finishReason: 'length' }))).toEqual(['format.repeated by repeated-text']);
  });

  it('cut-at-max-tokens explains the text alone, and says where the parser stopped', () => {
    // One whole state (71 characters), then a second one without an action, cut by the limit.
    const first = lineState('{"..": "..", "n": "1"}', '    for c in s:');
    expect(first.length).toBe(71);
    const completion = `${first}${lineState('{"..": "..", "c": "\'y\'"}', '        n += int(c')}`;
    const got = run({ ...base, completion, finishReason: 'length' });
    expect(labels(got)).toEqual(['format.truncated by cut-at-max-tokens']);
    expect(got[0].reason).toMatch(/^generation hit the token limit; line 1, column 72 \(offset 71\): expected the end of the state/);
  });

  it('ends-mid-state: a stray character before the end is not an early stop, even after leading line breaks', () => {
    const completion = `\n${lineState('{"..": "..", "n": "1"}', '    for c in s:').replace('<|src_sep|>    for c in s:', '}')}`;
    expect(completion.endsWith('"1"}}')).toBe(true);
    expect(labels(run({ ...base, completion }))).toEqual(['format.unparseable by parse-error']);
  });

  it('non-string-value names every local that is not a repr', () => {
    const got = run({ ...base, completion: lineState('{"..": "..", "n": 1, "c": null}', '    for c in s:') });
    expect(labels(got)).toEqual(['format.unparseable by non-string-value']);
    expect(got[0].reason).toBe('n is 1, not a repr string; c is null, not a repr string');
  });

  it('non-string-value quotes a list or an object local as JSON, as the model wrote it', () => {
    const got = run({ ...base, completion: lineState('{"..": "..", "n": [1, 2], "c": {"a": 1}}', '    for c in s:') });
    expect(got[0].reason).toBe('n is [1,2], not a repr string; c is {"a":1}, not a repr string');
  });

  it('locals written in another order than the truth\'s are the same locals: nothing to suggest', () => {
    // Exact match compares locals as JSON objects (docs/semantics.md §8): key order is not part of it.
    expect(run({ ...base, completion: lineState('{"n": "1", "..": ".."}', '    for c in s:') })).toEqual([]);
    const full = { ...base, truth: lineState('{"s": "\'berry\'", "t": "\'r\'", "n": "0"}', '    for c in s:'), action: 'breakpoint' as const };
    expect(run({ ...full, completion: lineState('{"n": "0", "t": "\'r\'", "s": "\'berry\'"}', '    for c in s:') })).toEqual([]);
  });

  it('non-string-value: a returned value written as JSON, not as its repr, is unparseable and not also a wrong value', () => {
    const ret = (arg: string) => `<|return_sep|><|src_sep|>    return n<|arg_sep|>${arg}`;
    const at = { ...base, truth: ret('"1"'), before: lineState('{"..": "..", "n": "1"}', '    return n') };
    const number = run({ ...at, completion: ret('1') });
    expect(labels(number)).toEqual(['format.unparseable by non-string-value']);
    expect(number[0].reason).toBe('the value is 1, not a repr string');
    // The repr string of the wrong value is a wrong value, not a format fault.
    expect(labels(run({ ...at, completion: ret('"2"') }))).toEqual(['return.wrong_value by arg-value']);
  });
});

describe('copies-previous', () => {
  const CALL = '<|call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"s": "\'berry\'", "t": "\'r\'"}';
  const FIRST = lineState('{"..": ".."}', '    n = 0');

  it('the call copied for the first line: one label, with its reason; the other kind of state is part of the copy', () => {
    const got = run({ ...base, truth: FIRST, before: CALL, completion: CALL });
    expect(labels(got)).toEqual(['format.repeated by copies-previous']);
    expect(got[0].reason).toBe('the model copied the previous state instead of taking the action');
  });

  it('a state of another kind is no copy: a forward token where the inverse one is due is a wrong event', () => {
    const inv = { direction: 'inverse' as const, action: 'inv_step_into' as const, source: COUNT };
    const before = '<|inv_line_sep|><|src_sep|>    for c in s:<|arg_sep|>{"..": ".."}';
    const truth = '<|inv_line_sep|><|src_sep|>        n += int(c == t)<|arg_sep|>{"..": ".."}';
    expect(labels(run({ ...inv, before, truth, completion: lineState('{"..": ".."}', '    for c in s:') }))).toEqual(['control.wrong_event by wrong-event']);
  });
});

describe('delta rules', () => {
  const truth = lineState('{"..": "..", "n": "0"}', '    for c in s:');
  const before = lineState('{"s": "\'berry\'", "t": "\'r\'"}', '    n = 0');
  const c = { ...base, truth, before };

  it('unchanged-written: one name repeated "belongs" out of the delta', () => {
    const got = run({ ...c, completion: lineState('{"..": "..", "s": "\'berry\'", "n": "0"}', '    for c in s:') });
    expect(labels(got)).toEqual(['format.delta by unchanged-written']);
    expect(got[0].reason).toBe('s did not change and belongs out of the delta');
  });

  it('unchanged-written leaves alone a name another iteration already explains', () => {
    // After `n += int(c == t)` with c = 'r' the loop line shows n = 1 (seq 10); the model gave
    // the loop line of the last iteration (seq 14: c = 'y', n = 2) and wrote s as well.
    const got = run({
      ...base,
      before: lineState('{"..": "..", "c": "\'r\'"}', '        n += int(c == t)'),
      beforeEvent: countEvent(9),
      truth: TRUTH,
      trueEvent: countEvent(10),
      frameEvents: countEvents,
      completion: lineState('{"..": "..", "s": "\'berry\'", "c": "\'y\'", "n": "2"}', '    for c in s:'),
    });
    expect(labels(got)).toEqual(['control.loop_iteration by other-iteration']);
  });

  it('marker-only: the reason says whether the marker is missing or extra', () => {
    const missing = run({ ...c, completion: lineState('{"n": "0"}', '    for c in s:') });
    expect(labels(missing)).toEqual(['format.delta by marker-only']);
    expect(missing[0].reason).toBe('the ".." marker is missing although names were left out');
    // A breakpoint's state shows every local (nothing left out), so a marker there is extra.
    const all = '{"s": "\'berry\'", "t": "\'r\'", "n": "0", "c": "\'r\'"}';
    const extra = run({
      ...base,
      action: 'breakpoint',
      truth: lineState(all, '        n += int(c == t)'),
      completion: lineState(`{"..": "..", ${all.slice(1)}`, '        n += int(c == t)'),
    });
    expect(labels(extra)).toEqual(['format.delta by marker-only']);
    expect(extra[0].reason).toBe('the ".." marker is shown but no name was left out');
  });

  it('marker-only: a marker written with another value is the delta form wrong too', () => {
    const got = run({ ...c, completion: lineState('{"..": "...", "n": "0"}', '    for c in s:') });
    expect(labels(got)).toEqual(['format.delta by marker-only']);
    expect(got[0].reason).toBe('the ".." marker is written "...", not ".."');
  });

  describe('a delta written where the truth shows every local', () => {
    const ADD = '        n += int(c == t)';
    // A breakpoint's target is shown in full (docs/semantics.md §6), whatever came before.
    const bp = {
      direction: 'forward' as const,
      action: 'breakpoint' as const,
      source: COUNT,
      truth: lineState('{"s": "\'berry\'", "t": "\'r\'", "n": "0", "c": "\'e\'"}', ADD),
      trueEvent: countEvent(7),
      before: lineState('{"..": "..", "c": "\'b\'"}', ADD),
      beforeEvent: countEvent(5),
    };
    const WHY = 'this state shows every local (a breakpoint\'s target, or the first state in another frame)';

    it("at a breakpoint's target, names left out under the marker are the delta form misused, not names missed", () => {
      const got = run({ ...bp, completion: lineState('{"..": "..", "c": "\'e\'"}', ADD) });
      expect(got).toEqual([{ label: 'format.delta', rule: 'marker-only', reason: `the ".." marker leaves out s, t, n, but ${WHY}` }]);
      // A wrong value shown beside them is its own fault.
      const also = run({ ...bp, completion: lineState('{"..": "..", "c": "\'r\'"}', ADD) });
      expect(labels(also)).toEqual(['data.wrong_value by wrong-value', 'format.delta by marker-only']);
      // Without the marker the model claims c is the only local: the others are missing.
      expect(labels(run({ ...bp, completion: lineState('{"c": "\'e\'"}', ADD) }))).toEqual(['data.missing_local by missing-local']);
    });

    it('at the wrong line, locals differ by design: no delta fault is claimed', () => {
      const got = run({ ...bp, completion: lineState('{"..": "..", "c": "\'e\'"}', '    return n') });
      expect(labels(got)).not.toContain('format.delta by marker-only');
      expect(got.map((x) => x.label.split('.')[0])).toEqual(['control']);
    });

    it('back in the caller after a return: the first state in that frame is shown in full too', () => {
      const src = 'def g(n):\n    return n + 1\ndef f(n):\n    k = g(n)\n    return k\n';
      const got = run({
        direction: 'forward',
        action: 'step_into',
        source: src,
        truth: lineState('{"n": "1", "k": "2"}', '    return k'),
        before: '<|return_sep|><|src_sep|>    return n + 1<|arg_sep|>"2"',
        completion: lineState('{"..": "..", "k": "2"}', '    return k'),
      });
      expect(got).toEqual([{ label: 'format.delta', rule: 'marker-only', reason: `the ".." marker leaves out n, but ${WHY}` }]);
    });

    it('in the same frame a delta with nothing left out has no marker: a new name left out under one is missing', () => {
      // f() binds y, its only local: the truth's delta shows y and needs no marker.
      const got = run({
        direction: 'forward',
        action: 'step_into',
        source: 'def f():\n    y = 1\n    return y\n',
        truth: lineState('{"y": "1"}', '    return y'),
        before: lineState('{}', '    y = 1'),
        completion: lineState('{"..": ".."}', '    return y'),
      });
      expect(labels(got)).toEqual(['data.missing_local by missing-local']);
      // Without the state before, nothing says the truth is shown in full: no delta fault is claimed.
      const { before: _before, ...alone } = { direction: 'forward' as const, action: 'step_into' as const, source: 'def f():\n    y = 1\n    return y\n', truth: lineState('{"y": "1"}', '    return y'), before: '' };
      expect(labels(run({ ...alone, completion: lineState('{"..": ".."}', '    return y') }))).toEqual(['data.missing_local by missing-local']);
    });
  });

  it('marker-only is silent at the wrong line: locals there differ by design', () => {
    // From the loop body the truth goes back to the loop line; the model left the loop.
    expect(labels(run({ ...base, completion: lineState('{"n": "1"}', '    return n') }))).toEqual(['control.loop_iteration by loop-exit']);
  });
});

describe('event rules: the reasons', () => {
  const GET = 'def f(d, k):\n    try:\n        v = d[k]\n    except KeyError:\n        v = 0\n    return v\n';

  it('missed-exception inverse: the truth is the inverse of an exception state', () => {
    // Back from the except line, the state before is the exception raised by d[k].
    const got = run({
      direction: 'inverse',
      action: 'inv_step_into',
      source: GET,
      before: '<|inv_line_sep|><|src_sep|>    except KeyError:<|arg_sep|>{"..": ".."}',
      truth: '<|inv_exception_sep|><|src_sep|>        v = d[k]<|arg_sep|>"KeyError(\'b\')"',
      completion: '<|inv_line_sep|><|src_sep|>        v = d[k]<|arg_sep|>{"..": ".."}',
    });
    expect(labels(got)).toEqual(['return.missed_exception by missed-exception']);
    expect(got[0].reason).toBe("the truth raises KeyError('b'); the prediction is a inv_line");
  });

  it('missed-exception: a return left by an exception, and a value that is not a repr', () => {
    const fwd = { direction: 'forward' as const, action: 'step_return' as const, source: GET };
    const truth = '<|return_sep|><|src_sep|>        v = d[k]<|arg_sep|>null';
    const one = run({ ...fwd, truth, completion: '<|return_sep|><|src_sep|>    return v<|arg_sep|>"1"' });
    expect(labels(one)).toEqual(['return.missed_exception by missed-exception']);
    expect(one[0].reason).toBe('the truth returns by an exception; the prediction returns 1');
    const list = run({ ...fwd, truth, completion: '<|return_sep|><|src_sep|>    return v<|arg_sep|>[1, 2]' });
    // Two faults: the value is no repr (the format), and there should be no return value at all.
    expect(labels(list)).toEqual(['format.unparseable by non-string-value', 'return.missed_exception by missed-exception']);
    expect(list[1].reason).toBe('the truth returns by an exception; the prediction returns [1,2]');
  });

  it('missed-exception: an exit by an error', () => {
    const got = run({ direction: 'forward', action: 'continue', truth: '<|exit_error|>', completion: '<|exit_normal|>' });
    expect(got[0].reason).toBe('the truth exits with an error; the prediction is a exit_normal');
  });

  it('invented-exception: an exception without a repr, where the function returns', () => {
    const got = run({
      direction: 'forward',
      action: 'step_into',
      source: 'def f(xs):\n    return xs[-1]\n',
      truth: '<|return_sep|><|src_sep|>    return xs[-1]<|arg_sep|>"3"',
      completion: '<|exception_sep|><|src_sep|>    return xs[-1]<|arg_sep|>null',
    });
    expect(labels(got)).toEqual(['return.invented_exception by invented-exception']);
    expect(got[0].reason).toBe('the prediction raises an exception; the truth returns 3');
  });

  it('wrong-event explains everything: no delta complaint about a state of another kind', () => {
    const inv = { direction: 'inverse' as const, action: 'inv_step_into' as const, source: COUNT };
    // Same line, same shown locals, but a forward line state (which shows no marker here).
    const got = run({ ...inv, truth: '<|inv_line_sep|><|src_sep|>    n = 0<|arg_sep|>{"..": ".."}', completion: lineState('{}', '    n = 0') });
    expect(labels(got)).toEqual(['control.wrong_event by wrong-event']);
  });
});
