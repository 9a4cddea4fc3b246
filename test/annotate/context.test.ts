/**
 * What the rules ask of RuleContext (src/annotate/prelabel/context.ts): whether the
 * previous state is of the true state's frame, which locals were there before, the true
 * state's full locals, the line that ran, which of two identical lines a src means, and how a
 * local is judged. Each is seen through the labels and reasons the rules give (README, "Data
 * rules"); expected labels come from the default taxonomy's definitions, states are written
 * by hand as the recorder would record them (docs/semantics.md §2, §6).
 */
import { describe, expect, it } from 'vitest';
import type { EventFacts } from '../../src/annotate/index.js';
import { COUNT, countEvent, labels, lineState, run } from './cases.js';

const line = (locals: string, src: string) => lineState(locals, src);
const invLine = (locals: string, src: string) => `<|inv_line_sep|><|src_sep|>${src}<|arg_sep|>${locals}`;
const ev = (
  frame: number | undefined,
  ln: number,
  src: string,
  locals: Record<string, string>,
  event = 'line',
): EventFacts => (frame === undefined ? { event, line: ln, src, locals } : { event, frame, line: ln, src, locals });
const FOR = '    for c in s:';
const ADD = '        n += int(c == t)';
/** count("berry", "r"), one step over `n += int(c == t)` (seq 9 → 10): n goes from 0 to 1. */
const STEP = { direction: 'forward' as const, action: 'step_over' as const, source: COUNT };
const TRUTH10 = line('{"..": "..", "n": "1"}', FOR);
/** The model leaves n out: it changed, so the delta must show it. */
const N_LEFT_OUT = line('{"..": ".."}', FOR);
const noChangeClaim = (got: { reason: string }[]) => got.every((s) => !/changed/.test(s.reason));

describe('same frame or not: which locals were there before (sameFrame, prevLocals)', () => {
  it('a local that changed and is left out is a wrong value whenever the previous state is known to be of the same frame', () => {
    const want = [
      { label: 'data.wrong_value', rule: 'wrong-value', reason: 'n changed to 1; the prediction leaves it out' },
    ];
    // Both events carry the frame number; the previous state is shown as a delta, its event has every local.
    const prevDelta = line('{"..": "..", "c": "\'r\'"}', ADD);
    expect(
      run({
        ...STEP,
        truth: TRUTH10,
        trueEvent: countEvent(10),
        before: prevDelta,
        beforeEvent: countEvent(9),
        completion: N_LEFT_OUT,
      }),
    ).toEqual(want);
    // Only the true event has a frame number: a forward step from a line stays in the frame.
    const prevFull = line('{"s": "\'berry\'", "t": "\'r\'", "n": "0", "c": "\'r\'"}', ADD);
    expect(
      run({ ...STEP, truth: TRUTH10, trueEvent: countEvent(10), before: prevFull, completion: N_LEFT_OUT }),
    ).toEqual(want);
    // Only the previous event has one.
    expect(
      run({ ...STEP, truth: TRUTH10, before: prevDelta, beforeEvent: countEvent(9), completion: N_LEFT_OUT }),
    ).toEqual(want);
  });

  it('another frame instance (a recursive call) is not "before": its locals do not make a local of this frame "changed"', () => {
    // f(1) calls f(0); `continue` stops in f(1) at `return m` after f(0) ran. Its last state was
    // f(0)'s `return m` (frame 3, m = 0); the truth is f(1)'s (frame 2, m = 2), shown in full.
    const src = 'def f(n):\n    m = n * 2\n    if n:\n        f(n - 1)\n    return m\n';
    const got = run({
      direction: 'forward',
      action: 'continue',
      source: src,
      truth: line('{"n": "1", "m": "2"}', '    return m'),
      trueEvent: ev(2, 5, '    return m', { n: '1', m: '2' }),
      before: line('{"n": "0", "m": "0"}', '    return m'),
      beforeEvent: ev(3, 5, '    return m', { n: '0', m: '0' }),
      completion: line('{"n": "1"}', '    return m'),
    });
    expect(labels(got)).not.toContain('data.wrong_value by wrong-value');
    expect(noChangeClaim(got)).toBe(true);
  });

  it('a breakpoint target shows every local, so an unchanged local the model leaves out is not called "changed"', () => {
    // Same frame (2) on both sides, but a breakpoint: the truth is not a delta.
    const got = run({
      direction: 'forward',
      action: 'breakpoint',
      source: COUNT,
      truth: line('{"s": "\'berry\'", "t": "\'r\'", "n": "0", "c": "\'e\'"}', ADD),
      trueEvent: countEvent(7),
      before: line('{"..": "..", "c": "\'b\'"}', ADD),
      beforeEvent: countEvent(5),
      completion: line('{"..": "..", "c": "\'e\'"}', ADD),
    });
    expect(labels(got)).not.toContain('data.wrong_value by wrong-value');
    expect(noChangeClaim(got)).toBe(true);
  });

  it('without frame numbers, a forward step from a call state stays in the frame: the delta after it is read against the arguments', () => {
    // count's call (s, t) → its first line: nothing changed, the truth is just the marker. The
    // model repeats s: right value, but it belongs out of the delta (format.delta).
    const got = run({
      direction: 'forward',
      action: 'step_into',
      source: COUNT,
      truth: line('{"..": ".."}', '    n = 0'),
      before: '<|call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"s": "\'berry\'", "t": "\'r\'"}',
      beforeEvent: ev(undefined, 1, 'def count(s, t):', { s: "'berry'", t: "'r'" }, 'call'),
      completion: line('{"..": "..", "s": "\'berry\'"}', '    n = 0'),
    });
    expect(got).toEqual([
      { label: 'format.delta', rule: 'unchanged-written', reason: 's did not change and belongs out of the delta' },
    ]);
  });

  it('without frame numbers, a forward step from a return leaves the frame: the callee\'s locals are not the caller\'s "before"', () => {
    const src = 'def g(n):\n    return n + 1\ndef f(n):\n    k = g(n)\n    return k\n';
    const got = run({
      direction: 'forward',
      action: 'step_into',
      source: src,
      truth: line('{"n": "1", "k": "2"}', '    return k'),
      before: '<|return_sep|><|src_sep|>    return n + 1<|arg_sep|>"2"',
      beforeEvent: ev(undefined, 2, '    return n + 1', { n: '5' }, 'return'),
      completion: line('{"k": "2"}', '    return k'),
    });
    expect(labels(got)).not.toContain('data.wrong_value by wrong-value');
    expect(noChangeClaim(got)).toBe(true);
  });
});

describe('inverse steps: the previous state is a later one (sameFrame inverse, executedLine)', () => {
  // f([5]): ys is xs; ys.append(0) changes xs in place; return xs.pop() changes it back.
  const P = 'def f(xs):\n    ys = xs\n    ys.append(0)\n    return xs.pop()\n';
  const inv = { direction: 'inverse' as const, source: P };
  const want = (truth: string, kept: string) => [
    {
      label: 'data.mutation_missed',
      rule: 'mutation-missed',
      reason: `xs changed to ${truth} without being assigned; the prediction keeps ${kept}`,
    },
  ];

  it('back over `ys.append(0)` from a line state: xs was changed in place, the model keeps its later value', () => {
    const got = run({
      ...inv,
      action: 'inv_step_over',
      truth: invLine('{"xs": "[5]", "ys": "[5]"}', '    ys.append(0)'),
      before: invLine('{"..": "..", "xs": "[5, 0]", "ys": "[5, 0]"}', '    return xs.pop()'),
      beforeEvent: ev(undefined, 4, '    return xs.pop()', { xs: '[5, 0]', ys: '[5, 0]' }),
      completion: invLine('{"xs": "[5, 0]", "ys": "[5]"}', '    ys.append(0)'),
    });
    expect(got).toEqual(want('[5]', '[5, 0]'));
  });

  it("back from the return state into `return xs.pop()`: the pop changed xs, the model keeps the returned state's value", () => {
    const got = run({
      ...inv,
      action: 'inv_step_into',
      truth: invLine('{"xs": "[5, 0]", "ys": "[5, 0]"}', '    return xs.pop()'),
      before: '<|inv_return_sep|><|src_sep|>    return xs.pop()<|arg_sep|>"0"',
      beforeEvent: ev(undefined, 4, '    return xs.pop()', { xs: '[5]', ys: '[5]' }, 'return'),
      completion: invLine('{"xs": "[5]", "ys": "[5, 0]"}', '    return xs.pop()'),
    });
    expect(got).toEqual(want('[5, 0]', '[5]'));
  });

  it("back from a call state into the caller: the callee's arguments are not the caller's later values", () => {
    const src = 'def g(xs):\n    return len(xs)\ndef f():\n    xs = [5]\n    n = g(xs)\n    return n\n';
    const got = run({
      direction: 'inverse',
      action: 'inv_step_into',
      source: src,
      truth: invLine('{"xs": "[5]"}', '    n = g(xs)'),
      before: '<|inv_call_sep|><|src_sep|>def g(xs):<|arg_sep|>{"xs": "[5]"}',
      beforeEvent: ev(undefined, 1, 'def g(xs):', { xs: '[5]' }, 'call'),
      completion: invLine('{}', '    n = g(xs)'),
    });
    expect(labels(got)).not.toContain('data.mutation_missed by mutation-missed');
    expect(noChangeClaim(got)).toBe(true);
  });

  it('the line that ran backwards is the true (earlier) line: `n += ...` assigns n, so keeping n is a wrong value, not a missed mutation', () => {
    // Back from seq 10 (`for c in s:`, n = 1) to seq 9 (`n += int(c == t)`, n = 0).
    const got = run({
      direction: 'inverse',
      action: 'inv_step_over',
      source: COUNT,
      truth: invLine('{"..": "..", "n": "0"}', ADD),
      trueEvent: countEvent(9),
      before: invLine('{"..": "..", "n": "1"}', FOR),
      beforeEvent: countEvent(10),
      completion: invLine('{"..": "..", "n": "1"}', ADD),
    });
    expect(got).toEqual([{ label: 'data.wrong_value', rule: 'wrong-value', reason: 'n is 1, true 0' }]);
  });
});

describe("the true state's full locals (trueLocals)", () => {
  it('the recorded event gives every true local even when the truth is a delta: a repeated unchanged local is not a delta', () => {
    const got = run({
      ...STEP,
      truth: TRUTH10,
      trueEvent: countEvent(10),
      completion: line('{"..": "..", "n": "1", "s": "\'berry\'"}', FOR),
    });
    expect(got).toEqual([
      { label: 'format.delta', rule: 'unchanged-written', reason: 's did not change and belongs out of the delta' },
    ]);
  });

  it('a delta alone does not list every local: a name it leaves out is not called invented', () => {
    const extra = line('{"..": "..", "n": "1", "s": "\'berry\'"}', FOR);
    // No event, no previous state.
    expect(labels(run({ ...STEP, truth: TRUTH10, completion: extra }))).not.toContain(
      'data.invented_local by invented-local',
    );
    // A previous state shown as a delta only, without its event: it does not list every local either.
    const prevDelta = line('{"..": "..", "c": "\'r\'"}', ADD);
    expect(labels(run({ ...STEP, truth: TRUTH10, before: prevDelta, completion: extra }))).not.toContain(
      'data.invented_local by invented-local',
    );
  });

  it('a truth that shows every name (no marker) is the full locals: a name deleted by the line is invented, not "unchanged"', () => {
    // `del x` leaves no local: the delta is {} without a marker (nothing left out).
    const src = 'def f(x):\n    del x\n    return 0\n';
    const got = run({
      direction: 'forward',
      action: 'step_over',
      source: src,
      truth: line('{}', '    return 0'),
      before: line('{"x": "1"}', '    del x'),
      beforeEvent: ev(2, 2, '    del x', { x: '1' }),
      completion: line('{"x": "1"}', '    return 0'),
    });
    expect(got).toEqual([{ label: 'data.invented_local', rule: 'invented-local', reason: 'x is not a local here' }]);
  });

  it('an inverse delta is not completed from the later state: a name bound later is not taken for an unchanged one', () => {
    // Back from seq 4 (`for c in s:`, n = 0) to seq 3 (`n = 0`, not run yet: no n). The model
    // shows n = 0 already; the rules cannot tell it from the delta alone, and must not call it
    // "did not change".
    const got = run({
      direction: 'inverse',
      action: 'inv_step_over',
      source: COUNT,
      truth: invLine('{"..": ".."}', '    n = 0'),
      before: invLine('{"..": ".."}', FOR),
      beforeEvent: countEvent(4),
      completion: invLine('{"..": "..", "n": "0"}', '    n = 0'),
    });
    expect(labels(got)).not.toContain('format.delta by unchanged-written');
  });
});

describe('how a local is judged (judge)', () => {
  it('a repr of no known type against an int is a wrong value, not a wrong type (the rules do not guess a type)', () => {
    const got = run({
      ...STEP,
      truth: TRUTH10,
      trueEvent: countEvent(10),
      completion: line('{"..": "..", "n": "one"}', FOR),
    });
    expect(got).toEqual([{ label: 'data.wrong_value', rule: 'wrong-value', reason: 'n is one, true 1' }]);
  });

  it('a local changed in place but predicted with a third value is a wrong value: the model did not keep the old one', () => {
    // f([5]) one step over `ys.append(0)`: xs and ys are [5, 0]; the model says xs is [5, 1].
    const P = 'def f(xs):\n    ys = xs\n    ys.append(0)\n    return xs.pop()\n';
    const c = {
      direction: 'forward' as const,
      action: 'step_over' as const,
      source: P,
      truth: line('{"xs": "[5, 0]", "ys": "[5, 0]"}', '    return xs.pop()'),
      before: line('{"..": "..", "ys": "[5]"}', '    ys.append(0)'),
      beforeEvent: ev(2, 3, '    ys.append(0)', { xs: '[5]', ys: '[5]' }),
    };
    expect(run({ ...c, completion: line('{"xs": "[5, 1]", "ys": "[5, 0]"}', '    return xs.pop()') })).toEqual([
      { label: 'data.wrong_value', rule: 'wrong-value', reason: 'xs is [5, 1], true [5, 0]' },
    ]);
    // Keeping the old value is the missed mutation (the line assigns ys, not xs).
    expect(labels(run({ ...c, completion: line('{"xs": "[5]", "ys": "[5, 0]"}', '    return xs.pop()') }))).toEqual([
      'data.mutation_missed by mutation-missed',
    ]);
  });
});

describe('the line a src means (lineOf, predLine)', () => {
  it("of two identical lines in the true line's function, the nearer one is meant, and the reason names it", () => {
    const src = 'def f(n):\n    x = 0\n    x = 1\n    x = 0\n    return x\n';
    const got = run({
      direction: 'forward',
      action: 'step_over',
      source: src,
      truth: line('{"..": "..", "x": "0"}', '    return x'),
      trueEvent: ev(2, 5, '    return x', { n: '1', x: '0' }),
      completion: line('{"..": "..", "x": "0"}', '    x = 0'),
    });
    expect(got).toEqual([
      {
        label: 'control.wrong_line',
        rule: 'wrong-line',
        reason: 'predicted `x = 0` (line 4), true `return x` (line 5)',
      },
    ]);
    // The earlier one when it is the nearer.
    const src2 = 'def f(n):\n    x = 0\n    x = 1\n    x = 2\n    x = 0\n    return x\n';
    const got2 = run({
      direction: 'forward',
      action: 'step_over',
      source: src2,
      truth: line('{"..": "..", "x": "0"}', '    x = 1'),
      trueEvent: ev(2, 3, '    x = 1', { n: '1', x: '0' }),
      completion: line('{"..": "..", "x": "0"}', '    x = 0'),
    });
    expect(got2).toEqual([
      { label: 'control.wrong_line', rule: 'wrong-line', reason: 'predicted `x = 0` (line 2), true `x = 1` (line 3)' },
    ]);
  });

  it("a line of the true line's own function is meant before a nearer identical one in another function", () => {
    const src =
      'def f(n):\n    x = 0\n    x = 1\n    x = 2\n    x = 3\n    return x\ndef g(n):\n    x = 0\n    return x\n';
    const got = run({
      direction: 'forward',
      action: 'step_over',
      source: src,
      truth: line('{"..": "..", "x": "3"}', '    return x'),
      trueEvent: ev(2, 6, '    return x', { n: '1', x: '3' }),
      completion: line('{"..": "..", "x": "0"}', '    x = 0'),
    });
    expect(got).toEqual([
      {
        label: 'control.wrong_line',
        rule: 'wrong-line',
        reason: 'predicted `x = 0` (line 2), true `return x` (line 6)',
      },
    ]);
  });
});

describe('one step or many (singleStep)', () => {
  it('after `continue` from an if line, many lines may have run: no branch decision is claimed', () => {
    // The truth stops in the loop (at `n += 1`), the model has left it: a loop fault, not the if's.
    const src = 'def f(xs):\n    n = 0\n    for x in xs:\n        if x:\n            n += 1\n    return n\n';
    const got = run({
      direction: 'forward',
      action: 'continue',
      source: src,
      truth: line('{"..": "..", "x": "1"}', '            n += 1'),
      before: line('{"..": "..", "x": "0"}', '        if x:'),
      completion: line('{"..": "..", "x": "1"}', '    return n'),
    });
    expect(labels(got)).toEqual(['control.loop_iteration by loop-exit']);
  });
});
