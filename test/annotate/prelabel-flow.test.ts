/** Pre-label rules on the event and the line: exceptions, wrong kinds, branches, loop iterations, wrong lines. */
import { describe, expect, it } from 'vitest';
import { COUNT, countEvent, countEvents, labels, lineState, run } from './cases.js';

const fwd = { direction: 'forward' as const, action: 'step_into' as const };

describe('pre-labels: exceptions and event kinds', () => {
  const GET = 'def f(d, k):\n    v = d[k]\n    return v\n';
  const before = lineState('{"d": "{\'a\': 1}", "k": "\'b\'"}', '    v = d[k]');
  const raises = '<|exception_sep|><|src_sep|>    v = d[k]<|arg_sep|>"KeyError(\'b\')"';

  it('missed-exception: the truth raises, the prediction goes on (exception event, null return, exit_error)', () => {
    const got = run({ ...fwd, source: GET, before, truth: raises, completion: lineState('{"..": "..", "v": "None"}', '    return v') });
    expect(labels(got)).toEqual(['return.missed_exception by missed-exception']);
    expect(got[0].reason).toBe("the truth raises KeyError('b'); the prediction is a line");
    const left = run({ ...fwd, action: 'step_return', source: GET, truth: '<|return_sep|><|src_sep|>    v = d[k]<|arg_sep|>null', completion: '<|return_sep|><|src_sep|>    return v<|arg_sep|>"1"' });
    expect(labels(left)).toEqual(['return.missed_exception by missed-exception']);
    expect(labels(run({ ...fwd, action: 'continue', truth: '<|exit_error|>', completion: '<|exit_normal|>' }))).toEqual(['return.missed_exception by missed-exception']);
  });

  it('invented-exception: the prediction raises where the program runs on', () => {
    const src = 'def f(xs):\n    return xs[-1]\n';
    const got = run({
      ...fwd,
      source: src,
      before: lineState('{"xs": "[3]"}', '    return xs[-1]'),
      truth: '<|return_sep|><|src_sep|>    return xs[-1]<|arg_sep|>"3"',
      completion: '<|exception_sep|><|src_sep|>    return xs[-1]<|arg_sep|>"IndexError(\'list index out of range\')"',
    });
    expect(labels(got)).toEqual(['return.invented_exception by invented-exception']);
    expect(labels(run({ ...fwd, action: 'continue', truth: '<|exit_normal|>', completion: '<|exit_error|>' }))).toEqual(['return.invented_exception by invented-exception']);
    expect(
      labels(run({ ...fwd, action: 'step_return', truth: '<|return_sep|><|src_sep|>    return xs[-1]<|arg_sep|>"3"', completion: '<|return_sep|><|src_sep|>    return xs[-1]<|arg_sep|>null' })),
    ).toEqual(['return.invented_exception by invented-exception']);
  });

  it('two raising states of different kinds are a wrong event, not a missed exception', () => {
    expect(labels(run({ ...fwd, source: GET, before, truth: raises, completion: '<|exit_error|>' }))).toEqual(['control.wrong_event by wrong-event']);
  });

  it('wrong-event: another kind of state or an exit, and nothing else is blamed', () => {
    const truth = '<|return_sep|><|src_sep|>    return n<|arg_sep|>"2"';
    expect(labels(run({ ...fwd, source: COUNT, truth, completion: lineState('{"..": ".."}', '    return n') }))).toEqual(['control.wrong_event by wrong-event']);
    const exit = run({ ...fwd, action: 'step_return', source: COUNT, truth, completion: '<|exit_normal|>' });
    expect(labels(exit)).toEqual(['control.wrong_event by wrong-event']);
    expect(exit[0].reason).toBe('predicted exit_normal, true return');
    // A forward token where the inverse one is due.
    const inv = { direction: 'inverse' as const, action: 'inv_step_into' as const, source: COUNT };
    expect(labels(run({ ...inv, truth: '<|inv_line_sep|><|src_sep|>    n = 0<|arg_sep|>{"..": ".."}', completion: lineState('{"..": ".."}', '    n = 0') }))).toEqual([
      'control.wrong_event by wrong-event',
    ]);
  });
});

describe('pre-labels: lines', () => {
  const count = { ...fwd, source: COUNT };

  it('other-iteration: a state another visit of the line recorded (two iterations ahead)', () => {
    const full = (c: string, n: string) => `{"s": "'berry'", "t": "'r'", "n": "${n}", "c": "${c}"}`;
    const c = {
      ...count,
      action: 'breakpoint' as const,
      before: lineState(full("'e'", '0'), '        n += int(c == t)'),
      beforeEvent: countEvent(7),
      truth: lineState(full("'r'", '0'), '        n += int(c == t)'),
      trueEvent: countEvent(9),
      frameEvents: countEvents,
    };
    const got = run({ ...c, completion: lineState(full("'y'", '2'), '        n += int(c == t)') });
    expect(labels(got)).toEqual(['control.loop_iteration by other-iteration']);
    expect(got[0].reason).toBe('the prediction is the state of `n += int(c == t)` at its 5th visit (seq 13); the truth is its 3rd: 2 iterations ahead');
    // No recorded visit has these values: a wrong value.
    expect(labels(run({ ...c, completion: lineState(full("'r'", '5'), '        n += int(c == t)') }))).toEqual(['data.wrong_value by wrong-value']);
  });

  it('other-iteration does not take a counter that equals another visit by chance for an iteration', () => {
    const got = run({
      ...count,
      before: lineState('{"s": "\'berry\'", "t": "\'r\'", "n": "0", "c": "\'r\'"}', '        n += int(c == t)'),
      beforeEvent: countEvent(9),
      truth: lineState('{"..": "..", "n": "1"}', '    for c in s:'),
      trueEvent: countEvent(10),
      frameEvents: countEvents,
      completion: lineState('{"..": "..", "n": "2"}', '    for c in s:'),
    });
    expect(labels(got)).toEqual(['data.wrong_value by wrong-value']);
  });

  it('no-such-line: a src that is no line of the program, or one off by whitespace', () => {
    const truth = lineState('{"..": ".."}', '    for c in s:');
    const got = run({ ...count, truth, completion: lineState('{"..": ".."}', '    for ch in s:') });
    expect(labels(got)).toEqual(['control.wrong_line by no-such-line']);
    expect(got[0].reason).toBe('no line of the program reads `for ch in s:`');
    expect(run({ ...count, truth, completion: lineState('{"..": ".."}', '  for c in s:') })[0].reason).toBe('the predicted src differs from line 3 only in whitespace');
  });

  it('other-function: the right value returned from the wrong function', () => {
    const src = 'def sq(x):\n    return x * x\n\ndef f(xs):\n    total = 0\n    for x in xs:\n        total += sq(x)\n    return total\n';
    const got = run({
      ...fwd,
      action: 'step_return',
      source: src,
      before: '<|call_sep|><|src_sep|>def sq(x):<|arg_sep|>{"x": "2"}',
      truth: '<|return_sep|><|src_sep|>    return x * x<|arg_sep|>"4"',
      completion: '<|return_sep|><|src_sep|>    return total<|arg_sep|>"4"',
    });
    expect(labels(got)).toEqual(['control.wrong_line by other-function']);
    expect(got[0].reason).toBe('the predicted line `return total` (line 8) is in `def f(xs):`, the true line `return x * x` (line 2) in `def sq(x):`');
  });

  const SIGN = 'def sign(x):\n    if x > 0:\n        return 1\n    elif x < 0:\n        return -1\n    return 0\n';

  it('branch-condition: one step from an if line, into the body instead of past it', () => {
    const c = { ...fwd, source: SIGN, before: lineState('{"x": "-3"}', '    if x > 0:'), truth: lineState('{"..": ".."}', '    elif x < 0:') };
    const got = run({ ...c, completion: lineState('{"..": ".."}', '        return 1') });
    expect(labels(got)).toEqual(['control.branch by branch-condition']);
    expect(got[0].reason).toBe('after `if x > 0:` (line 2) the truth skips its body, the prediction enters it');
    // From the elif: into its body rather than past the chain.
    const elif = { ...c, before: lineState('{"x": "0"}', '    elif x < 0:'), truth: lineState('{"..": ".."}', '    return 0') };
    expect(labels(run({ ...elif, completion: lineState('{"..": ".."}', '        return -1') }))).toEqual(['control.branch by branch-condition']);
  });

  it('other-arm: the truth in one arm of an if/else, the prediction in another (here going backwards)', () => {
    const src = 'def f(x):\n    if x > 0:\n        y = 1\n        z = 2\n    else:\n        y = -1\n        z = -2\n    return y\n';
    const got = run({
      direction: 'inverse',
      action: 'inv_step_into',
      source: src,
      before: '<|inv_line_sep|><|src_sep|>    return y<|arg_sep|>{"..": ".."}',
      truth: '<|inv_line_sep|><|src_sep|>        z = -2<|arg_sep|>{"..": ".."}',
      completion: '<|inv_line_sep|><|src_sep|>        z = 2<|arg_sep|>{"..": ".."}',
    });
    expect(labels(got)).toEqual(['control.branch by other-arm']);
    expect(got[0].reason).toBe('the truth is in the else arm `else:` (line 5), the prediction in the if arm `if x > 0:` (line 2)');
  });

  it('loop-condition: one step from the loop header, the loop is over but the prediction runs it again', () => {
    const got = run({
      ...count,
      before: lineState('{"s": "\'berry\'", "t": "\'r\'", "n": "2", "c": "\'y\'"}', '    for c in s:'),
      truth: lineState('{"..": ".."}', '    return n'),
      completion: lineState('{"..": "..", "c": "\'y\'"}', '        n += int(c == t)'),
    });
    expect(labels(got)).toEqual(['control.loop_iteration by loop-condition']);
    expect(got[0].reason).toBe('the loop `for c in s:` (line 3) is over; the prediction runs it once more');
  });

  it('loop-exit: from the body the truth goes back to the header, the prediction leaves the loop', () => {
    const got = run({
      ...count,
      before: lineState('{"s": "\'berry\'", "t": "\'r\'", "n": "2", "c": "\'y\'"}', '        n += int(c == t)'),
      truth: lineState('{"..": ".."}', '    for c in s:'),
      completion: lineState('{"..": ".."}', '    return n'),
    });
    expect(labels(got)).toEqual(['control.loop_iteration by loop-exit']);
    expect(got[0].reason).toBe('the truth is still in the loop `for c in s:` (line 3); the prediction has left it');
  });

  it("loop-boundary: the prediction goes back to a while loop's test while the body goes on", () => {
    const src = 'def g(n):\n    i = 0\n    while i < n:\n        i += 1\n        j = i * 2\n    return i\n';
    const got = run({
      ...fwd,
      source: src,
      before: lineState('{"n": "3", "i": "0"}', '        i += 1'),
      truth: lineState('{"..": "..", "i": "1"}', '        j = i * 2'),
      completion: lineState('{"..": "..", "i": "1"}', '    while i < n:'),
    });
    expect(labels(got)).toEqual(['control.loop_iteration by loop-boundary']);
    expect(got[0].reason).toBe('the truth is in the loop\'s body; the prediction is back at `while i < n:` (line 3)');
  });

  it('wrong-line: any other wrong line, with or without the program text; locals at a wrong line are not compared', () => {
    const c = { ...count, before: '<|call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"s": "\'berry\'", "t": "\'r\'"}', truth: lineState('{"..": ".."}', '    n = 0') };
    const got = run({ ...c, completion: lineState('{"..": "..", "n": "0"}', '    return n') });
    expect(labels(got)).toEqual(['control.wrong_line by wrong-line']);
    expect(got[0].reason).toBe('predicted `return n` (line 5), true `n = 0` (line 2)');
    const bare = run({ ...c, source: undefined, completion: lineState('{"..": ".."}', '    return n') });
    expect(labels(bare)).toEqual(['control.wrong_line by wrong-line']);
    expect(bare[0].reason).toBe('predicted `return n`, true `n = 0`');
  });
});
