/**
 * The line rules of rules-lines.ts (the `lineRules` table) where the first mutation run of
 * src/annotate/prelabel left them unchecked: which side of a block each rule looks at, the
 * direction and action they need, and the words of their reasons. Expected labels follow the
 * default taxonomy's definitions (control.wrong_line: a line skipped, of another function or
 * of no program line; control.branch: the other side of an if; control.loop_iteration: a loop
 * run once more or once less), never the code's own output.
 */
import { describe, expect, it } from 'vitest';
import { COUNT, labels, lineState, run } from './cases.js';

const fwd = { direction: 'forward' as const, action: 'step_into' as const };
const any = (src: string) => lineState('{"..": ".."}', src);

/** Module-level code calling a function (a program run as a script); line 4 is blank. */
const SCRIPT = 'def inc(x):\n    y = x + 1\n    return y\n\na = inc(1)\nprint(a)\n';
const SIGN = 'def sign(x):\n    if x > 0:\n        return 1\n    elif x < 0:\n        return -1\n    return 0\n';
/** A loop whose body has two lines: line 3 the header, 4 and 5 the body, 6 after it. */
const TOTAL = 'def total(xs):\n    s = 0\n    for x in xs:\n        y = x * 2\n        s += y\n    return s\n';
/** Two-line arms: 3–4 the if arm, 6–7 the else arm. */
const ARMS = 'def f(x):\n    if x > 0:\n        y = 1\n        z = 2\n    else:\n        y = -1\n        z = -2\n    return y\n';

describe('no-such-line', () => {
  it('a src of blanks is no line of the program, not a blank line "off by whitespace"', () => {
    const got = run({ ...fwd, source: SCRIPT, before: '<|call_sep|><|src_sep|>def inc(x):<|arg_sep|>{"x": "1"}', truth: any('    y = x + 1'), completion: any('    ') });
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

describe('other-function', () => {
  it('names a method by its def line without its indentation', () => {
    const src = 'class Box:\n    def get(self):\n        return self.v\n\n    def double(self):\n        return self.get() * 2\n';
    const got = run({
      ...fwd,
      action: 'step_return',
      source: src,
      before: '<|call_sep|><|src_sep|>    def get(self):<|arg_sep|>{"self": "<Box object at 0x1>"}',
      truth: '<|return_sep|><|src_sep|>        return self.v<|arg_sep|>"3"',
      completion: '<|return_sep|><|src_sep|>        return self.get() * 2<|arg_sep|>"3"',
    });
    expect(labels(got)).toEqual(['control.wrong_line by other-function']);
    expect(got[0].reason).toBe('the predicted line `return self.get() * 2` (line 6) is in `def double(self):`, the true line `return self.v` (line 3) in `def get(self):`');
  });

  it('says "the module level" for a line outside every function', () => {
    const got = run({ ...fwd, source: SCRIPT, before: '<|call_sep|><|src_sep|>def inc(x):<|arg_sep|>{"x": "1"}', truth: any('    y = x + 1'), completion: any('print(a)') });
    expect(labels(got)).toEqual(['control.wrong_line by other-function']);
    expect(got[0].reason).toBe('the predicted line `print(a)` (line 6) is in the module level, the true line `y = x + 1` (line 2) in `def inc(x):`');
  });
});

describe('branch-condition', () => {
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
    const got = run({ direction: 'inverse', action: 'inv_step_into', source: src, before: inv('    if y > 4:'), truth: inv('    y = x * 2'), completion: inv('        y = 0') });
    expect(labels(got)).toEqual(['control.wrong_line by wrong-line']);
  });
});

describe('loop-condition', () => {
  const fromFor = { ...fwd, source: COUNT, before: lineState('{"s": "\'berry\'", "t": "\'r\'", "n": "1", "c": "\'r\'"}', '    for c in s:') };

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
    const back = { direction: 'inverse' as const, action: 'inv_step_into' as const, source: COUNT, before: inv('    for c in s:') };

    it('its first visit, predicted as coming from the body: the loop run once more than it did', () => {
      const got = run({ ...back, truth: inv('    n = 0'), completion: inv('        n += int(c == t)') });
      expect(labels(got)).toEqual(['control.loop_iteration by loop-condition']);
      expect(got[0].reason).toBe('this is the first visit of the loop `for c in s:` (line 3); the prediction has it run once before');
    });

    it('a later visit, predicted as the first: the loop run once less', () => {
      const got = run({ ...back, truth: inv('        n += int(c == t)'), completion: inv('    n = 0') });
      expect(labels(got)).toEqual(['control.loop_iteration by loop-condition']);
      expect(got[0].reason).toBe('the loop `for c in s:` (line 3) had run before this visit; the prediction makes it the first');
    });

    it('a prediction back at the header itself is left to loop-boundary: no round runs from a header to itself', () => {
      const got = run({ ...back, truth: inv('        n += int(c == t)'), completion: `<|inv_line_sep|><|src_sep|>    for c in s:<|arg_sep|>{"..": "..", "n": "1"}` });
      expect(got.map((x) => x.rule)).toEqual(['loop-boundary']);
    });

    it('not after a single step: a breakpoint from the header is judged by where the lines are, not by the header', () => {
      const from = { ...fromFor, action: 'breakpoint' as const };
      expect(labels(run({ ...from, truth: any('        n += int(c == t)'), completion: any('    return n') }))).toEqual(['control.loop_iteration by loop-exit']);
    });

    it('a line after the loop is no iteration off: nothing comes back to the header from there', () => {
      expect(labels(run({ ...back, truth: inv('        n += int(c == t)'), completion: inv('    return n') }))).toEqual(['control.loop_iteration by loop-exit']);
      expect(labels(run({ ...back, truth: inv('    n = 0'), completion: inv('    return n') }))).toEqual(['control.wrong_line by wrong-line']);
    });
  });
});

describe('other-arm', () => {
  it('a prediction past the whole if/else is not in another arm (and does not crash the rule)', () => {
    const got = run({ ...fwd, source: ARMS, before: lineState('{"x": "3"}', '        y = 1'), truth: any('        z = 2'), completion: any('    return y') });
    expect(labels(got)).toEqual(['control.wrong_line by wrong-line']);
  });

  it('the if line itself is in no arm: skipping the test into the else arm is a wrong line', () => {
    const got = run({ ...fwd, source: ARMS, before: '<|call_sep|><|src_sep|>def f(x):<|arg_sep|>{"x": "-1"}', truth: any('    if x > 0:'), completion: any('        y = -1') });
    expect(labels(got)).toEqual(['control.wrong_line by wrong-line']);
  });

  it('two lines of the same arm are no branch taken wrongly', () => {
    const got = run({ ...fwd, source: ARMS, before: lineState('{"x": "3"}', '    if x > 0:'), truth: any('        y = 1'), completion: any('        z = 2') });
    expect(labels(got)).toEqual(['control.wrong_line by wrong-line']);
  });
});

describe('loop-exit', () => {
  it("the loop body's last line is still in the loop", () => {
    const got = run({ ...fwd, source: TOTAL, before: lineState('{"xs": "[1, 2]", "s": "0", "x": "1"}', '        y = x * 2'), truth: any('        s += y'), completion: any('    return s') });
    expect(labels(got)).toEqual(['control.loop_iteration by loop-exit']);
    expect(got[0].reason).toBe('the truth is still in the loop `for x in xs:` (line 3); the prediction has left it');
  });

  it('after a break the loop is over; the prediction is still in it', () => {
    const src = 'def first_neg(xs):\n    r = None\n    for x in xs:\n        if x < 0:\n            r = x\n            break\n    return r\n';
    const got = run({ ...fwd, source: src, before: lineState('{"xs": "[2, -1, 3]", "r": "-1", "x": "-1"}', '            break'), truth: any('    return r'), completion: any('    for x in xs:') });
    expect(labels(got)).toEqual(['control.loop_iteration by loop-exit']);
    expect(got[0].reason).toBe('the loop `for x in xs:` (line 3) is over; the prediction is still in it');
  });

  it('a line before the loop is not "after" it: jumping into the body is a wrong line', () => {
    const got = run({ ...fwd, source: TOTAL, before: '<|call_sep|><|src_sep|>def total(xs):<|arg_sep|>{"xs": "[1, 2]"}', truth: any('    s = 0'), completion: any('        s += y') });
    expect(labels(got)).toEqual(['control.wrong_line by wrong-line']);
  });
});

describe('loop-boundary', () => {
  const fromBody = (src: string) => ({ ...fwd, source: TOTAL, before: lineState('{"xs": "[1, 2]", "s": "0", "x": "1", "y": "2"}', src) });

  it('the truth is back at the header, the prediction goes on in the body', () => {
    const got = run({ ...fromBody('        s += y'), truth: any('    for x in xs:'), completion: any('        y = x * 2') });
    expect(labels(got)).toEqual(['control.loop_iteration by loop-boundary']);
    expect(got[0].reason).toBe('the iteration is over (back at `for x in xs:` (line 3)); the prediction goes on in the body');
  });

  it('two lines of the body, neither the header, are no iteration boundary', () => {
    const got = run({ ...fromBody('        y = x * 2'), truth: any('        s += y'), completion: lineState('{"..": "..", "y": "2"}', '        y = x * 2') });
    expect(labels(got)).toEqual(['control.wrong_line by wrong-line']);
  });

  it('the header against a line before the loop is not "in the body"', () => {
    const got = run({ ...fromBody('        s += y'), truth: any('    for x in xs:'), completion: any('    s = 0') });
    expect(labels(got)).toEqual(['control.wrong_line by wrong-line']);
  });
});
