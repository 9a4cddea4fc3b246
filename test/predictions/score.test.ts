// Exact-match verdicts per field (docs/semantics.md §8) on hand-made predictions for the
// running example's targets (§9): one field wrong at a time, format errors, exit tokens.
import { describe, expect, it } from 'vitest';
import { scoreCompletion, type TargetFields } from '../../src/semantics/index.js';

// count's `for c in s:` after `n = 0`, count's return, its inputs, main's calling line doubled, the exit.
const line: TargetFields = { event: 'line', src: '    for c in s:', locals: { '..': '..', n: '0' } };
const ret: TargetFields = { event: 'return', src: '    return n', arg: '2' };
const invCall: TargetFields = { event: 'inv_call', src: 'def count(s, t):', locals: { s: "'berry'", t: "'r'" } };
const lineCall: TargetFields = { event: 'inv_line_call', src: '    return count("berry", "r")' };
const exit: TargetFields = { event: 'exit_normal' };

const em = (truth: TargetFields, text: string) => scoreCompletion(truth, text).em;

describe('one field wrong at a time', () => {
  it('a line state: event, src, locals applicable, arg not', () => {
    expect(em(line, '<|line_sep|><|arg_sep|>{"..": "..", "n": "0"}<|src_sep|>    for c in s:')).toEqual({
      event: true,
      src: true,
      locals: true,
      arg: null,
      all: true,
    });
    expect(em(line, '<|inv_line_sep|><|src_sep|>    for c in s:<|arg_sep|>{"..": "..", "n": "0"}')).toEqual({
      event: false,
      src: true,
      locals: true,
      arg: null,
      all: false,
    });
    expect(em(line, '<|line_sep|><|arg_sep|>{"..": "..", "n": "0"}<|src_sep|>        n += int(c == t)')).toEqual({
      event: true,
      src: false,
      locals: true,
      arg: null,
      all: false,
    });
    expect(em(line, '<|line_sep|><|arg_sep|>{"..": "..", "n": "1"}<|src_sep|>    for c in s:')).toEqual({
      event: true,
      src: true,
      locals: false,
      arg: null,
      all: false,
    });
  });

  it('src matches to the character: indentation counts', () => {
    expect(em(line, '<|line_sep|><|arg_sep|>{"..": "..", "n": "0"}<|src_sep|>for c in s:').src).toBe(false);
    expect(em(line, '<|line_sep|><|arg_sep|>{"..": "..", "n": "0"}<|src_sep|>    for c in s: ').src).toBe(false);
  });

  it('locals are equal JSON objects: key order does not matter, the delta marker, names and value types do', () => {
    expect(em(line, '<|line_sep|><|arg_sep|>{"n": "0", "..": ".."}<|src_sep|>    for c in s:').locals).toBe(true);
    expect(em(line, '<|line_sep|><|arg_sep|>{"n": "0"}<|src_sep|>    for c in s:').locals).toBe(false);
    expect(
      em(line, '<|line_sep|><|arg_sep|>{"..": "..", "n": "0", "c": "\'b\'"}<|src_sep|>    for c in s:').locals,
    ).toBe(false);
    expect(em(line, '<|line_sep|><|arg_sep|>{"..": "..", "n": 0}<|src_sep|>    for c in s:').locals).toBe(false);
    expect(
      em(invCall, '<|inv_call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"t": "\'r\'", "s": "\'berry\'"}'),
    ).toEqual({ event: true, src: true, locals: true, arg: null, all: true });
  });

  it('a return: arg applicable (a repr as a JSON string), locals not', () => {
    expect(em(ret, '<|return_sep|><|src_sep|>    return n<|arg_sep|>"2"')).toEqual({
      event: true,
      src: true,
      locals: null,
      arg: true,
      all: true,
    });
    expect(em(ret, '<|return_sep|><|src_sep|>    return n<|arg_sep|>"3"')).toEqual({
      event: true,
      src: true,
      locals: null,
      arg: false,
      all: false,
    });
    expect(em(ret, '<|return_sep|><|src_sep|>    return n<|arg_sep|>2').arg).toBe(false);
    expect(em(ret, '<|return_sep|><|src_sep|>    return n<|arg_sep|>null').arg).toBe(false);
    expect(em(ret, '<|exception_sep|><|src_sep|>    return n<|arg_sep|>"2"')).toEqual({
      event: false,
      src: true,
      locals: null,
      arg: true,
      all: false,
    });
    expect(em(ret, '<|return_sep|><|src_sep|>    return count("berry", "r")<|arg_sep|>"2"')).toEqual({
      event: true,
      src: false,
      locals: null,
      arg: true,
      all: false,
    });
  });

  it('a state of another kind lacks the field the truth has: wrong there', () => {
    expect(em(ret, '<|line_sep|><|arg_sep|>{"n": "2"}<|src_sep|>    return n')).toEqual({
      event: false,
      src: true,
      locals: null,
      arg: false,
      all: false,
    });
    expect(em(line, '<|return_sep|><|src_sep|>    for c in s:<|arg_sep|>"0"')).toEqual({
      event: false,
      src: true,
      locals: false,
      arg: null,
      all: false,
    });
  });

  it('inv_line_call: event and src only', () => {
    expect(em(lineCall, '<|inv_line_call_sep|><|src_sep|>    return count("berry", "r")')).toEqual({
      event: true,
      src: true,
      locals: null,
      arg: null,
      all: true,
    });
    expect(em(lineCall, '<|inv_line_sep|><|src_sep|>    return count("berry", "r")<|arg_sep|>{}')).toEqual({
      event: false,
      src: true,
      locals: null,
      arg: null,
      all: false,
    });
  });
});

describe('what a model writes around the state', () => {
  it('a leading <|frame_sep|> and whatever follows <|action_sep|> or <|trace_end|> are ignored', () => {
    expect(
      em(
        ret,
        '<|frame_sep|><|return_sep|><|src_sep|>    return n<|arg_sep|>"2"<|action_sep|><|step_into|><|frame_sep|>junk',
      ).all,
    ).toBe(true);
    expect(em(exit, '<|exit_normal|><|trace_end|><|end_of_text|>').all).toBe(true);
  });
});

describe('exit tokens', () => {
  it('only the event applies', () => {
    expect(em(exit, '<|exit_normal|>')).toEqual({ event: true, src: null, locals: null, arg: null, all: true });
    expect(em(exit, '<|exit_error|>')).toEqual({ event: false, src: null, locals: null, arg: null, all: false });
    expect(em(exit, '<|return_sep|><|src_sep|>    return count("berry", "r")<|arg_sep|>"2"')).toEqual({
      event: false,
      src: null,
      locals: null,
      arg: null,
      all: false,
    });
  });

  it('a state predicted where the truth is a state, but an exit written instead, is wrong on every field', () => {
    expect(em(ret, '<|exit_normal|>')).toEqual({ event: false, src: false, locals: null, arg: false, all: false });
  });
});

describe('format errors', () => {
  it('count, are wrong on every applicable field, and keep where reading stopped', () => {
    const garbage = scoreCompletion(line, 'n is 0 now');
    expect(garbage.em).toEqual({ event: false, src: false, locals: false, arg: null, all: false });
    expect(garbage.parseError).toMatchObject({ offset: 0, line: 1, column: 1 });
    expect(garbage.parseError!.expected).toMatch(/a state token/);

    const cut = '<|line_sep|><|arg_sep|>{"..": "..", "n": "0"';
    const truncated = scoreCompletion(line, cut);
    expect(truncated.em.all).toBe(false);
    expect(truncated.parseError!.offset).toBe(cut.length);
    expect(truncated.parseError!.got).toBe('end of text');

    const exitError = scoreCompletion(exit, '<|exit_normal');
    expect(exitError.em).toEqual({ event: false, src: null, locals: null, arg: null, all: false });
    expect(exitError.parseError).not.toBeNull();

    expect(scoreCompletion(ret, "<|return_sep|><|src_sep|>    return n<|arg_sep|>'2'").parseError!.offset).toBe(
      '<|return_sep|><|src_sep|>    return n<|arg_sep|>'.length,
    );
  });

  it('an empty completion is a format error too', () => {
    expect(scoreCompletion(ret, '').parseError).toMatchObject({ offset: 0, got: 'end of text' });
  });
});
