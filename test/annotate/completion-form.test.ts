/** CRUXEval's own completion forms read into the true state's shape. */
import { describe, expect, it } from 'vitest';
import { readCompletion } from '../../src/annotate/index.js';
import { read } from './example-input.js';

const call = read('<|inv_call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"s": "\'berry\'", "t": "\'r\'"}');
const ret = read('<|return_sep|><|src_sep|>    return n<|arg_sep|>"2"');

describe('readCompletion', () => {
  it('a call binds positional and keyword arguments to the true call\'s parameters', () => {
    expect(readCompletion("f('rr', 'r')", 'call', call)).toEqual({ ok: true, value: { event: 'inv_call', src: 'def count(s, t):', locals: { s: "'rr'", t: "'r'" } } });
    expect(readCompletion("f(t='a', s='aa')", 'call', call)).toMatchObject({ ok: true, value: { locals: { s: "'aa'", t: "'a'" } } });
    expect(readCompletion("assert f(('a', 'b'),)", 'call', call)).toMatchObject({ ok: true, value: { locals: { s: "('a', 'b')", t: "'r'" } } });
  });

  it('refuses what is not such a call, saying what was expected', () => {
    const none = readCompletion('the input is berry', 'call', call);
    expect(none.ok || none.error.expected).toBe('a call such as f(1, 2)');
    const many = readCompletion('f(1, 2, 3)', 'call', call);
    expect(many.ok || many.error.expected).toBe('at most 2 arguments (s, t)');
    const open = readCompletion("f('a, 1)", 'call', call);
    expect(open.ok || open.error.expected).toBe('a call with balanced brackets and quotes');
  });

  it('a value becomes the return value of the true return', () => {
    expect(readCompletion(' [1, 2]\n', 'value', ret)).toEqual({ ok: true, value: { event: 'return', src: '    return n', arg: '[1, 2]' } });
    expect(readCompletion('  ', 'value', ret).ok).toBe(false);
  });

  it('a state is read by the semantics parser', () => {
    expect(readCompletion('<|return_sep|><|src_sep|>    return n<|arg_sep|>"3"', 'state', ret)).toEqual({ ok: true, value: { event: 'return', src: '    return n', arg: '3' } });
  });
});
