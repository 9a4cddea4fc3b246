/**
 * Pre-label rules on the event and the line (rules-events.ts, rules-lines.ts): exceptions, wrong
 * kinds, branches, loop iterations, wrong lines. Then each rule at its edges: the reasons shown to
 * annotators, which side of a block a rule looks at, the direction and action it needs, the
 * other-iteration rule's visit counts and ordinals, the arms of an if/elif/else chain, and a truth
 * line that is not in the program text. Frames are written out as the recorder records them (a
 * line state holds the locals before the line runs). Expected labels follow the default
 * taxonomy's definitions (control.wrong_line: a line skipped, of another function or of no
 * program line; control.branch: the other side of an if; control.loop_iteration: a loop run once
 * more or once less), never the code's own output.
 */
import { describe, expect, it } from 'vitest';
import type { EventFacts } from '../../src/annotate/index.js';
import { COUNT, countEvent, countEvents, labels, lineState, run } from './cases.js';

const fwd = { direction: 'forward' as const, action: 'step_into' as const };
const ev = (seq: number, line: number, src: string, locals: Record<string, string>, event = 'line'): EventFacts => ({
  seq,
  event,
  frame: 1,
  line,
  src,
  locals,
});
const json = (locals: Record<string, string>) => JSON.stringify(locals);
/**
 * One frame of a function whose text is `lines`: its call state with `args`, then a line event per row (line number,
 * locals), seq counted from 1.
 */
const frameOf = (
  lines: string[],
  args: Record<string, string>,
  rows: [number, Record<string, string>][],
): EventFacts[] => [
  ev(1, 1, lines[0], args, 'call'),
  ...rows.map(([line, locals], i) => ev(i + 2, line, lines[line - 1], locals)),
];
const any = (src: string) => lineState('{"..": ".."}', src);

/** Module-level code calling a function (a program run as a script); line 4 is blank. */
const SCRIPT = 'def inc(x):\n    y = x + 1\n    return y\n\na = inc(1)\nprint(a)\n';
const SIGN = 'def sign(x):\n    if x > 0:\n        return 1\n    elif x < 0:\n        return -1\n    return 0\n';
/** A loop whose body has two lines: line 3 the header, 4 and 5 the body, 6 after it. */
const TOTAL = 'def total(xs):\n    s = 0\n    for x in xs:\n        y = x * 2\n        s += y\n    return s\n';
/** Two-line arms: 3–4 the if arm, 6–7 the else arm. */
const ARMS =
  'def f(x):\n    if x > 0:\n        y = 1\n        z = 2\n    else:\n        y = -1\n        z = -2\n    return y\n';

describe('pre-labels: exceptions and event kinds', () => {
  const GET = 'def f(d, k):\n    v = d[k]\n    return v\n';
  const before = lineState('{"d": "{\'a\': 1}", "k": "\'b\'"}', '    v = d[k]');
  const raises = '<|exception_sep|><|src_sep|>    v = d[k]<|arg_sep|>"KeyError(\'b\')"';

  it('missed-exception: the truth raises, the prediction goes on (exception event, null return, exit_error)', () => {
    const got = run({
      ...fwd,
      source: GET,
      before,
      truth: raises,
      completion: lineState('{"..": "..", "v": "None"}', '    return v'),
    });
    expect(labels(got)).toEqual(['return.missed_exception by missed-exception']);
    expect(got[0].reason).toBe("the truth raises KeyError('b'); the prediction is a line");
    const left = run({
      ...fwd,
      action: 'step_return',
      source: GET,
      truth: '<|return_sep|><|src_sep|>    v = d[k]<|arg_sep|>null',
      completion: '<|return_sep|><|src_sep|>    return v<|arg_sep|>"1"',
    });
    expect(labels(left)).toEqual(['return.missed_exception by missed-exception']);
    expect(labels(run({ ...fwd, action: 'continue', truth: '<|exit_error|>', completion: '<|exit_normal|>' }))).toEqual(
      ['return.missed_exception by missed-exception'],
    );
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
    expect(labels(run({ ...fwd, action: 'continue', truth: '<|exit_normal|>', completion: '<|exit_error|>' }))).toEqual(
      ['return.invented_exception by invented-exception'],
    );
    expect(
      labels(
        run({
          ...fwd,
          action: 'step_return',
          truth: '<|return_sep|><|src_sep|>    return xs[-1]<|arg_sep|>"3"',
          completion: '<|return_sep|><|src_sep|>    return xs[-1]<|arg_sep|>null',
        }),
      ),
    ).toEqual(['return.invented_exception by invented-exception']);
  });

  it('two raising states of different kinds are a wrong event, not a missed exception', () => {
    expect(labels(run({ ...fwd, source: GET, before, truth: raises, completion: '<|exit_error|>' }))).toEqual([
      'control.wrong_event by wrong-event',
    ]);
  });

  it('wrong-event: another kind of state or an exit, and nothing else is blamed', () => {
    const truth = '<|return_sep|><|src_sep|>    return n<|arg_sep|>"2"';
    expect(
      labels(run({ ...fwd, source: COUNT, truth, completion: lineState('{"..": ".."}', '    return n') })),
    ).toEqual(['control.wrong_event by wrong-event']);
    const exit = run({ ...fwd, action: 'step_return', source: COUNT, truth, completion: '<|exit_normal|>' });
    expect(labels(exit)).toEqual(['control.wrong_event by wrong-event']);
    expect(exit[0].reason).toBe('predicted exit_normal, true return');
    // A forward token where the inverse one is due.
    const inv = { direction: 'inverse' as const, action: 'inv_step_into' as const, source: COUNT };
    expect(
      labels(
        run({
          ...inv,
          truth: '<|inv_line_sep|><|src_sep|>    n = 0<|arg_sep|>{"..": ".."}',
          completion: lineState('{"..": ".."}', '    n = 0'),
        }),
      ),
    ).toEqual(['control.wrong_event by wrong-event']);
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
    expect(got[0].reason).toBe(
      'the prediction is the state of `n += int(c == t)` at its 5th visit (seq 13); the truth is its 3rd: 2 iterations ahead',
    );
    // No recorded visit has these values: a wrong value.
    expect(labels(run({ ...c, completion: lineState(full("'r'", '5'), '        n += int(c == t)') }))).toEqual([
      'data.wrong_value by wrong-value',
    ]);
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
    expect(run({ ...count, truth, completion: lineState('{"..": ".."}', '  for c in s:') })[0].reason).toBe(
      'the predicted src differs from line 3 only in whitespace',
    );
  });

  it('no-such-line beside the data rules: the true line misread, its value and locals judged on their own', () => {
    // A real model's answer (test/data/tiny-nd, item 2): the return line garbled and the value wrong.
    const SCALE = "def f(text, value):\n    return value * len(text)\n\ndef main():\n    return f('ab', 'o')\n";
    const ret = run({
      ...fwd,
      action: 'step_over',
      source: SCALE,
      before: '<|return_sep|><|src_sep|>    return value * len(text)<|arg_sep|>"\'oo\'"',
      truth: "<|return_sep|><|src_sep|>    return f('ab', 'o')<|arg_sep|>\"'oo'\"",
      completion: "<|return_sep|><|src_sep|>    return f('lerth,e')<|arg_sep|>\"'l ose '\"",
    });
    expect(labels(ret)).toEqual(['control.wrong_line by no-such-line', 'return.wrong_value by arg-value']);
    expect(ret[1].reason).toBe("the prediction returns 'l ose ', the truth 'oo'");
    // A line of no program with a local of the wrong value and another the frame does not have.
    const locals = run({
      ...count,
      before: lineState('{"s": "\'berry\'", "t": "\'r\'", "n": "0"}', '    for c in s:'),
      truth: lineState('{"..": "..", "c": "\'b\'"}', '        n += int(c == t)'),
      completion: lineState('{"..": "..", "c": "\'x\'", "k": "1"}', '        n += int(c)'),
    });
    expect(labels(locals)).toEqual([
      'control.wrong_line by no-such-line',
      'data.invented_local by invented-local',
      'data.wrong_value by wrong-value',
    ]);
    // The right value after a misread line: the line alone.
    expect(
      labels(run({ ...count, truth: lineState('{"..": ".."}', '    n = 0'), completion: any('    n = 1') })),
    ).toEqual(['control.wrong_line by no-such-line']);
  });

  it('a line rule placing the state on another line of the program covers its value and locals', () => {
    // The other arm returns another value by design: one label, not a wrong value beside it.
    const got = run({
      ...fwd,
      source: SIGN,
      before: lineState('{"x": "-3"}', '    elif x < 0:'),
      action: 'step_return',
      truth: '<|return_sep|><|src_sep|>        return -1<|arg_sep|>"-1"',
      completion: '<|return_sep|><|src_sep|>        return 1<|arg_sep|>"1"',
    });
    expect(labels(got)).toEqual(['control.branch by other-arm']);
  });

  it('other-function: the right value returned from the wrong function', () => {
    const src =
      'def sq(x):\n    return x * x\n\ndef f(xs):\n    total = 0\n    for x in xs:\n        total += sq(x)\n    return total\n';
    const got = run({
      ...fwd,
      action: 'step_return',
      source: src,
      before: '<|call_sep|><|src_sep|>def sq(x):<|arg_sep|>{"x": "2"}',
      truth: '<|return_sep|><|src_sep|>    return x * x<|arg_sep|>"4"',
      completion: '<|return_sep|><|src_sep|>    return total<|arg_sep|>"4"',
    });
    expect(labels(got)).toEqual(['control.wrong_line by other-function']);
    expect(got[0].reason).toBe(
      'the predicted line `return total` (line 8) is in `def f(xs):`, the true line `return x * x` (line 2) in `def sq(x):`',
    );
  });

  const SIGN = 'def sign(x):\n    if x > 0:\n        return 1\n    elif x < 0:\n        return -1\n    return 0\n';

  it('branch-condition: one step from an if line, into the body instead of past it', () => {
    const c = {
      ...fwd,
      source: SIGN,
      before: lineState('{"x": "-3"}', '    if x > 0:'),
      truth: lineState('{"..": ".."}', '    elif x < 0:'),
    };
    const got = run({ ...c, completion: lineState('{"..": ".."}', '        return 1') });
    expect(labels(got)).toEqual(['control.branch by branch-condition']);
    expect(got[0].reason).toBe('after `if x > 0:` (line 2) the truth skips its body, the prediction enters it');
    // From the elif: into its body rather than past the chain.
    const elif = {
      ...c,
      before: lineState('{"x": "0"}', '    elif x < 0:'),
      truth: lineState('{"..": ".."}', '    return 0'),
    };
    expect(labels(run({ ...elif, completion: lineState('{"..": ".."}', '        return -1') }))).toEqual([
      'control.branch by branch-condition',
    ]);
  });

  it('other-arm: the truth in one arm of an if/else, the prediction in another (here going backwards)', () => {
    const src =
      'def f(x):\n    if x > 0:\n        y = 1\n        z = 2\n    else:\n        y = -1\n        z = -2\n    return y\n';
    const got = run({
      direction: 'inverse',
      action: 'inv_step_into',
      source: src,
      before: '<|inv_line_sep|><|src_sep|>    return y<|arg_sep|>{"..": ".."}',
      truth: '<|inv_line_sep|><|src_sep|>        z = -2<|arg_sep|>{"..": ".."}',
      completion: '<|inv_line_sep|><|src_sep|>        z = 2<|arg_sep|>{"..": ".."}',
    });
    expect(labels(got)).toEqual(['control.branch by other-arm']);
    expect(got[0].reason).toBe(
      'the truth is in the else arm `else:` (line 5), the prediction in the if arm `if x > 0:` (line 2)',
    );
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
    expect(got[0].reason).toBe("the truth is in the loop's body; the prediction is back at `while i < n:` (line 3)");
  });

  it('wrong-line: any other wrong line, with or without the program text; locals at a wrong line are not compared', () => {
    const c = {
      ...count,
      before: '<|call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"s": "\'berry\'", "t": "\'r\'"}',
      truth: lineState('{"..": ".."}', '    n = 0'),
    };
    const got = run({ ...c, completion: lineState('{"..": "..", "n": "0"}', '    return n') });
    expect(labels(got)).toEqual(['control.wrong_line by wrong-line']);
    expect(got[0].reason).toBe('predicted `return n` (line 5), true `n = 0` (line 2)');
    const bare = run({ ...c, source: undefined, completion: lineState('{"..": ".."}', '    return n') });
    expect(labels(bare)).toEqual(['control.wrong_line by wrong-line']);
    expect(bare[0].reason).toBe('predicted `return n`, true `n = 0`');
  });
});

describe('event rules: their reasons, and what explains everything', () => {
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
    expect(labels(list)).toEqual([
      'format.unparseable by non-string-value',
      'return.missed_exception by missed-exception',
    ]);
    expect(list[1].reason).toBe('the truth returns by an exception; the prediction returns [1,2]');
  });

  it('missed-exception: an exit by an error', () => {
    const got = run({
      direction: 'forward',
      action: 'continue',
      truth: '<|exit_error|>',
      completion: '<|exit_normal|>',
    });
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
    const got = run({
      ...inv,
      truth: '<|inv_line_sep|><|src_sep|>    n = 0<|arg_sep|>{"..": ".."}',
      completion: lineState('{}', '    n = 0'),
    });
    expect(labels(got)).toEqual(['control.wrong_event by wrong-event']);
  });
});

describe('no-such-line: the truth at a line of no program', () => {
  it('a src of blanks is no line of the program, not a blank line "off by whitespace"', () => {
    const got = run({
      ...fwd,
      source: SCRIPT,
      before: '<|call_sep|><|src_sep|>def inc(x):<|arg_sep|>{"x": "1"}',
      truth: any('    y = x + 1'),
      completion: any('    '),
    });
    expect(labels(got)).toEqual(['control.wrong_line by no-such-line']);
    expect(got[0].reason).toBe('no line of the program reads ``');
  });

  it('the first line of the program off by whitespace is named as line 1', () => {
    const got = run({
      ...fwd,
      source: SCRIPT,
      before: lineState('{}', 'a = inc(1)'),
      truth: '<|call_sep|><|src_sep|>def inc(x):<|arg_sep|>{"x": "1"}',
      completion: '<|call_sep|><|src_sep|>  def inc(x):<|arg_sep|>{"x": "1"}',
    });
    expect(labels(got)).toEqual(['control.wrong_line by no-such-line']);
    expect(got[0].reason).toBe('the predicted src differs from line 1 only in whitespace');
  });

  it('a right src is never blamed, even when the program text given lacks its line', () => {
    // The function alone (the inverse context) while the truth is the forward wrapper's return:
    // only the value is wrong.
    const got = run({
      ...fwd,
      action: 'step_return',
      source: 'def f(s):\n    return len(s)\n',
      truth: '<|return_sep|><|src_sep|>    return f(\'ab\')<|arg_sep|>"2"',
      completion: '<|return_sep|><|src_sep|>    return f(\'ab\')<|arg_sep|>"3"',
    });
    expect(labels(got)).toEqual(['return.wrong_value by arg-value']);
  });
});

describe('other-function: a line of another function', () => {
  it('names a method by its def line without its indentation', () => {
    const src =
      'class Box:\n    def get(self):\n        return self.v\n\n    def double(self):\n        return self.get() * 2\n';
    const got = run({
      ...fwd,
      action: 'step_return',
      source: src,
      before: '<|call_sep|><|src_sep|>    def get(self):<|arg_sep|>{"self": "<Box object at 0x1>"}',
      truth: '<|return_sep|><|src_sep|>        return self.v<|arg_sep|>"3"',
      completion: '<|return_sep|><|src_sep|>        return self.get() * 2<|arg_sep|>"3"',
    });
    expect(labels(got)).toEqual(['control.wrong_line by other-function']);
    expect(got[0].reason).toBe(
      'the predicted line `return self.get() * 2` (line 6) is in `def double(self):`, the true line `return self.v` (line 3) in `def get(self):`',
    );
  });

  it('says "the module level" for a line outside every function', () => {
    const got = run({
      ...fwd,
      source: SCRIPT,
      before: '<|call_sep|><|src_sep|>def inc(x):<|arg_sep|>{"x": "1"}',
      truth: any('    y = x + 1'),
      completion: any('print(a)'),
    });
    expect(labels(got)).toEqual(['control.wrong_line by other-function']);
    expect(got[0].reason).toBe(
      'the predicted line `print(a)` (line 6) is in the module level, the true line `y = x + 1` (line 2) in `def inc(x):`',
    );
  });
});

describe('branch-condition: which side of an if the test took', () => {
  const fromIf = (x: string) => ({ ...fwd, source: SIGN, before: lineState(`{"x": "${x}"}`, '    if x > 0:') });

  it('the truth enters the body, the prediction skips it', () => {
    const got = run({ ...fromIf('3'), truth: any('        return 1'), completion: any('    elif x < 0:') });
    expect(labels(got)).toEqual(['control.branch by branch-condition']);
    expect(got[0].reason).toBe('after `if x > 0:` (line 2) the truth enters its body, the prediction skips it');
  });

  it('both past the body is no branch taken wrongly: the prediction skipped the elif test', () => {
    const got = run({ ...fromIf('-3'), truth: any('    elif x < 0:'), completion: any('    return 0') });
    expect(labels(got)).toEqual(['control.wrong_line by wrong-line']);
  });

  it('going backwards from an if line no condition was evaluated: a wrong line', () => {
    const src = 'def f(x):\n    y = x * 2\n    if y > 4:\n        y = 0\n    return y\n';
    const inv = (s: string) => `<|inv_line_sep|><|src_sep|>${s}<|arg_sep|>{"..": ".."}`;
    const got = run({
      direction: 'inverse',
      action: 'inv_step_into',
      source: src,
      before: inv('    if y > 4:'),
      truth: inv('    y = x * 2'),
      completion: inv('        y = 0'),
    });
    expect(labels(got)).toEqual(['control.wrong_line by wrong-line']);
  });
});

describe('loop-condition: a loop run once more or once less', () => {
  const fromFor = {
    ...fwd,
    source: COUNT,
    before: lineState('{"s": "\'berry\'", "t": "\'r\'", "n": "1", "c": "\'r\'"}', '    for c in s:'),
  };

  it('the loop runs once more, the prediction ends it', () => {
    const got = run({ ...fromFor, truth: any('        n += int(c == t)'), completion: any('    return n') });
    expect(labels(got)).toEqual(['control.loop_iteration by loop-condition']);
    expect(got[0].reason).toBe('the loop `for c in s:` (line 3) runs once more; the prediction ends it');
  });

  it('both outside the body is no iteration off: the prediction went back before the loop', () => {
    const got = run({ ...fromFor, truth: any('    return n'), completion: any('    n = 0') });
    expect(labels(got)).toEqual(['control.wrong_line by wrong-line']);
  });

  describe('one step back from the header', () => {
    const inv = (s: string) => `<|inv_line_sep|><|src_sep|>${s}<|arg_sep|>{"..": ".."}`;
    const back = {
      direction: 'inverse' as const,
      action: 'inv_step_into' as const,
      source: COUNT,
      before: inv('    for c in s:'),
    };

    it('its first visit, predicted as coming from the body: the loop run once more than it did', () => {
      const got = run({ ...back, truth: inv('    n = 0'), completion: inv('        n += int(c == t)') });
      expect(labels(got)).toEqual(['control.loop_iteration by loop-condition']);
      expect(got[0].reason).toBe(
        'this is the first visit of the loop `for c in s:` (line 3); the prediction has it run once before',
      );
    });

    it('a later visit, predicted as the first: the loop run once less', () => {
      const got = run({ ...back, truth: inv('        n += int(c == t)'), completion: inv('    n = 0') });
      expect(labels(got)).toEqual(['control.loop_iteration by loop-condition']);
      expect(got[0].reason).toBe(
        'the loop `for c in s:` (line 3) had run before this visit; the prediction makes it the first',
      );
    });

    it('a prediction back at the header itself is left to loop-boundary: no round runs from a header to itself', () => {
      const got = run({
        ...back,
        truth: inv('        n += int(c == t)'),
        completion: `<|inv_line_sep|><|src_sep|>    for c in s:<|arg_sep|>{"..": "..", "n": "1"}`,
      });
      expect(got.map((x) => x.rule)).toEqual(['loop-boundary']);
    });

    it('not after a single step: a breakpoint from the header is judged by where the lines are, not by the header', () => {
      const from = { ...fromFor, action: 'breakpoint' as const };
      expect(labels(run({ ...from, truth: any('        n += int(c == t)'), completion: any('    return n') }))).toEqual(
        ['control.loop_iteration by loop-exit'],
      );
    });

    it('a line after the loop is no iteration off: nothing comes back to the header from there', () => {
      expect(labels(run({ ...back, truth: inv('        n += int(c == t)'), completion: inv('    return n') }))).toEqual(
        ['control.loop_iteration by loop-exit'],
      );
      expect(labels(run({ ...back, truth: inv('    n = 0'), completion: inv('    return n') }))).toEqual([
        'control.wrong_line by wrong-line',
      ]);
    });
  });
});

describe('other-arm: the other side of an if/elif/else', () => {
  it('a prediction past the whole if/else is not in another arm (and does not crash the rule)', () => {
    const got = run({
      ...fwd,
      source: ARMS,
      before: lineState('{"x": "3"}', '        y = 1'),
      truth: any('        z = 2'),
      completion: any('    return y'),
    });
    expect(labels(got)).toEqual(['control.wrong_line by wrong-line']);
  });

  it('the if line itself is in no arm: skipping the test into the else arm is a wrong line', () => {
    const got = run({
      ...fwd,
      source: ARMS,
      before: '<|call_sep|><|src_sep|>def f(x):<|arg_sep|>{"x": "-1"}',
      truth: any('    if x > 0:'),
      completion: any('        y = -1'),
    });
    expect(labels(got)).toEqual(['control.wrong_line by wrong-line']);
  });

  it('two lines of the same arm are no branch taken wrongly', () => {
    const got = run({
      ...fwd,
      source: ARMS,
      before: lineState('{"x": "3"}', '    if x > 0:'),
      truth: any('        y = 1'),
      completion: any('        z = 2'),
    });
    expect(labels(got)).toEqual(['control.wrong_line by wrong-line']);
  });
});

describe('loop-exit: leaving a loop that goes on', () => {
  it("the loop body's last line is still in the loop", () => {
    const got = run({
      ...fwd,
      source: TOTAL,
      before: lineState('{"xs": "[1, 2]", "s": "0", "x": "1"}', '        y = x * 2'),
      truth: any('        s += y'),
      completion: any('    return s'),
    });
    expect(labels(got)).toEqual(['control.loop_iteration by loop-exit']);
    expect(got[0].reason).toBe('the truth is still in the loop `for x in xs:` (line 3); the prediction has left it');
  });

  it('after a break the loop is over; the prediction is still in it', () => {
    const src =
      'def first_neg(xs):\n    r = None\n    for x in xs:\n        if x < 0:\n            r = x\n            break\n    return r\n';
    const got = run({
      ...fwd,
      source: src,
      before: lineState('{"xs": "[2, -1, 3]", "r": "-1", "x": "-1"}', '            break'),
      truth: any('    return r'),
      completion: any('    for x in xs:'),
    });
    expect(labels(got)).toEqual(['control.loop_iteration by loop-exit']);
    expect(got[0].reason).toBe('the loop `for x in xs:` (line 3) is over; the prediction is still in it');
  });

  it('a line before the loop is not "after" it: jumping into the body is a wrong line', () => {
    const got = run({
      ...fwd,
      source: TOTAL,
      before: '<|call_sep|><|src_sep|>def total(xs):<|arg_sep|>{"xs": "[1, 2]"}',
      truth: any('    s = 0'),
      completion: any('        s += y'),
    });
    expect(labels(got)).toEqual(['control.wrong_line by wrong-line']);
  });
});

describe('loop-boundary: back at the header or past the loop', () => {
  const fromBody = (src: string) => ({
    ...fwd,
    source: TOTAL,
    before: lineState('{"xs": "[1, 2]", "s": "0", "x": "1", "y": "2"}', src),
  });

  it('the truth is back at the header, the prediction goes on in the body', () => {
    const got = run({
      ...fromBody('        s += y'),
      truth: any('    for x in xs:'),
      completion: any('        y = x * 2'),
    });
    expect(labels(got)).toEqual(['control.loop_iteration by loop-boundary']);
    expect(got[0].reason).toBe(
      'the iteration is over (back at `for x in xs:` (line 3)); the prediction goes on in the body',
    );
  });

  it('two lines of the body, neither the header, are no iteration boundary', () => {
    const got = run({
      ...fromBody('        y = x * 2'),
      truth: any('        s += y'),
      completion: lineState('{"..": "..", "y": "2"}', '        y = x * 2'),
    });
    expect(labels(got)).toEqual(['control.wrong_line by wrong-line']);
  });

  it('the header against a line before the loop is not "in the body"', () => {
    const got = run({ ...fromBody('        s += y'), truth: any('    for x in xs:'), completion: any('    s = 0') });
    expect(labels(got)).toEqual(['control.wrong_line by wrong-line']);
  });
});

describe('other-iteration: the reason counts visits right', () => {
  // total(14): s += i runs 14 times; its k-th visit (seq 4 + 2(k-1)) has i = k-1, s = 0+1+…+(k-2).
  const TOTAL = 'def total(n):\n    s = 0\n    for i in range(n):\n        s += i\n    return s\n';
  const body = '        s += i';
  const at = (k: number) => ({ n: '14', s: String(((k - 1) * (k - 2)) / 2), i: String(k - 1) });
  const frame: EventFacts[] = [
    ev(1, 1, 'def total(n):', { n: '14' }, 'call'),
    ev(2, 2, '    s = 0', { n: '14' }),
    ev(3, 3, '    for i in range(n):', { n: '14', s: '0' }),
  ];
  for (let k = 1; k <= 14; k++) {
    frame.push(ev(4 + 2 * (k - 1), 4, body, at(k)));
    frame.push(ev(5 + 2 * (k - 1), 3, '    for i in range(n):', { ...at(k), s: String(Number(at(k).s) + k - 1) }));
  }
  const visit = (k: number) => frame.find((e) => e.src === body && e.locals.i === String(k - 1))!;
  const reason = (predicted: number, truth: number) =>
    run({
      ...fwd,
      action: 'breakpoint',
      source: TOTAL,
      truth: lineState(json(at(truth)), body),
      trueEvent: visit(truth),
      frameEvents: frame,
      completion: lineState(json(at(predicted)), body),
    })[0].reason;

  it('1st, 2nd, 3rd, 11th, 12th, 13th', () => {
    expect(reason(11, 13)).toBe(
      'the prediction is the state of `s += i` at its 11th visit (seq 24); the truth is its 13th: 2 iterations behind',
    );
    expect(reason(12, 1)).toBe(
      'the prediction is the state of `s += i` at its 12th visit (seq 26); the truth is its 1st: 11 iterations ahead',
    );
    expect(reason(1, 3)).toBe(
      'the prediction is the state of `s += i` at its 1st visit (seq 4); the truth is its 3rd: 2 iterations behind',
    );
    expect(reason(2, 13)).toBe(
      'the prediction is the state of `s += i` at its 2nd visit (seq 6); the truth is its 13th: 11 iterations behind',
    );
  });

  it('one differing name is enough when it is the loop variable: one iteration behind', () => {
    // count("berry", "r") at its 3rd visit of the body (c = 'r', n = 0); the prediction is the 2nd (c = 'e', n = 0).
    const got = run({
      ...fwd,
      action: 'breakpoint',
      source: COUNT,
      truth: lineState(json(countEvent(9).locals), '        n += int(c == t)'),
      trueEvent: countEvent(9),
      frameEvents: countEvents,
      completion: lineState(json({ ...countEvent(9).locals, c: "'e'" }), '        n += int(c == t)'),
    });
    expect(labels(got)).toEqual(['control.loop_iteration by other-iteration']);
    expect(got[0].reason).toBe(
      'the prediction is the state of `n += int(c == t)` at its 2nd visit (seq 7); the truth is its 3rd: 1 iteration behind',
    );
  });

  it('an exception raised on the line is not one of its visits (a loop whose body catches it)', () => {
    const INV =
      'def inv(xs):\n    n = 0\n    for x in xs:\n        try:\n            n += 10 // x\n        except ZeroDivisionError:\n            n -= 1\n    return n\n';
    const L = INV.split('\n');
    const xs = { xs: '[5, 0, 2]' };
    const rows: [number, string, Record<string, string>, string?][] = [
      [1, L[0], xs, 'call'],
      [2, L[1], xs],
      [3, L[2], { ...xs, n: '0' }],
      [4, L[3], { ...xs, n: '0', x: '5' }],
      [5, L[4], { ...xs, n: '0', x: '5' }],
      [3, L[2], { ...xs, n: '2', x: '5' }],
      [4, L[3], { ...xs, n: '2', x: '0' }],
      [5, L[4], { ...xs, n: '2', x: '0' }],
      [5, L[4], { ...xs, n: '2', x: '0' }, 'exception'],
      [6, L[5], { ...xs, n: '2', x: '0' }],
      [7, L[6], { ...xs, n: '2', x: '0' }],
      [3, L[2], { ...xs, n: '1', x: '0' }],
      [4, L[3], { ...xs, n: '1', x: '2' }],
      [5, L[4], { ...xs, n: '1', x: '2' }],
      [3, L[2], { ...xs, n: '6', x: '2' }],
      [8, L[7], { ...xs, n: '6', x: '2' }],
    ];
    const frame = rows.map(([line, src, locals, event], i) => ev(i + 1, line, src, locals, event));
    const truthEvent = frame[13]; // 3rd visit of `n += 10 // x`: x = 2
    const got = run({
      ...fwd,
      action: 'breakpoint',
      source: INV,
      truth: lineState(json(truthEvent.locals), L[4]),
      trueEvent: truthEvent,
      frameEvents: frame,
      completion: lineState(json({ ...xs, n: '2', x: '0' }), L[4]),
    });
    expect(labels(got)).toEqual(['control.loop_iteration by other-iteration']);
    expect(got[0].reason).toBe(
      'the prediction is the state of `n += 10 // x` at its 2nd visit (seq 8); the truth is its 3rd: 1 iteration behind',
    );
  });

  it('going backwards: an inverse state of another iteration', () => {
    const inv = (locals: Record<string, string>) =>
      `<|inv_line_sep|><|src_sep|>        n += int(c == t)<|arg_sep|>${json(locals)}`;
    const got = run({
      direction: 'inverse',
      action: 'inv_step_into',
      source: COUNT,
      truth: inv(countEvent(9).locals),
      trueEvent: { ...countEvent(9), event: 'line' },
      // Recorded events are named as forward ones: `line`, not `inv_line`.
      frameEvents: countEvents.map((e) => ({ ...e, event: e.line === 1 ? 'call' : 'line' })),
      completion: inv(countEvent(13).locals),
    });
    expect(labels(got)).toEqual(['control.loop_iteration by other-iteration']);
    expect(got[0].reason).toBe(
      'the prediction is the state of `n += int(c == t)` at its 5th visit (seq 13); the truth is its 3rd: 2 iterations ahead',
    );
  });
});

describe('other-iteration: the delta marker and names left out', () => {
  const body = '        n += int(c == t)';

  it('a delta with the ".." marker that matches another visit is another iteration', () => {
    // Truth: 5th visit (c = 'y', n = 2); the prediction shows the 2nd visit's c and n.
    const got = run({
      ...fwd,
      action: 'breakpoint',
      source: COUNT,
      truth: lineState('{"..": "..", "c": "\'y\'"}', body),
      trueEvent: countEvent(13),
      frameEvents: countEvents,
      completion: lineState('{"..": "..", "c": "\'e\'", "n": "0"}', body),
    });
    expect(labels(got)).toEqual(['control.loop_iteration by other-iteration']);
    expect(got[0].reason).toBe(
      'the prediction is the state of `n += int(c == t)` at its 2nd visit (seq 7); the truth is its 5th: 3 iterations behind',
    );
  });

  it('with the ".." marker, a name left out is not claimed absent: a lone wrong counter is a wrong value', () => {
    // At the header after the 3rd body run (n just became 1); the model keeps n at 0, which the
    // header's first visit (before c existed) also shows.
    const got = run({
      ...fwd,
      source: COUNT,
      before: lineState(json(countEvent(9).locals), body),
      beforeEvent: countEvent(9),
      truth: lineState('{"..": "..", "n": "1"}', '    for c in s:'),
      trueEvent: countEvent(10),
      frameEvents: countEvents,
      completion: lineState('{"..": "..", "n": "0"}', '    for c in s:'),
    });
    expect(labels(got)).toEqual(['data.wrong_value by wrong-value']);
  });

  it('without the marker, names left out count only when the matched visit lacks them too', () => {
    // Truth: the 4th visit of the body (c = 'r', n = 1; nothing changed since the header). The
    // prediction writes the unchanged s and c without the marker: not a delta. Its s and c are also
    // those of the 3rd visit, which has t and n: leaving them out does not make it that iteration.
    const got = run({
      ...fwd,
      source: COUNT,
      before: lineState('{"..": "..", "n": "1"}', '    for c in s:'),
      beforeEvent: countEvent(10),
      truth: lineState('{"..": ".."}', body),
      trueEvent: countEvent(11),
      frameEvents: countEvents,
      completion: lineState('{"s": "\'berry\'", "c": "\'r\'"}', body),
    });
    expect(labels(got)).toEqual(['format.delta by unchanged-written']);
  });
});

describe('other-iteration: lines visited once, other lines, missing context', () => {
  it('a line visited once is not another iteration: two lines skipped are a wrong line', () => {
    const F = 'def f(a):\n    b = a + 1\n    c = b * 2\n    return c\n';
    const L = F.split('\n');
    const frame = [
      ev(1, 1, L[0], { a: '1' }, 'call'),
      ev(2, 2, L[1], { a: '1' }),
      ev(3, 3, L[2], { a: '1', b: '2' }),
      ev(4, 4, L[3], { a: '1', b: '2', c: '4' }),
      ev(5, 4, L[3], { a: '1', b: '2', c: '4' }, 'return'),
    ];
    const got = run({
      ...fwd,
      source: F,
      before: '<|call_sep|><|src_sep|>def f(a):<|arg_sep|>{"a": "1"}',
      beforeEvent: frame[0],
      truth: lineState('{"..": ".."}', L[1]),
      trueEvent: frame[1],
      frameEvents: frame,
      completion: lineState('{"a": "1", "b": "2", "c": "4"}', L[3]),
    });
    expect(labels(got)).toEqual(['control.wrong_line by wrong-line']);
    expect(got[0].reason).toBe('predicted `return c` (line 4), true `b = a + 1` (line 2)');
  });

  it('another line of the loop at another iteration: the iteration explains the line, no truth visit is named', () => {
    const DBL = 'def dbl(xs):\n    out = 0\n    for x in xs:\n        a = x * 2\n        out += a\n    return out\n';
    const L = DBL.split('\n');
    const xs = { xs: '[1, 2, 3]' };
    const rows: [number, Record<string, string>][] = [
      [2, xs],
      [3, { ...xs, out: '0' }],
      [4, { ...xs, out: '0', x: '1' }],
      [5, { ...xs, out: '0', x: '1', a: '2' }],
      [3, { ...xs, out: '2', x: '1', a: '2' }],
      [4, { ...xs, out: '2', x: '2', a: '2' }],
      [5, { ...xs, out: '2', x: '2', a: '4' }],
      [3, { ...xs, out: '6', x: '2', a: '4' }],
      [4, { ...xs, out: '6', x: '3', a: '4' }],
      [5, { ...xs, out: '6', x: '3', a: '6' }],
      [3, { ...xs, out: '12', x: '3', a: '6' }],
      [6, { ...xs, out: '12', x: '3', a: '6' }],
    ];
    const frame = frameOf(L, xs, rows);
    // Truth: `out += a` in the 2nd iteration (seq 8); the model went on to the 3rd iteration's `a = x * 2` (seq 10).
    const got = run({
      ...fwd,
      source: DBL,
      before: lineState('{"..": "..", "x": "2"}', L[3]),
      beforeEvent: frame[6],
      truth: lineState('{"..": "..", "a": "4"}', L[4]),
      trueEvent: frame[7],
      frameEvents: frame,
      completion: lineState('{"..": "..", "x": "3", "a": "4"}', L[3]),
    });
    expect(labels(got)).toEqual(['control.loop_iteration by other-iteration']);
    expect(got[0].reason).toBe('the prediction is the state of `a = x * 2` at its 3rd visit (seq 10)');
  });

  const c = {
    ...fwd,
    action: 'breakpoint' as const,
    source: COUNT,
    truth: lineState(json(countEvent(9).locals), '        n += int(c == t)'),
    trueEvent: countEvent(9),
    frameEvents: countEvents,
    completion: lineState(json(countEvent(13).locals), '        n += int(c == t)'),
  };

  it('without the true event: the matched visit, and no place for the truth', () => {
    const got = run({ ...c, trueEvent: undefined });
    expect(labels(got)).toEqual(['control.loop_iteration by other-iteration']);
    expect(got[0].reason).toBe('the prediction is the state of `n += int(c == t)` at its 5th visit (seq 13)');
  });

  it('without the program text (no loop variables known), two differing names still make an iteration', () => {
    const got = run({ ...c, source: undefined });
    expect(labels(got)).toEqual(['control.loop_iteration by other-iteration']);
    expect(got[0].reason).toBe(
      'the prediction is the state of `n += int(c == t)` at its 5th visit (seq 13); the truth is its 3rd: 2 iterations ahead',
    );
  });

  it('events recorded without seq: the reason names no seq', () => {
    const got = run({ ...c, frameEvents: countEvents.map(({ seq: _seq, ...e }) => e) });
    expect(labels(got)).toEqual(['control.loop_iteration by other-iteration']);
    expect(got[0].reason).toBe('the prediction is the state of `n += int(c == t)` at its 5th visit');
  });
});

describe('other-iteration: a while loop whose header binds its variable', () => {
  it('a name bound by `:=` in the `while` header is the loop variable: alone, it makes another iteration', () => {
    const SRC =
      'def total(xs):\n    it = iter(xs)\n    s = 0\n    while (x := next(it, None)) is not None:\n        s += x\n    return s\n';
    const L = SRC.split('\n');
    const b = { xs: '[1, 2, 3]', it: '<list_iterator object>' };
    const rows: [number, Record<string, string>][] = [
      [2, { xs: b.xs }],
      [3, b],
      [4, { ...b, s: '0' }],
      [5, { ...b, s: '0', x: '1' }],
      [4, { ...b, s: '1', x: '1' }],
      [5, { ...b, s: '1', x: '2' }],
      [4, { ...b, s: '3', x: '2' }],
      [5, { ...b, s: '3', x: '3' }],
      [4, { ...b, s: '6', x: '3' }],
      [6, { ...b, s: '6', x: 'None' }],
    ];
    const frame = frameOf(L, { xs: b.xs }, rows);
    // Truth: `s += x` in the 2nd iteration (seq 7, x just became 2); the model shows the 3rd's x.
    const got = run({
      ...fwd,
      source: SRC,
      before: lineState('{"..": "..", "s": "1"}', L[3]),
      beforeEvent: frame[5],
      truth: lineState('{"..": "..", "x": "2"}', L[4]),
      trueEvent: frame[6],
      frameEvents: frame,
      completion: lineState('{"..": "..", "x": "3"}', L[4]),
    });
    expect(labels(got)).toEqual(['control.loop_iteration by other-iteration']);
    expect(got[0].reason).toBe(
      'the prediction is the state of `s += x` at its 3rd visit (seq 9); the truth is its 2nd: 1 iteration ahead',
    );
  });
});

describe('arms of an if/elif/else chain', () => {
  const SIGN =
    'def sign(x):\n    if x > 0:\n        return 1\n    elif x < 0:\n        return -1\n    else:\n        return 0\n';

  it('the if line is the test, in no arm: jumping from it into the else arm skips a line, it is no branch', () => {
    const got = run({
      ...fwd,
      source: SIGN,
      before: '<|call_sep|><|src_sep|>def sign(x):<|arg_sep|>{"x": "0"}',
      truth: lineState('{"..": ".."}', '    if x > 0:'),
      completion: lineState('{"..": ".."}', '        return 0'),
    });
    expect(labels(got)).toEqual(['control.wrong_line by wrong-line']);
    expect(got[0].reason).toBe('predicted `return 0` (line 7), true `if x > 0:` (line 2)');
  });

  it('an elif line is in its own arm: the truth tests it, the prediction is in the if arm', () => {
    const inv = (src: string) => `<|inv_line_sep|><|src_sep|>${src}<|arg_sep|>{"..": ".."}`;
    const got = run({
      direction: 'inverse',
      action: 'inv_step_into',
      source: SIGN,
      before: inv('        return -1'),
      truth: inv('    elif x < 0:'),
      completion: inv('        return 1'),
    });
    expect(labels(got)).toEqual(['control.branch by other-arm']);
    expect(got[0].reason).toBe(
      'the truth is in the elif arm `elif x < 0:` (line 4), the prediction in the if arm `if x > 0:` (line 2)',
    );
  });
});

describe('line rules when the true line is not in the program text', () => {
  it('no rule places the truth at a line: only wrong-line speaks, without a line number for the truth', () => {
    const got = run({
      ...fwd,
      source: COUNT,
      truth: lineState('{"..": ".."}', '    m = 0'),
      completion: lineState('{"..": ".."}', '    return n'),
    });
    expect(labels(got)).toEqual(['control.wrong_line by wrong-line']);
    expect(got[0].reason).toBe('predicted `return n` (line 5), true `m = 0`');
  });
});
