/**
 * Gaps the mutation run left in rules-lines.ts, lines 1-74 (docs/mutation-prelabel-survivors-lines-a.md):
 * the other-iteration rule (its visit count, its reason's ordinals and wording, the ".." marker,
 * missing context), the arms of an if/elif/else chain, and a truth line that is not in the
 * program text. Frames are written out as the recorder records them (a line state holds the
 * locals before the line runs); expected labels follow the default taxonomy's definitions.
 */
import { describe, expect, it } from 'vitest';
import type { EventFacts } from '../../src/annotate/index.js';
import { COUNT, countEvent, countEvents, labels, lineState, run } from './cases.js';

const fwd = { direction: 'forward' as const, action: 'step_into' as const };
const ev = (seq: number, line: number, src: string, locals: Record<string, string>, event = 'line'): EventFacts => ({ seq, event, frame: 1, line, src, locals });
const json = (locals: Record<string, string>) => JSON.stringify(locals);
/** One frame of a function whose text is `lines`: its call state with `args`, then a line event per row (line number, locals), seq counted from 1. */
const frameOf = (lines: string[], args: Record<string, string>, rows: [number, Record<string, string>][]): EventFacts[] => [
  ev(1, 1, lines[0], args, 'call'),
  ...rows.map(([line, locals], i) => ev(i + 2, line, lines[line - 1], locals)),
];

describe('other-iteration: the reason counts visits right', () => {
  // total(14): s += i runs 14 times; its k-th visit (seq 4 + 2(k-1)) has i = k-1, s = 0+1+…+(k-2).
  const TOTAL = 'def total(n):\n    s = 0\n    for i in range(n):\n        s += i\n    return s\n';
  const body = '        s += i';
  const at = (k: number) => ({ n: '14', s: String(((k - 1) * (k - 2)) / 2), i: String(k - 1) });
  const frame: EventFacts[] = [ev(1, 1, 'def total(n):', { n: '14' }, 'call'), ev(2, 2, '    s = 0', { n: '14' }), ev(3, 3, '    for i in range(n):', { n: '14', s: '0' })];
  for (let k = 1; k <= 14; k++) {
    frame.push(ev(4 + 2 * (k - 1), 4, body, at(k)));
    frame.push(ev(5 + 2 * (k - 1), 3, '    for i in range(n):', { ...at(k), s: String(Number(at(k).s) + k - 1) }));
  }
  const visit = (k: number) => frame.find((e) => e.src === body && e.locals.i === String(k - 1))!;
  const reason = (predicted: number, truth: number) =>
    run({ ...fwd, action: 'breakpoint', source: TOTAL, truth: lineState(json(at(truth)), body), trueEvent: visit(truth), frameEvents: frame, completion: lineState(json(at(predicted)), body) })[0].reason;

  it('1st, 2nd, 3rd, 11th, 12th, 13th', () => {
    expect(reason(11, 13)).toBe('the prediction is the state of `s += i` at its 11th visit (seq 24); the truth is its 13th: 2 iterations behind');
    expect(reason(12, 1)).toBe('the prediction is the state of `s += i` at its 12th visit (seq 26); the truth is its 1st: 11 iterations ahead');
    expect(reason(1, 3)).toBe('the prediction is the state of `s += i` at its 1st visit (seq 4); the truth is its 3rd: 2 iterations behind');
    expect(reason(2, 13)).toBe('the prediction is the state of `s += i` at its 2nd visit (seq 6); the truth is its 13th: 11 iterations behind');
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
    expect(got[0].reason).toBe('the prediction is the state of `n += int(c == t)` at its 2nd visit (seq 7); the truth is its 3rd: 1 iteration behind');
  });

  it("an exception raised on the line is not one of its visits (a loop whose body catches it)", () => {
    const INV = 'def inv(xs):\n    n = 0\n    for x in xs:\n        try:\n            n += 10 // x\n        except ZeroDivisionError:\n            n -= 1\n    return n\n';
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
    expect(got[0].reason).toBe('the prediction is the state of `n += 10 // x` at its 2nd visit (seq 8); the truth is its 3rd: 1 iteration behind');
  });

  it('going backwards: an inverse state of another iteration', () => {
    const inv = (locals: Record<string, string>) => `<|inv_line_sep|><|src_sep|>        n += int(c == t)<|arg_sep|>${json(locals)}`;
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
    expect(got[0].reason).toBe('the prediction is the state of `n += int(c == t)` at its 5th visit (seq 13); the truth is its 3rd: 2 iterations ahead');
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
    expect(got[0].reason).toBe('the prediction is the state of `n += int(c == t)` at its 2nd visit (seq 7); the truth is its 5th: 3 iterations behind');
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
    expect(got[0].reason).toBe('the prediction is the state of `n += int(c == t)` at its 5th visit (seq 13); the truth is its 3rd: 2 iterations ahead');
  });

  it('events recorded without seq: the reason names no seq', () => {
    const got = run({ ...c, frameEvents: countEvents.map(({ seq: _seq, ...e }) => e) });
    expect(labels(got)).toEqual(['control.loop_iteration by other-iteration']);
    expect(got[0].reason).toBe('the prediction is the state of `n += int(c == t)` at its 5th visit');
  });
});

describe('other-iteration: a while loop whose header binds its variable', () => {
  it('a name bound by `:=` in the `while` header is the loop variable: alone, it makes another iteration', () => {
    const SRC = 'def total(xs):\n    it = iter(xs)\n    s = 0\n    while (x := next(it, None)) is not None:\n        s += x\n    return s\n';
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
    expect(got[0].reason).toBe('the prediction is the state of `s += x` at its 3rd visit (seq 9); the truth is its 2nd: 1 iteration ahead');
  });
});

describe('arms of an if/elif/else chain', () => {
  const SIGN = 'def sign(x):\n    if x > 0:\n        return 1\n    elif x < 0:\n        return -1\n    else:\n        return 0\n';

  it("the if line is the test, in no arm: jumping from it into the else arm skips a line, it is no branch", () => {
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
    const got = run({ direction: 'inverse', action: 'inv_step_into', source: SIGN, before: inv('        return -1'), truth: inv('    elif x < 0:'), completion: inv('        return 1') });
    expect(labels(got)).toEqual(['control.branch by other-arm']);
    expect(got[0].reason).toBe('the truth is in the elif arm `elif x < 0:` (line 4), the prediction in the if arm `if x > 0:` (line 2)');
  });
});

describe('line rules when the true line is not in the program text', () => {
  it('no rule places the truth at a line: only wrong-line speaks, without a line number for the truth', () => {
    const got = run({ ...fwd, source: COUNT, truth: lineState('{"..": ".."}', '    m = 0'), completion: lineState('{"..": ".."}', '    return n') });
    expect(labels(got)).toEqual(['control.wrong_line by wrong-line']);
    expect(got[0].reason).toBe('predicted `return n` (line 5), true `m = 0`');
  });
});
