/**
 * CRUXEval's own completion forms read into the true state's shape: a call (and only a call, its
 * keyword arguments bound by name) and a bare value; then where a parse error points and what it
 * quotes, as the annotator reads it in the reason of format.unparseable or format.truncated.
 * Expected texts are worked out by hand from the completion, not copied.
 */
import { describe, expect, it } from 'vitest';
import { readCompletion } from '../../src/annotate/index.js';
import { COUNT, INV_COUNT, labels, run } from './cases.js';
import { read } from './example-input.js';

const call = read('<|inv_call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"s": "\'berry\'", "t": "\'r\'"}');
const ret = read('<|return_sep|><|src_sep|>    return n<|arg_sep|>"2"');
/** An input prediction of count("berry", "r") written as CRUXEval writes it: a call. */
const asCall = (completion: string, extra: { finishReason?: string } = {}) =>
  run({ ...INV_COUNT, completion, completionForm: 'call', ...extra });
/** An output prediction of count's return ("2") written as a bare Python value. */
const RETURN = '<|return_sep|><|src_sep|>    return n<|arg_sep|>"2"';
const asValue = (completion: string, extra: { finishReason?: string } = {}) =>
  run({
    direction: 'forward',
    action: 'step_return',
    source: COUNT,
    truth: RETURN,
    completion,
    completionForm: 'value',
    ...extra,
  });

describe('readCompletion', () => {
  it("a call binds positional and keyword arguments to the true call's parameters", () => {
    expect(readCompletion("f('rr', 'r')", 'call', call)).toEqual({
      ok: true,
      value: { event: 'inv_call', src: 'def count(s, t):', locals: { s: "'rr'", t: "'r'" } },
    });
    expect(readCompletion("f(t='a', s='aa')", 'call', call)).toMatchObject({
      ok: true,
      value: { locals: { s: "'aa'", t: "'a'" } },
    });
    expect(readCompletion("assert f(('a', 'b'),)", 'call', call)).toMatchObject({
      ok: true,
      value: { locals: { s: "('a', 'b')", t: "'r'" } },
    });
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
    expect(readCompletion(' [1, 2]\n', 'value', ret)).toEqual({
      ok: true,
      value: { event: 'return', src: '    return n', arg: '[1, 2]' },
    });
    expect(readCompletion('  ', 'value', ret).ok).toBe(false);
  });

  it('a state is read by the semantics parser', () => {
    expect(readCompletion('<|return_sep|><|src_sep|>    return n<|arg_sep|>"3"', 'state', ret)).toEqual({
      ok: true,
      value: { event: 'return', src: '    return n', arg: '3' },
    });
  });
});

describe('a CRUXEval call is read as a call, and only a call', () => {
  it('text that calls nothing is unparseable, even with a parenthesised tuple in it', () => {
    const got = asCall("answer: ('berry', 'r')");
    expect(labels(got)).toEqual(['format.unparseable by parse-error']);
    // Offset 0: no call starts anywhere; the whole (short) text is quoted.
    expect(got[0].reason).toBe(
      `line 1, column 1 (offset 0): expected a call such as f(1, 2), got "answer: ('berry', 'r')"`,
    );
  });

  it('a space between the name and "(" is still a call; the right arguments are a correct prediction', () => {
    expect(asCall("f ('berry', 'r')")).toEqual([]);
  });

  it('a call cut before its ")" is not read from what is there', () => {
    const got = asCall("f('berry', 1");
    expect(labels(got)).toEqual(['format.unparseable by parse-error']);
    expect(got[0].reason).toContain('expected a call such as f(1, 2)');
  });

  it('keyword arguments bind by name: spaces around "=", long names, values with spaces; "=" inside a string is no keyword', () => {
    const call = read('<|inv_call_sep|><|src_sep|>def f(text, sub):<|arg_sep|>{"text": "\'ab\'", "sub": "\'b\'"}');
    const locals = (text: string) => {
      const r = readCompletion(text, 'call', call);
      return r.ok ? r.value.locals : r.error.message;
    };
    expect(locals("f(sub='a', text='b c')")).toEqual({ text: "'b c'", sub: "'a'" });
    expect(locals("f(sub = 'a', text = 'b')")).toEqual({ text: "'b'", sub: "'a'" });
    expect(locals("f('x=1', sub='y')")).toEqual({ text: "'x=1'", sub: "'y'" });
  });

  it('too many arguments for a one-parameter function says "argument", singular', () => {
    const one = read('<|inv_call_sep|><|src_sep|>def f(x):<|arg_sep|>{"x": "1"}');
    const r = readCompletion('f(1, 2)', 'call', one);
    expect(r.ok || r.error.expected).toBe('at most 1 argument (x)');
  });
});

describe("a parse error's place and quote, as the annotator reads them", () => {
  it('points at the line and column where the call starts, and quotes 40 characters from there', () => {
    // "My answer:\n" is 11 characters, two spaces indent the call: offset 13, line 2, column 3.
    const rest = "f('rr', 'r' and then more words to pass forty chars";
    const got = asCall(`My answer:\n  ${rest}\nthat is all`);
    expect(labels(got)).toEqual(['format.unparseable by parse-error']);
    expect(got[0].reason).toBe(
      `line 2, column 3 (offset 13): expected a call such as f(1, 2), got "${rest.slice(0, 40)}…"`,
    );
  });

  it('quotes a rest of exactly 40 characters whole, without "…"', () => {
    const rest = "f('rr', 'r' is what I would guess here!!";
    expect(rest).toHaveLength(40);
    const got = asCall(`so:\n${rest}`);
    expect(got[0].reason).toBe(`line 2, column 1 (offset 4): expected a call such as f(1, 2), got "${rest}"`);
  });

  it('an empty value says what was expected and that the text ended', () => {
    expect(asValue('  ', { finishReason: 'length' })).toEqual([
      {
        label: 'format.truncated',
        rule: 'cut-at-max-tokens',
        reason: 'generation hit the token limit; line 1, column 3 (offset 2): expected a Python value, got end of text',
      },
    ]);
    expect(asValue('  ')[0].reason).toBe('the text ends where a Python value was expected');
  });
});
