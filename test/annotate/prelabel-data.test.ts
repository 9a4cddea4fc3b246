/**
 * Pre-label rules on values at the right place (rules-data.ts): returned values, types, names,
 * in-place changes; then their edges (which label a prediction gets, the reason's text, inputs
 * that once crashed a rule) and how long values are quoted in reasons (clip, rule.ts).
 * Expected labels come from the default taxonomy's definitions, reasons from the rule's own sentence.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_TAXONOMY, prelabel, type Taxonomy } from '../../src/annotate/index.js';
import { COUNT, countEvent, INV_COUNT as INV, labels, lineState, run } from './cases.js';
import { read } from './example-input.js';

const fwd = { direction: 'forward' as const, action: 'step_into' as const };
const count = { ...fwd, source: COUNT };
const RET = {
  direction: 'forward' as const,
  action: 'step_return' as const,
  source: 'def f(n):\n    xs = g(n)\n    return xs\n',
};
/** A return state of `xs` (at `src`) showing the value `v`. */
const ret = (v: string, src = '    return xs') => `<|return_sep|><|src_sep|>${src}<|arg_sep|>${JSON.stringify(v)}`;

describe('pre-labels: values', () => {
  it('arg-value: the right return with the wrong value, and the wrong exception raised', () => {
    const got = run({
      ...count,
      action: 'step_return',
      truth: '<|return_sep|><|src_sep|>    return n<|arg_sep|>"2"',
      completion: '<|return_sep|><|src_sep|>    return n<|arg_sep|>"1"',
    });
    expect(labels(got)).toEqual(['return.wrong_value by arg-value']);
    expect(got[0].reason).toBe('the prediction returns 1, the truth 2');
    const exc = run({
      ...fwd,
      truth: '<|exception_sep|><|src_sep|>    v = d[k]<|arg_sep|>"KeyError(\'b\')"',
      completion: '<|exception_sep|><|src_sep|>    v = d[k]<|arg_sep|>"IndexError(\'b\')"',
    });
    expect(labels(exc)).toEqual(['data.wrong_type by value-type', 'return.wrong_value by arg-value']);
    expect(exc[1].reason).toBe("the prediction raises IndexError('b'), the truth KeyError('b')");
  });

  it("value-type: '1' for 1, a list for a tuple, None for a value", () => {
    const src = 'def f(x):\n    y = str(x)\n    return y\n';
    const c = {
      ...fwd,
      source: src,
      before: lineState('{"x": "1"}', '    y = str(x)'),
      truth: lineState('{"..": "..", "y": "\'1\'"}', '    return y'),
    };
    const got = run({ ...c, completion: lineState('{"..": "..", "y": "1"}', '    return y') });
    expect(labels(got)).toEqual(['data.wrong_type by value-type']);
    expect(got[0].reason).toBe("y is int 1, true str '1'");
    expect(labels(run({ ...c, completion: lineState('{"..": "..", "y": "None"}', '    return y') }))).toEqual([
      'data.wrong_type by value-type',
    ]);
    const ret = run({
      ...fwd,
      truth: '<|return_sep|><|src_sep|>    return p<|arg_sep|>"(1, 2)"',
      completion: '<|return_sep|><|src_sep|>    return p<|arg_sep|>"[1, 2]"',
    });
    expect(labels(ret)).toEqual(['data.wrong_type by value-type', 'return.wrong_value by arg-value']);
    expect(ret[0].reason).toBe('the value is list [1, 2], true tuple (1, 2)');
  });

  it('wrong-value: same type, other value; or a changed value the prediction leaves out after an assignment', () => {
    const c = {
      ...count,
      before: lineState('{"s": "\'berry\'", "t": "\'r\'", "n": "0", "c": "\'r\'"}', '        n += int(c == t)'),
      truth: lineState('{"..": "..", "n": "1"}', '    for c in s:'),
    };
    const got = run({ ...c, completion: lineState('{"..": "..", "n": "2"}', '    for c in s:') });
    expect(labels(got)).toEqual(['data.wrong_value by wrong-value']);
    expect(got[0].reason).toBe('n is 2, true 1');
    const left = run({ ...c, completion: lineState('{"..": ".."}', '    for c in s:') });
    expect(labels(left)).toEqual(['data.wrong_value by wrong-value']);
    expect(left[0].reason).toBe('n changed to 1; the prediction leaves it out');
  });

  it('wrong-value: a name shown as changed that did not change (known from the recorded event)', () => {
    const got = run({
      ...count,
      before: lineState('{"s": "\'berry\'", "t": "\'r\'", "n": "0", "c": "\'b\'"}', '        n += int(c == t)'),
      beforeEvent: countEvent(5),
      truth: lineState('{"..": ".."}', '    for c in s:'),
      trueEvent: countEvent(6),
      completion: lineState('{"..": "..", "n": "1"}', '    for c in s:'),
    });
    expect(labels(got)).toEqual(['data.wrong_value by wrong-value']);
    expect(got[0].reason).toBe('n is 1, true 0 (unchanged)');
  });
});

describe('pre-labels: names', () => {
  const afterN = {
    ...count,
    before: lineState('{"s": "\'berry\'", "t": "\'r\'"}', '    n = 0'),
    truth: lineState('{"..": "..", "n": "0"}', '    for c in s:'),
  };

  it('invented-local: a name not bound yet, from the rebuilt locals or the recorded event', () => {
    const completion = lineState('{"..": "..", "n": "0", "c": "\'b\'"}', '    for c in s:');
    const got = run({ ...afterN, completion });
    expect(labels(got)).toEqual(['data.invented_local by invented-local']);
    expect(got[0].reason).toBe('c is not a local here');
    expect(labels(run({ ...afterN, completion, trueEvent: countEvent(4), beforeEvent: countEvent(3) }))).toEqual([
      'data.invented_local by invented-local',
    ]);
    // A call shows every local: any other name is invented, whatever came before.
    const call = '<|call_sep|><|src_sep|>def count(s, t):<|arg_sep|>';
    expect(
      labels(
        run({
          ...count,
          truth: `${call}{"s": "'berry'", "t": "'r'"}`,
          completion: `${call}{"s": "'berry'", "t": "'r'", "n": "0"}`,
        }),
      ),
    ).toEqual(['data.invented_local by invented-local']);
  });

  it('invented-local needs to know the true locals: with an elided truth and nothing recorded it stays silent', () => {
    const got = run({
      ...count,
      truth: lineState('{"..": "..", "n": "0"}', '    for c in s:'),
      completion: lineState('{"..": "..", "n": "0", "c": "\'b\'"}', '    for c in s:'),
    });
    expect(got).toEqual([]);
  });

  it('missing-local: a new name, or a call argument, left out', () => {
    const got = run({ ...afterN, completion: lineState('{"..": ".."}', '    for c in s:') });
    expect(labels(got)).toEqual(['data.missing_local by missing-local']);
    expect(got[0].reason).toBe('n = 0 is missing');
    const call = '<|call_sep|><|src_sep|>def count(s, t):<|arg_sep|>';
    expect(
      labels(run({ ...count, truth: `${call}{"s": "'berry'", "t": "'r'"}`, completion: `${call}{"s": "'berry'"}` })),
    ).toEqual(['data.missing_local by missing-local']);
  });

  it('mutation-missed: changed in place or through another name, while the prediction keeps or omits the old value', () => {
    const src =
      'def f(nums):\n    out = nums\n    out.append(0)\n    xs = [1]\n    xs += [2]\n    xs = xs + [3]\n    return nums\n';
    const alias = {
      ...fwd,
      source: src,
      before: lineState('{"nums": "[1, 2]", "out": "[1, 2]"}', '    out.append(0)'),
      truth: lineState('{"nums": "[1, 2, 0]", "out": "[1, 2, 0]"}', '    xs = [1]'),
    };
    const omitted = run({ ...alias, completion: lineState('{"..": "..", "out": "[1, 2, 0]"}', '    xs = [1]') });
    expect(labels(omitted)).toEqual(['data.mutation_missed by mutation-missed']);
    expect(omitted[0].reason).toBe('nums changed to [1, 2, 0] without being assigned; the prediction leaves it out');
    const kept = run({ ...alias, completion: lineState('{"nums": "[1, 2]", "out": "[1, 2, 0]"}', '    xs = [1]') });
    expect(labels(kept)).toEqual(['data.mutation_missed by mutation-missed']);
    // The same stale value after a line that assigns the name is a wrong value, not a missed mutation.
    const rebound = run({
      ...fwd,
      source: src,
      before: lineState('{"nums": "[1, 2, 0]", "out": "[1, 2, 0]", "xs": "[1, 2]"}', '    xs = xs + [3]'),
      truth: lineState('{"..": "..", "xs": "[1, 2, 3]"}', '    return nums'),
      completion: lineState('{"..": "..", "xs": "[1, 2]"}', '    return nums'),
    });
    expect(labels(rebound)).toEqual(['data.wrong_value by wrong-value']);
  });

  it('several locals wrong in several ways: one suggestion per label, each naming its locals', () => {
    const got = run({
      ...count,
      action: 'breakpoint',
      truth: lineState('{"s": "\'berry\'", "t": "\'r\'", "n": "1", "c": "\'r\'"}', '        n += int(c == t)'),
      completion: lineState('{"s": "\'berry\'", "t": "1", "n": "2", "i": "0"}', '        n += int(c == t)'),
    });
    expect(got).toEqual([
      { label: 'data.wrong_type', rule: 'value-type', reason: "t is int 1, true str 'r'" },
      { label: 'data.invented_local', rule: 'invented-local', reason: 'i is not a local here' },
      { label: 'data.missing_local', rule: 'missing-local', reason: "c = 'r' is missing" },
      { label: 'data.wrong_value', rule: 'wrong-value', reason: 'n is 2, true 1' },
    ]);
  });
});

describe('pre-labels: determinism and the taxonomy in use', () => {
  const input = () => ({
    ...count,
    previous: { state: read(lineState('{"s": "\'berry\'", "t": "\'r\'"}', '    n = 0')) },
    truth: read(lineState('{"..": "..", "n": "0"}', '    for c in s:')),
    completion: lineState('{"..": "..", "n": "1", "c": "\'b\'"}', '    for c in s:'),
  });

  it('the same input gives the same suggestions in the same order', () => {
    const a = prelabel(input());
    expect(a.map((s) => s.label)).toEqual(['data.invented_local', 'data.wrong_value']);
    expect(prelabel(input())).toEqual(a);
  });

  it("maps labels through a corpus's taxonomy: renamed labels get their new id, deprecated ones are dropped", () => {
    const t: Taxonomy = JSON.parse(JSON.stringify(DEFAULT_TAXONOMY));
    t.version = 2;
    const wv = t.labels.find((l) => l.id === 'data.wrong_value')!;
    Object.assign(wv, { id: 'data.value', was: ['data.wrong_value'] });
    t.labels.find((l) => l.id === 'data.invented_local')!.deprecated = true;
    expect(prelabel(input(), { taxonomy: t }).map((s) => `${s.label} by ${s.rule}`)).toEqual([
      'data.value by wrong-value',
    ]);
  });

  it('two labels a corpus merged into one are suggested once', () => {
    // A wrong exception type gives data.wrong_type and return.wrong_value (arg-value, above);
    // this taxonomy merged both into data.wrong.
    const t: Taxonomy = JSON.parse(JSON.stringify(DEFAULT_TAXONOMY));
    t.version = 2;
    t.labels = t.labels.filter((l) => l.id !== 'return.wrong_value');
    Object.assign(
      t.labels.find((l) => l.id === 'data.wrong_type')!,
      { id: 'data.wrong', was: ['data.wrong_type', 'return.wrong_value'] },
    );
    const input = {
      direction: 'forward' as const,
      truth: read('<|exception_sep|><|src_sep|>    v = d[k]<|arg_sep|>"KeyError(\'b\')"'),
      completion: '<|exception_sep|><|src_sep|>    v = d[k]<|arg_sep|>"IndexError(\'b\')"',
    };
    expect(prelabel(input).map((s) => s.label)).toEqual(['data.wrong_type', 'return.wrong_value']);
    expect(prelabel(input, { taxonomy: DEFAULT_TAXONOMY }).map((s) => s.label)).toEqual([
      'data.wrong_type',
      'return.wrong_value',
    ]);
    expect(prelabel(input, { taxonomy: t }).map((s) => `${s.label} by ${s.rule}`)).toEqual([
      'data.wrong by value-type',
    ]);
  });
});

describe('value rules at their edges: which label, which reason, odd values', () => {
  it('invalid-input is for inverse predictions only: a forward output that fails by execution is a wrong return value', () => {
    const got = run({ ...RET, truth: ret('[1, 2]'), completion: ret('[1, 3]'), execution: 'fail' });
    expect(labels(got)).toEqual(['return.wrong_value by arg-value']);
    const inv = run({
      ...INV,
      completion: '<|inv_call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"s": "\'rr\'", "t": "\'b\'"}',
      execution: 'fail',
    });
    expect(inv[0]).toEqual({
      label: 'inverse.invalid_input',
      rule: 'invalid-input',
      reason: 'running the program on the predicted input does not give the true result',
    });
  });

  it('a returned value written as JSON, not as a repr string, crashes no rule: it is unparseable, with no type or value read from it', () => {
    const got = run({
      ...RET,
      truth: ret('(1, 2)'),
      completion: '<|return_sep|><|src_sep|>    return xs<|arg_sep|>[1, 2]',
    });
    expect(labels(got)).toEqual(['format.unparseable by non-string-value']);
    expect(got[0].reason).toBe('the value is [1,2], not a repr string');
  });

  it('value-type stays silent when a repr shows no type it knows (it does not guess)', () => {
    expect(labels(run({ ...RET, truth: ret('3'), completion: ret('three') }))).toEqual([
      'return.wrong_value by arg-value',
    ]);
  });

  it('one suggestion per label names every local it covers, separated by "; "', () => {
    const got = run({
      ...fwd,
      source: COUNT,
      action: 'breakpoint',
      truth: lineState('{"s": "\'berry\'", "t": "\'r\'", "n": "1", "c": "\'r\'"}', '        n += int(c == t)'),
      completion: lineState(
        '{"s": "\'berry\'", "t": "1", "n": "\'1\'", "c": "\'r\'", "i": "0", "j": "1"}',
        '        n += int(c == t)',
      ),
    });
    expect(got).toEqual([
      { label: 'data.wrong_type', rule: 'value-type', reason: "t is int 1, true str 'r'; n is str '1', true int 1" },
      { label: 'data.invented_local', rule: 'invented-local', reason: 'i is not a local here; j is not a local here' },
    ]);
  });

  it('a return at the wrong line is a control error: neither a wrong return value nor a wrong type', () => {
    // f(0) returns 'zero' from line 4; the model takes the other arm and returns 1 from line 3.
    const src = "def f(x):\n    if x:\n        return 1\n    return 'zero'\n";
    const c = { ...fwd, source: src, before: lineState('{"x": "0"}', '    if x:') };
    const got = run({ ...c, truth: ret("'zero'", "    return 'zero'"), completion: ret('1', '        return 1') });
    expect(labels(got)).toEqual(['control.branch by branch-condition']);
    // Same type, other value, other line: still only the line is blamed.
    const plain = { direction: 'forward' as const, action: 'step_return' as const };
    expect(labels(run({ ...plain, truth: ret('2', '    return n'), completion: ret('3', '    return m') }))).toEqual([
      'control.wrong_line by wrong-line',
    ]);
  });

  it('arg-value says "raises" for an inverse exception state too', () => {
    const exc = (v: string) => `<|inv_exception_sep|><|src_sep|>    v = d[k]<|arg_sep|>${JSON.stringify(v)}`;
    const got = run({
      direction: 'inverse',
      action: 'inv_step_into',
      truth: exc("KeyError('b')"),
      completion: exc("KeyError('c')"),
    });
    expect(labels(got)).toEqual(['return.wrong_value by arg-value']);
    expect(got[0].reason).toBe("the prediction raises KeyError('c'), the truth KeyError('b')");
  });

  it('mutation-missed quotes the stale value the prediction keeps', () => {
    const src = 'def f(nums):\n    out = nums\n    out.append(0)\n    return nums\n';
    const got = run({
      ...fwd,
      source: src,
      before: lineState('{"nums": "[1, 2]", "out": "[1, 2]"}', '    out.append(0)'),
      truth: lineState('{"nums": "[1, 2, 0]", "out": "[1, 2, 0]"}', '    return nums'),
      completion: lineState('{"nums": "[1, 2]", "out": "[1, 2, 0]"}', '    return nums'),
    });
    expect(got).toEqual([
      {
        label: 'data.mutation_missed',
        rule: 'mutation-missed',
        reason: 'nums changed to [1, 2, 0] without being assigned; the prediction keeps [1, 2]',
      },
    ]);
  });
});

describe('how long values are quoted in reasons', () => {
  it('a value over 40 characters is cut to 40 and marked with …; one of exactly 40 is quoted whole', () => {
    const v41 = `'${'a'.repeat(39)}'`; // 41 characters
    const v40 = `'${'b'.repeat(38)}'`; // 40 characters
    const long = run({ ...RET, truth: ret(v40), completion: ret(v41) });
    expect(long[0].reason).toBe(`the prediction returns '${'a'.repeat(39)}…, the truth ${v40}`);
  });
});
