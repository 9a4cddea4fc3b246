/**
 * Gaps the mutation run left in the value rules (rules-data.ts), the truth rules
 * (rules-truth.ts) and clip (rule.ts): which label a prediction gets, the reason's text, and
 * inputs that crashed a rule once changed. Expected labels come from the default taxonomy's
 * definitions (src/annotate/default-taxonomy.ts), reasons from the rule's own sentence.
 */
import { describe, expect, it } from 'vitest';
import { COUNT, INV_COUNT as INV, labels, lineState, run } from './cases.js';

const fwd = { direction: 'forward' as const, action: 'step_into' as const };
const ret = (v: string, src = '    return xs') => `<|return_sep|><|src_sep|>${src}<|arg_sep|>${JSON.stringify(v)}`;
const RET = { direction: 'forward' as const, action: 'step_return' as const, source: 'def f(n):\n    xs = g(n)\n    return xs\n' };

describe('value rules (rules-data.ts)', () => {
  it('invalid-input is for inverse predictions only: a forward output that fails by execution is a wrong return value', () => {
    const got = run({ ...RET, truth: ret('[1, 2]'), completion: ret('[1, 3]'), execution: 'fail' });
    expect(labels(got)).toEqual(['return.wrong_value by arg-value']);
    const inv = run({ ...INV, completion: '<|inv_call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"s": "\'rr\'", "t": "\'b\'"}', execution: 'fail' });
    expect(inv[0]).toEqual({ label: 'inverse.invalid_input', rule: 'invalid-input', reason: 'running the program on the predicted input does not give the true result' });
  });

  it('a returned value written as JSON, not as a repr string, crashes no rule: it is unparseable, with no type or value read from it', () => {
    const got = run({ ...RET, truth: ret('(1, 2)'), completion: '<|return_sep|><|src_sep|>    return xs<|arg_sep|>[1, 2]' });
    expect(labels(got)).toEqual(['format.unparseable by non-string-value']);
    expect(got[0].reason).toBe('the value is [1,2], not a repr string');
  });

  it('value-type stays silent when a repr shows no type it knows (it does not guess)', () => {
    expect(labels(run({ ...RET, truth: ret('3'), completion: ret('three') }))).toEqual(['return.wrong_value by arg-value']);
  });

  it('one suggestion per label names every local it covers, separated by "; "', () => {
    const got = run({
      ...fwd,
      source: COUNT,
      action: 'breakpoint',
      truth: lineState('{"s": "\'berry\'", "t": "\'r\'", "n": "1", "c": "\'r\'"}', '        n += int(c == t)'),
      completion: lineState('{"s": "\'berry\'", "t": "1", "n": "\'1\'", "c": "\'r\'", "i": "0", "j": "1"}', '        n += int(c == t)'),
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
    expect(labels(run({ ...plain, truth: ret('2', '    return n'), completion: ret('3', '    return m') }))).toEqual(['control.wrong_line by wrong-line']);
  });

  it('arg-value says "raises" for an inverse exception state too', () => {
    const exc = (v: string) => `<|inv_exception_sep|><|src_sep|>    v = d[k]<|arg_sep|>${JSON.stringify(v)}`;
    const got = run({ direction: 'inverse', action: 'inv_step_into', truth: exc("KeyError('b')"), completion: exc("KeyError('c')") });
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
    expect(got).toEqual([{ label: 'data.mutation_missed', rule: 'mutation-missed', reason: 'nums changed to [1, 2, 0] without being assigned; the prediction keeps [1, 2]' }]);
  });
});

describe('truth rules (rules-truth.ts)', () => {
  it('a missed exception (the truth returns null) with a set or an address predicted: the truth rules do not crash', () => {
    const raised = '<|return_sep|><|src_sep|>    return xs<|arg_sep|>null';
    expect(labels(run({ ...RET, truth: raised, completion: ret('{1, 2}') }))).toEqual(['return.missed_exception by missed-exception']);
    expect(labels(run({ ...RET, truth: raised, completion: ret('<Node object at 0x1>') }))).toEqual(['return.missed_exception by missed-exception']);
  });

  it('a name only the model shows, written as a set, is judged by the value rules (no crash in set-order)', () => {
    const src = 'def f(xs):\n    s = set(xs)\n    return len(s)\n';
    const got = run({
      ...fwd,
      source: src,
      before: lineState('{"xs": "[1, 2]"}', '    s = set(xs)'),
      truth: lineState('{"..": "..", "s": "{1, 2}"}', '    return len(s)'),
      completion: lineState('{"..": "..", "s": "{1, 2}", "xs": "{2, 1}"}', '    return len(s)'),
    });
    expect(got).toEqual([{ label: 'data.wrong_type', rule: 'value-type', reason: 'xs is set {2, 1}, true list [1, 2]' }]);
  });

  it('a cut true value the prediction matches exactly is not blamed on the recorder', () => {
    // The right (cut) value at a line that is not the true one: only the line is wrong.
    const cut = '[0, 1, 2, 3…<cut 9000 chars>';
    expect(run({ ...RET, truth: ret(cut), completion: ret(cut, '    return ys') }).map((s) => s.label)).toEqual(['control.wrong_line']);
  });

  it('cut-by-recorder names the returned value "the value", and takes `<arg>` in the event\'s cut list', () => {
    const got = run({ ...RET, truth: ret('[0, 1, 2, 3…<cut 9000 chars>'), completion: ret('[0, 1, 2, 3, 4]') });
    expect(got[0].reason).toBe('the true repr of the value was cut by the recorder');
    const listed = run({ ...RET, truth: ret('[0, 1, 2]'), completion: ret('[0, 1]'), trueEvent: { line: 3, src: '    return xs', locals: {}, cut: ['<arg>'] } });
    expect(labels(listed)).toEqual(['truth.value_cut by cut-by-recorder']);
  });

  it('a value the recorder cut is explained once, by the cut: no other truth rule or type rule adds to it', () => {
    const t = '[<Node object at 0x2>, <Node…<cut 90 chars>';
    const p = '[<Node object at 0x1>, <Node…<cut 90 chars>';
    expect(labels(run({ ...RET, truth: ret(t), completion: ret(p) }))).toEqual(['truth.value_cut by cut-by-recorder']);
    expect(labels(run({ ...RET, truth: ret('[0, 1, 2, 3…<cut 9000 chars>'), completion: ret('(0, 1, 2, 3)') }))).toEqual(['truth.value_cut by cut-by-recorder']);
    const line = run({
      ...fwd,
      source: RET.source,
      truth: lineState(`{"..": "..", "xs": ${JSON.stringify(t)}}`, '    return xs'),
      completion: lineState(`{"..": "..", "xs": ${JSON.stringify(p)}}`, '    return xs'),
    });
    expect(labels(line)).toEqual(['truth.value_cut by cut-by-recorder']);
  });

  it('with the wrong event the truth rules stay silent: a set in another order does not excuse a forward token', () => {
    const got = run({
      direction: 'inverse',
      action: 'inv_step_into',
      truth: '<|inv_line_sep|><|src_sep|>    n = len(s)<|arg_sep|>{"s": "{\'a\', \'b\'}"}',
      completion: lineState('{"s": "{\'b\', \'a\'}"}', '    n = len(s)'),
    });
    expect(labels(got)).toEqual(['control.wrong_event by wrong-event']);
  });

  it('set-order and address-only reasons name the values, with one or several names', () => {
    const set = run({ ...RET, truth: ret("{'b', 'a'}"), completion: ret("{'a', 'b'}") });
    expect(set[0].reason).toBe("the value: the same set in another order ({'a', 'b'} vs {'b', 'a'}); the order depends on the hash seed");
    const one = run({ ...RET, truth: ret('<Node object at 0x2>'), completion: ret('<Node object at 0x1>') });
    expect(one[0].reason).toBe('the value differs only in an object address');
    const two = run({
      ...fwd,
      source: 'def f():\n    a = Node()\n    b = Node()\n    return a\n',
      action: 'breakpoint',
      truth: lineState('{"a": "<Node object at 0x2>", "b": "<Node object at 0x3>"}', '    return a'),
      completion: lineState('{"a": "<Node object at 0x7>", "b": "<Node object at 0x8>"}', '    return a'),
    });
    expect(two).toEqual([{ label: 'truth.nondeterminism', rule: 'address-only', reason: 'a, b differ only in an object address' }]);
  });

  it('known-nondeterministic explains the whole failure: an invented exception is not suggested beside it', () => {
    const got = run({ ...RET, truth: ret('2'), completion: '<|exception_sep|><|src_sep|>    xs = g(n)<|arg_sep|>"ValueError()"', nondeterministic: true });
    expect(got).toEqual([{ label: 'truth.nondeterminism', rule: 'known-nondeterministic', reason: 'the recorded state differs between two recordings of the program' }]);
  });

  it('passes-by-execution explains the whole failure: a delta-marker slip is not suggested beside it', () => {
    const truth = '<|inv_call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"s": "\'berry\'", "t": "\'r\'"}';
    const completion = '<|inv_call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"..": "..", "s": "\'berry\'", "t": "\'r\'"}';
    const got = run({ truth, completion, direction: 'inverse', action: 'inv_step_call', source: COUNT, execution: 'pass' });
    expect(got).toEqual([{ label: 'inverse.valid_alternative', rule: 'passes-by-execution', reason: 'running the program on the predicted input gives the true result' }]);
  });
});

describe('clip (rule.ts): how long values are quoted in reasons', () => {
  it('a value over 40 characters is cut to 40 and marked with …; one of exactly 40 is quoted whole', () => {
    const v41 = `'${'a'.repeat(39)}'`; // 41 characters
    const v40 = `'${'b'.repeat(38)}'`; // 40 characters
    const long = run({ ...RET, truth: ret(v40), completion: ret(v41) });
    expect(long[0].reason).toBe(`the prediction returns '${'a'.repeat(39)}…, the truth ${v40}`);
  });
});
