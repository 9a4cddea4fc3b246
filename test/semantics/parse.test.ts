/** Reading serialized text and model predictions back; malformed input is reported, never thrown. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatActionList, parseAction, parseActionList, parsePrediction, parseTrajectory, type Action } from '../../src/semantics/index.js';
import { vectorsPath } from './helpers.js';

const vectors: { name: string; text: string }[] = JSON.parse(readFileSync(vectorsPath, 'utf8'));
const countText = vectors.find((v) => v.name === 'count-forward-breakpoint')!.text;

describe('parseTrajectory', () => {
  it('reads the display form with line breaks between tokens', () => {
    // Line breaks before every <|frame_sep|> as in the spec's display; the context gains one.
    const display = countText.replace(/<\|frame_sep\|>/g, '\n<|frame_sep|>');
    const p = parseTrajectory(display);
    expect(p.ok).toBe(true);
    const q = parseTrajectory(countText);
    if (!p.ok || !q.ok) return;
    expect(p.value.states).toEqual(q.value.states);
    expect(p.value.actions).toEqual(q.value.actions);
    expect(p.value.actions[2]).toEqual({ action: 'breakpoint', src: '    return n' });
    expect(p.value.context).toBe(q.value.context + '\n');
  });

  it('keeps leading spaces of src and the ".." marker in locals', () => {
    const p = parseTrajectory(vectors[0].text);
    expect(p.ok && p.value.states[3]).toEqual({ kind: 'line', src: '    n = 0', locals: { '..': '..' } });
  });

  const bad: [string, string, string][] = [
    ['no header', 'hello', '<|begin_of_text|>'],
    ['truncated', countText.slice(0, countText.indexOf('<|action_sep|>') + 3), '<|action_sep|> or <|trace_end|>'],
    ['missing end', countText.replace('<|end_of_text|>', ''), '<|end_of_text|>'],
    ['bad locals', countText.replace('{"s": "\'berry\'", "t": "\'r\'"}', '{"s": 1}'), 'locals as a JSON object of strings'],
    ['unclosed JSON', countText.replace('{"s": "\'berry\'", "t": "\'r\'"}', '{"s": "x'), 'the closing "'],
    ['unknown action', countText.replace('<|step_return|>', '<|step_sideways|>'), 'an action token'],
    ['state expected', countText.replace('<|line_sep|>', '<|wat|>'), 'a state token'],
    ['trailing text', countText + 'more', 'end of text after <|end_of_text|>'],
  ];
  for (const [name, text, expected] of bad) {
    it(`reports ${name} with offset, line, column, token index, expected and got`, () => {
      const p = parseTrajectory(text);
      expect(p.ok).toBe(false);
      if (p.ok) return;
      expect(p.error.expected).toContain(expected);
      expect(p.error.offset).toBeGreaterThanOrEqual(0);
      expect(p.error.offset).toBeLessThanOrEqual(text.length);
      const before = text.slice(0, p.error.offset).split('\n');
      expect(p.error.line).toBe(before.length);
      expect(p.error.column).toBe(before.at(-1)!.length + 1);
      expect(p.error.message).toContain(`line ${p.error.line}, column ${p.error.column}`);
      expect(typeof p.error.got).toBe('string');
      expect(p.error.tokenIndex).toBeGreaterThanOrEqual(0);
    });
  }

  it('points at the offending token', () => {
    const text = countText.replace('<|step_return|>', '<|step_sideways|>');
    const p = parseTrajectory(text);
    expect(!p.ok && p.error.offset).toBe(text.indexOf('<|step_sideways|>'));
    expect(!p.ok && p.error.got.startsWith('"<|step_sideways|>')).toBe(true);
  });

  it('never throws on garbage or deep nesting', () => {
    const head = '<|begin_of_text|><|trace_context_start|>x<|frame_sep|><|line_sep|><|arg_sep|>';
    for (const t of ['', '<|', '<|begin_of_text|>', head + '['.repeat(100_000), head + '{"a": "\\u12"}', head + '{"a" "b"}']) {
      const p = parseTrajectory(t);
      expect(p.ok).toBe(false);
    }
  });
});

describe('parsePrediction', () => {
  it('reads a state with its fields', () => {
    const p = parsePrediction('<|line_sep|><|arg_sep|>{"single_digit": "5", "c": "10"}<|src_sep|>    return result');
    expect(p).toEqual({ ok: true, value: { event: 'line', src: '    return result', locals: { single_digit: '5', c: '10' } } });
  });

  it('reads an exit token, and ignores what the model generated after the state', () => {
    expect(parsePrediction('<|exit_normal|><|trace_end|><|end_of_text|>')).toEqual({ ok: true, value: { event: 'exit_normal' } });
    const p = parsePrediction(' <|return_sep|><|src_sep|>    return n<|arg_sep|>"2"<|action_sep|><|step_into|><|frame_sep|>…');
    expect(p).toEqual({ ok: true, value: { event: 'return', src: '    return n', arg: '2' } });
  });

  it('keeps non-string JSON so a wrong answer scores as wrong, not as a format error', () => {
    const p = parsePrediction('<|return_sep|><|src_sep|>    return n<|arg_sep|>2');
    expect(p).toEqual({ ok: true, value: { event: 'return', src: '    return n', arg: 2 } });
    const q = parsePrediction('<|inv_call_sep|><|src_sep|>def f(x):<|arg_sep|>{"x": [1, 2], "__proto__": "p"}');
    expect(q.ok && Object.keys(q.value.locals!)).toEqual(['x', '__proto__']);
  });

  it('reports malformed predictions', () => {
    for (const t of ['', 'the answer is 2', '<|return_sep|><|src_sep|>x<|arg_sep|>', '<|line_sep|><|arg_sep|>[1]<|src_sep|>x', '<|return_sep|><|src_sep|>x<|arg_sep|>"2" trailing']) {
      const p = parsePrediction(t);
      expect(p.ok, t).toBe(false);
      if (!p.ok) expect(p.error.message).toMatch(/expected/);
    }
  });
});

describe('action text', () => {
  it('one action: name or `breakpoint <src>`', () => {
    expect(parseAction('breakpoint     return n')).toEqual({ action: 'breakpoint', src: '    return n' });
    expect(parseAction('inv_step_call')).toEqual({ action: 'inv_step_call' });
    expect(() => parseAction('jump')).toThrow(/expected an action/);
    expect(() => parseAction('breakpoint')).toThrow();
  });

  it('CLI lists split on unescaped commas; \\, and \\\\ are literal', () => {
    expect(parseActionList('step_into, step_over,breakpoint=    return n')).toEqual([
      { action: 'step_into' },
      { action: 'step_over' },
      { action: 'breakpoint', src: '    return n' },
    ]);
    expect(parseActionList('breakpoint=    print(a\\, b),continue')).toEqual([{ action: 'breakpoint', src: '    print(a, b)' }, { action: 'continue' }]);
    const tricky: Action[] = [
      { action: 'breakpoint', src: '    s = "a,b\\\\,c\\n" + x\\' },
      { action: 'breakpoint', src: '' },
      { action: 'step_return' },
    ];
    expect(parseActionList(formatActionList(tricky))).toEqual(tricky);
    expect(() => parseActionList('step_into,hop')).toThrow(/action 2/);
  });
});
