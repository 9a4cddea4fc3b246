/** Reading serialized text and model predictions back; malformed input is reported, never thrown. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatActionList, parseAction, parseActionList, parsePrediction, parseTrajectory, type Action, type Parsed } from '../../src/semantics/index.js';
import { vectorsPath } from './helpers.js';

const vectors: { name: string; text: string }[] = JSON.parse(readFileSync(vectorsPath, 'utf8'));
const countText = vectors.find((v) => v.name === 'count-forward-breakpoint')!.text;

/** The value of a parse that must succeed; its error message otherwise. */
function must<T>(p: Parsed<T>): T {
  if (!p.ok) throw new Error(`expected a parse, got: ${p.error.message}`);
  return p.value;
}

/** Special tokens (known or not) in a text: how many the parser read before an offset. */
const tokensIn = (s: string) => (s.match(/<\|[a-z_]+\|>/g) ?? []).length;

describe('parseTrajectory', () => {
  it('reads the display form with line breaks between tokens', () => {
    // Line breaks before every <|frame_sep|> as in the spec's display; the context gains one.
    const display = countText.replace(/<\|frame_sep\|>/g, '\n<|frame_sep|>');
    const p = must(parseTrajectory(display));
    const q = must(parseTrajectory(countText));
    expect(p.states).toEqual(q.states);
    expect(p.states.length).toBe(6);
    expect(p.actions).toEqual(q.actions);
    expect(p.actions[2]).toEqual({ action: 'breakpoint', src: '    return n' });
    expect(p.context).toBe(q.context + '\n');
  });

  it('keeps leading spaces of src and the ".." marker in locals', () => {
    const p = must(parseTrajectory(vectors[0].text));
    expect(p.states[3]).toEqual({ kind: 'line', src: '    n = 0', locals: { '..': '..' } });
    expect(Object.keys(p.states[4].locals!)).toEqual(['..', 'n']);
  });

  // [what, text, expected, offset of the error]: each offset reckoned from the text itself.
  const countCall = '{"s": "\'berry\'", "t": "\'r\'"}';
  const firstAction = countText.indexOf('<|action_sep|>');
  const noState = '<|begin_of_text|><|trace_context_start|>def f():\n    return 1\n<|frame_sep|><|exit_normal|><|trace_end|><|end_of_text|>';
  const bad: [string, string, string, number][] = [
    ['no header', 'hello', '<|begin_of_text|>', 0],
    // Cut inside the first <|action_sep|>: `<|a` is no token, so the state ends before it.
    ['truncated', countText.slice(0, firstAction + 3), '<|action_sep|> or <|trace_end|>', firstAction],
    ['missing end', countText.replace('<|end_of_text|>', ''), '<|end_of_text|>', countText.length - '<|end_of_text|>'.length],
    ['bad locals', countText.replace(countCall, '{"s": 1}'), 'locals as a JSON object of strings', countText.indexOf(countCall)],
    // The string runs into the next special token, which ends any JSON value.
    ['unclosed JSON', countText.replace(countCall, '{"s": "x'), 'the closing " of a string', countText.indexOf(countCall) + '{"s": "x'.length],
    ['unknown action', countText.replace('<|step_return|>', '<|step_sideways|>'), 'an action token', countText.indexOf('<|step_return|>')],
    ['state expected', countText.replace('<|line_sep|>', '<|wat|>'), 'a state token', countText.indexOf('<|line_sep|>')],
    ['trailing text', countText + 'more', 'end of text after <|end_of_text|>', countText.length],
    // An exit is what the last action led to: with no state (and no action) there is none.
    ['an exit before any state', noState, 'a state token', noState.indexOf('<|exit_normal|>')],
  ];
  for (const [name, text, expected, offset] of bad) {
    it(`reports ${name} with offset, line, column, token index, expected and got`, () => {
      const p = parseTrajectory(text);
      if (p.ok) throw new Error(`${name}: parsed, expected an error`);
      const e = p.error;
      expect(e.offset).toBe(offset);
      expect(e.expected).toContain(expected);
      const before = text.slice(0, offset).split('\n');
      expect(e.line).toBe(before.length);
      expect(e.column).toBe(before.at(-1)!.length + 1);
      expect(e.tokenIndex).toBe(tokensIn(text.slice(0, offset)));
      const rest = text.slice(offset);
      if (rest === '') expect(e.got).toBe('end of text');
      else expect(e.got.startsWith(JSON.stringify(rest.slice(0, 8)).slice(0, -1))).toBe(true);
      expect(e.message).toBe(`line ${e.line}, column ${e.column} (offset ${offset}): expected ${e.expected}, got ${e.got}`);
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
