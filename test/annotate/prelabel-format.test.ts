/** Pre-label rules on the completion's text, and the rules that blame the truth or clear the model. */
import { describe, expect, it } from 'vitest';
import { COUNT, INV_COUNT as INV, labels, lineState, run } from './cases.js';

const TRUTH = lineState('{"..": "..", "n": "1"}', '    for c in s:');
const BEFORE = lineState('{"s": "\'berry\'", "t": "\'r\'", "n": "0", "c": "\'r\'"}', '        n += int(c == t)');
const base = { truth: TRUTH, before: BEFORE, direction: 'forward' as const, action: 'step_into' as const, source: COUNT };

describe('pre-labels: format', () => {
  it('a correct prediction gets no pre-label, display whitespace and a trailing action included', () => {
    expect(run({ ...base, completion: TRUTH })).toEqual([]);
    expect(run({ ...base, completion: `<|frame_sep|>${TRUTH}\n<|action_sep|><|step_into|>` })).toEqual([]);
  });

  it('repeated-text: the same state written again without a separator', () => {
    const got = run({ ...base, completion: TRUTH + TRUTH + TRUTH });
    expect(labels(got)).toEqual(['format.repeated by repeated-text']);
    expect(got[0].reason).toMatch(/written 3 times in a row$/);
    // Two different states in a row is not a loop: the parser's complaint stands.
    expect(labels(run({ ...base, completion: TRUTH + lineState('{}', '    return n') }))).toEqual(['format.unparseable by parse-error']);
  });

  it('cut-at-max-tokens: an unreadable completion that stopped at the token limit', () => {
    const completion = '<|line_sep|><|arg_sep|>{"..": "..", "n": "1"}<|src_sep';
    expect(labels(run({ ...base, completion, finishReason: 'length' }))).toEqual(['format.truncated by cut-at-max-tokens']);
    expect(labels(run({ ...base, completion, finishReason: 'stop' }))).toEqual(['format.unparseable by parse-error']);
  });

  it('ends-mid-state: the text ends inside a string, an object or before a field', () => {
    expect(labels(run({ ...base, completion: '<|line_sep|><|arg_sep|>{"..": "..", "n": "1' }))).toEqual(['format.truncated by ends-mid-state']);
    expect(labels(run({ ...base, completion: '<|line_sep|><|arg_sep|>{"..": "..", "n": "1"}  ' }))).toEqual(['format.truncated by ends-mid-state']);
    const got = run({ ...base, completion: '<|line_sep|><|arg_sep|>{"..": "..",' });
    expect(got[0].reason).toBe('the text ends where locals as a JSON object: a string key was expected');
  });

  it('parse-error: anything else unreadable, with where the parser stopped', () => {
    const got = run({ ...base, completion: '<|line_sep|><|arg_sep|>{"..": "..", n: 1}<|src_sep|>    for c in s:' });
    expect(labels(got)).toEqual(['format.unparseable by parse-error']);
    expect(got[0].reason).toMatch(/^line 1, column 37 \(offset 36\): expected locals as a JSON object: a string key/);
    expect(labels(run({ ...base, completion: 'The next state is the for line.' }))).toEqual(['format.unparseable by parse-error']);
  });

  it('non-string-value: a local given as a JSON number is not a repr', () => {
    const got = run({ ...base, completion: lineState('{"..": "..", "n": 1}', '    for c in s:') });
    expect(labels(got)).toEqual(['format.unparseable by non-string-value']);
    expect(got[0].reason).toBe('n is 1, not a repr string');
  });

  it('copies-previous: the state before the action, unchanged, and nothing else is blamed', () => {
    expect(labels(run({ ...base, completion: BEFORE }))).toEqual(['format.repeated by copies-previous']);
  });

  it('unchanged-written and marker-only: right values, not written as a delta', () => {
    const truth = lineState('{"..": "..", "n": "0"}', '    for c in s:');
    const before = lineState('{"s": "\'berry\'", "t": "\'r\'"}', '    n = 0');
    const c = { ...base, truth, before };
    const full = run({ ...c, completion: lineState('{"s": "\'berry\'", "t": "\'r\'", "n": "0"}', '    for c in s:') });
    expect(labels(full)).toEqual(['format.delta by unchanged-written']);
    expect(full[0].reason).toBe('s, t did not change and belong out of the delta');
    expect(labels(run({ ...c, completion: lineState('{"n": "0"}', '    for c in s:') }))).toEqual(['format.delta by marker-only']);
  });
});

describe('pre-labels: the truth, and execution', () => {
  it('known-nondeterministic: the caller knows the truth varies; nothing else is said', () => {
    expect(labels(run({ ...base, completion: lineState('{"..": "..", "n": "7"}', '    return n'), nondeterministic: true }))).toEqual([
      'truth.nondeterminism by known-nondeterministic',
    ]);
  });

  it('passes-by-execution: an inverse prediction that runs to the true result is a valid alternative, and only that', () => {
    const completion = '<|inv_call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"s": "\'rr\'", "t": "\'r\'"}';
    expect(labels(run({ ...INV, completion, execution: 'pass' }))).toEqual(['inverse.valid_alternative by passes-by-execution']);
    expect(labels(run({ ...INV, completion, execution: 'fail' }))).toEqual(['inverse.invalid_input by invalid-input', 'data.wrong_value by wrong-value']);
    expect(labels(run({ ...INV, completion }))).toEqual(['data.wrong_value by wrong-value']);
  });

  it('passes-by-execution does not apply forward (an output that passes is judged by its value)', () => {
    const got = run({
      truth: '<|return_sep|><|src_sep|>    return n<|arg_sep|>"2"',
      completion: '<|return_sep|><|src_sep|>    return n<|arg_sep|>"2.0"',
      direction: 'forward',
      action: 'step_return',
      source: COUNT,
      execution: 'pass',
    });
    expect(labels(got)).toEqual(['data.wrong_type by value-type', 'return.wrong_value by arg-value']);
  });

  const RET = { direction: 'forward' as const, action: 'step_return' as const, source: 'def f(n):\n    xs = g(n)\n    return xs\n' };
  const ret = (v: string) => `<|return_sep|><|src_sep|>    return xs<|arg_sep|>${JSON.stringify(v)}`;

  it('cut-by-recorder: the true repr ends with the cut mark, or the event lists the name as cut', () => {
    const got = run({ ...RET, truth: ret('[0, 1, 2, 3…<cut 9000 chars>'), completion: ret('[0, 1, 2, 3, 4, 5]') });
    expect(labels(got)).toEqual(['truth.value_cut by cut-by-recorder']);
    const line = { direction: 'forward' as const, action: 'step_into' as const, source: 'def f(n):\n    xs = g(n)\n    return xs\n' };
    const viaEvent = run({
      ...line,
      truth: lineState('{"..": "..", "xs": "[0, 1, 2]"}', '    return xs'),
      completion: lineState('{"..": "..", "xs": "[0, 1]"}', '    return xs'),
      trueEvent: { line: 3, src: '    return xs', locals: { n: '3', xs: '[0, 1, 2]' }, cut: ['xs'] },
    });
    expect(labels(viaEvent)).toEqual(['truth.value_cut by cut-by-recorder']);
    expect(viaEvent[0].reason).toBe('the true repr of xs was cut by the recorder');
    // A cut value elsewhere does not excuse a wrong one.
    expect(labels(run({ ...RET, truth: ret('[1, 2]'), completion: ret('[1, 3]'), trueEvent: { line: 3, src: '    return xs', locals: {}, cut: ['xs'] } }))).toEqual([
      'return.wrong_value by arg-value',
    ]);
  });

  it('set-order: the same set in another order blames the hash seed; a list in another order is a wrong value', () => {
    expect(labels(run({ ...RET, truth: ret("{'b', 'a'}"), completion: ret("{'a', 'b'}") }))).toEqual(['truth.nondeterminism by set-order']);
    expect(labels(run({ ...RET, truth: ret("frozenset({'b', 'a'})"), completion: ret("frozenset({'a', 'b'})") }))).toEqual(['truth.nondeterminism by set-order']);
    expect(labels(run({ ...RET, truth: ret("{'b', 'a'}"), completion: ret("{'a', 'c'}") }))).toEqual(['return.wrong_value by arg-value']);
    expect(labels(run({ ...RET, truth: ret("['b', 'a']"), completion: ret("['a', 'b']") }))).toEqual(['return.wrong_value by arg-value']);
  });

  it('address-only: two reprs that differ only in the object address', () => {
    expect(labels(run({ ...RET, truth: ret('<Node object at 0x2>'), completion: ret('<Node object at 0x1>') }))).toEqual(['truth.nondeterminism by address-only']);
    expect(labels(run({ ...RET, truth: ret('<Node object at 0x2>'), completion: ret('<Leaf object at 0x2>') }))).toEqual([
      'data.wrong_type by value-type',
      'return.wrong_value by arg-value',
    ]);
  });
});
