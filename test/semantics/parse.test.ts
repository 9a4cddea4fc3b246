/**
 * Reading serialized text and model predictions back (parse.ts, json-parse.ts); malformed input
 * is reported, never thrown: the whole error for each kind of malformed JSON, state and action,
 * the excerpt of what was found, positions on a later line, what a model may add around a
 * prediction, and the exact shape of what is read.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePrediction, parseTrajectory, type ParseError, type Parsed } from '../../src/semantics/index.js';
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

/** The error of a parse that must fail. */
function failure<T>(p: Parsed<T>): ParseError {
  if (p.ok) throw new Error(`expected an error, parsed ${JSON.stringify(p.value)}`);
  return p.error;
}

/** The whole error expected at `offset` of a one-line text. */
function oneLine(text: string, offset: number, tokenIndex: number, expected: string, got: string): ParseError {
  const column = offset + 1;
  return {
    offset,
    line: 1,
    column,
    tokenIndex,
    expected,
    got,
    message: `line 1, column ${column} (offset ${offset}): expected ${expected}, got ${got}`,
  };
}

const HEAD = '<|begin_of_text|><|trace_context_start|>def f():\n    return 1\n<|frame_sep|>';
/** A trajectory of one state (its text given) cut by a length limit. */
const oneState = (state: string) => `${HEAD}${state}<|trace_end|><|end_of_text|>`;
/** A prediction of a return with `arg` as its value. */
const ret = (arg: string) => `<|return_sep|><|src_sep|>x<|arg_sep|>${arg}`;
/** A prediction of a line with `locals` as its locals. */
const line = (locals: string) => `<|line_sep|><|arg_sep|>${locals}<|src_sep|>x`;
const RET_AT = ret('').length; // 37: where a return's value starts
const LINE_AT = line('').length - '<|src_sep|>x'.length; // 23: where a line's locals start

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
  const noState =
    '<|begin_of_text|><|trace_context_start|>def f():\n    return 1\n<|frame_sep|><|exit_normal|><|trace_end|><|end_of_text|>';
  const bad: [string, string, string, number][] = [
    ['no header', 'hello', '<|begin_of_text|>', 0],
    // Cut inside the first <|action_sep|>: `<|a` is no token, so the state ends before it.
    ['truncated', countText.slice(0, firstAction + 3), '<|action_sep|> or <|trace_end|>', firstAction],
    [
      'missing end',
      countText.replace('<|end_of_text|>', ''),
      '<|end_of_text|>',
      countText.length - '<|end_of_text|>'.length,
    ],
    [
      'bad locals',
      countText.replace(countCall, '{"s": 1}'),
      'locals as a JSON object of strings',
      countText.indexOf(countCall),
    ],
    // The string runs into the next special token, which ends any JSON value.
    [
      'unclosed JSON',
      countText.replace(countCall, '{"s": "x'),
      'the closing " of a string',
      countText.indexOf(countCall) + '{"s": "x'.length,
    ],
    [
      'unknown action',
      countText.replace('<|step_return|>', '<|step_sideways|>'),
      'an action token',
      countText.indexOf('<|step_return|>'),
    ],
    [
      'state expected',
      countText.replace('<|line_sep|>', '<|wat|>'),
      'a state token',
      countText.indexOf('<|line_sep|>'),
    ],
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
      expect(e.message).toBe(
        `line ${e.line}, column ${e.column} (offset ${offset}): expected ${e.expected}, got ${e.got}`,
      );
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
    for (const t of [
      '',
      '<|',
      '<|begin_of_text|>',
      head + '['.repeat(100_000),
      head + '{"a": "\\u12"}',
      head + '{"a" "b"}',
    ]) {
      const p = parseTrajectory(t);
      expect(p.ok).toBe(false);
    }
  });
});

describe('parsePrediction', () => {
  it('reads a state with its fields', () => {
    const p = parsePrediction('<|line_sep|><|arg_sep|>{"single_digit": "5", "c": "10"}<|src_sep|>    return result');
    expect(p).toEqual({
      ok: true,
      value: { event: 'line', src: '    return result', locals: { single_digit: '5', c: '10' } },
    });
  });

  it('reads an exit token, and ignores what the model generated after the state', () => {
    expect(parsePrediction('<|exit_normal|><|trace_end|><|end_of_text|>')).toEqual({
      ok: true,
      value: { event: 'exit_normal' },
    });
    const p = parsePrediction(
      ' <|return_sep|><|src_sep|>    return n<|arg_sep|>"2"<|action_sep|><|step_into|><|frame_sep|>…',
    );
    expect(p).toEqual({ ok: true, value: { event: 'return', src: '    return n', arg: '2' } });
  });

  it('keeps non-string JSON so a wrong answer scores as wrong, not as a format error', () => {
    const p = parsePrediction('<|return_sep|><|src_sep|>    return n<|arg_sep|>2');
    expect(p).toEqual({ ok: true, value: { event: 'return', src: '    return n', arg: 2 } });
    const q = parsePrediction('<|inv_call_sep|><|src_sep|>def f(x):<|arg_sep|>{"x": [1, 2], "__proto__": "p"}');
    expect(q.ok && Object.keys(q.value.locals!)).toEqual(['x', '__proto__']);
  });

  it('refuses locals naming one variable twice, at the second key, saying which (a real model wrote them)', () => {
    const text = '<|line_sep|><|arg_sep|>{"names": "[]", "names": "[\'m\', \'a\']"}<|src_sep|>    x = 1';
    const p = parsePrediction(text);
    expect(p.ok).toBe(false);
    if (p.ok) return;
    expect(p.error.offset).toBe(text.indexOf('"names"', text.indexOf('"names"') + 1));
    expect(p.error.expected).toContain('a key not already in this object ("names" again)');
    // One key inside a value and another outside it are different objects: no error.
    expect(parsePrediction('<|line_sep|><|arg_sep|>{"d": "{\'d\': 1}"}<|src_sep|>x').ok).toBe(true);
  });

  it('reports malformed predictions', () => {
    for (const t of [
      '',
      'the answer is 2',
      '<|return_sep|><|src_sep|>x<|arg_sep|>',
      '<|line_sep|><|arg_sep|>[1]<|src_sep|>x',
      '<|return_sep|><|src_sep|>x<|arg_sep|>"2" trailing',
    ]) {
      const p = parsePrediction(t);
      expect(p.ok, t).toBe(false);
      if (!p.ok) expect(p.error.message).toMatch(/expected/);
    }
  });

  it('src runs to the next known token: other <|…|> text is part of it, a trailing line break is not', () => {
    const p = parsePrediction('<|inv_line_call_sep|><|src_sep|>    s = "<|wat|>"');
    expect(p).toStrictEqual({ ok: true, value: { event: 'inv_line_call', src: '    s = "<|wat|>"' } });
    const q = parsePrediction('<|inv_line_call_sep|><|src_sep|>    a\n    b\r\n  <|trace_end|>');
    expect(q).toStrictEqual({ ok: true, value: { event: 'inv_line_call', src: '    a\n    b' } });
  });

  it('may start with <|frame_sep|>, and end at <|frame_sep|> or <|end_of_text|>', () => {
    expect(parsePrediction('<|frame_sep|><|exit_normal|>')).toStrictEqual({
      ok: true,
      value: { event: 'exit_normal' },
    });
    const state = '<|return_sep|><|src_sep|>x<|arg_sep|>"2"';
    const value = { event: 'return', src: 'x', arg: '2' };
    expect(parsePrediction(`<|frame_sep|>${state}`)).toStrictEqual({ ok: true, value });
    expect(parsePrediction(`${state}<|frame_sep|><|exit_normal|>`)).toStrictEqual({ ok: true, value });
    expect(parsePrediction(`${state} <|end_of_text|>`)).toStrictEqual({ ok: true, value });
  });

  it('has only the fields its state shows', () => {
    expect(parsePrediction(line('{"a": "1"}'))).toStrictEqual({
      ok: true,
      value: { event: 'line', src: 'x', locals: { a: '1' } },
    });
    expect(parsePrediction(ret('null'))).toStrictEqual({ ok: true, value: { event: 'return', src: 'x', arg: null } });
  });

  it('locals must be a JSON object (of any values)', () => {
    for (const locals of ['null', '"s"', '1', 'true']) {
      const t = line(locals);
      expect(failure(parsePrediction(t)), locals).toEqual(
        oneLine(t, LINE_AT, 2, 'locals as a JSON object', JSON.stringify(`${locals}<|src_sep|>x`)),
      );
    }
  });

  it('reports an action or unknown token where a state should be, and text after the state', () => {
    const states = 'a state token (<|call_sep|>, <|line_sep|>, …) or an exit token (<|exit_normal|>, …)';
    expect(failure(parsePrediction('<|step_into|>'))).toEqual(oneLine('', 0, 0, states, '"<|step_into|>"'));
    expect(failure(parsePrediction('<|frame_sep|>2'))).toEqual(oneLine('', 13, 1, states, '"2"'));
    const t = ret('"2" and more');
    expect(failure(parsePrediction(t))).toEqual(
      oneLine(t, RET_AT + 4, 3, 'the end of the state (end of text, <|action_sep|> or <|trace_end|>)', '"and more"'),
    );
  });
});

describe('JSON inside the text', () => {
  it('may hold spaces, tabs, line feeds and carriage returns between its tokens', () => {
    const p = parsePrediction(line('{\t"a"\r\n:\t"1",\n"b": [ 1 ,\t2\r]\r\n}'));
    expect(p).toStrictEqual({ ok: true, value: { event: 'line', src: 'x', locals: { a: '1', b: [1, 2] } } });
  });

  it('empty arrays are values', () => {
    expect(parsePrediction(ret('[]'))).toStrictEqual({ ok: true, value: { event: 'return', src: 'x', arg: [] } });
    expect(parsePrediction(ret('[ [], {} ]'))).toStrictEqual({
      ok: true,
      value: { event: 'return', src: 'x', arg: [[], {}] },
    });
  });

  it('a control character inside a string is refused where it stands', () => {
    const t = ret('"a\tb"');
    expect(failure(parsePrediction(t))).toEqual(
      oneLine(t, RET_AT + 2, 3, 'a JSON value: a string character (control characters must be escaped)', '"\\tb\\""'),
    );
  });

  it('a key that is not a string, a missing colon or comma, a word that is no value', () => {
    const cases: [string, number, string, string][] = [
      [line('{1: "a"}'), LINE_AT + 1, 'locals as a JSON object: a string key', '"1: \\"a\\"}<|src_sep|>x"'],
      [line('{"a" "b"}'), LINE_AT + 5, "locals as a JSON object: ':'", '"\\"b\\"}<|src_sep|>x"'],
      [
        line('{"a": "1" "b": "2"}'),
        LINE_AT + 10,
        "locals as a JSON object: ',' or '}'",
        '"\\"b\\": \\"2\\"}<|src_sep|>x"',
      ],
      [ret('[1 2]'), RET_AT + 3, "a JSON value: ',' or ']'", '"2]"'],
      [ret('nope'), RET_AT, 'a JSON value: a JSON value', '"nope"'],
      [line('{"a'), LINE_AT + 3, 'locals as a JSON object: the closing " of a string', '"<|src_sep|>x"'],
    ];
    for (const [t, offset, expected, got] of cases)
      expect(failure(parsePrediction(t)), t).toEqual(
        oneLine(t, offset, 2 + (t.startsWith('<|ret') ? 1 : 0), expected, got),
      );
  });

  it('nests 256 levels deep, not 257, in arrays and in objects', () => {
    const arrays = (n: number) => '['.repeat(n) + '1' + ']'.repeat(n);
    const objects = (n: number) => '{"a": '.repeat(n) + '1' + '}'.repeat(n);
    let v: unknown = 1;
    for (let i = 0; i < 256; i++) v = [v];
    expect(parsePrediction(ret(arrays(256)))).toStrictEqual({ ok: true, value: { event: 'return', src: 'x', arg: v } });
    const t = ret(arrays(257));
    expect(failure(parsePrediction(t))).toEqual(
      oneLine(
        t,
        RET_AT + 257,
        3,
        'a JSON value: at most 256 levels of nesting',
        JSON.stringify('1' + ']'.repeat(39) + '…'),
      ),
    );
    expect(parsePrediction(ret(objects(256))).ok).toBe(true);
    // The depth is checked before the space after the 257th colon is skipped.
    const u = ret(objects(257));
    expect(failure(parsePrediction(u))).toEqual(
      oneLine(
        u,
        RET_AT + 256 * 6 + 5,
        3,
        'a JSON value: at most 256 levels of nesting',
        JSON.stringify(' 1' + '}'.repeat(38) + '…'),
      ),
    );
  });
});

describe('the states of a whole trajectory', () => {
  it('locals must be a JSON object of strings', () => {
    for (const locals of ['null', '"s"', '1', '["a"]', 'true']) {
      const state = `<|line_sep|><|arg_sep|>${locals}<|src_sep|>    return 1`;
      const t = oneState(state);
      const offset = HEAD.length + '<|line_sep|><|arg_sep|>'.length;
      const e = failure(parseTrajectory(t));
      expect(e, locals).toEqual({
        offset,
        line: 3,
        column: offset - HEAD.indexOf('<|frame_sep|>') + 1,
        tokenIndex: 5,
        expected: 'locals as a JSON object of strings',
        got: JSON.stringify(t.slice(offset, offset + 40) + '…'),
        message: `line 3, column ${offset - HEAD.indexOf('<|frame_sep|>') + 1} (offset ${offset}): expected locals as a JSON object of strings, got ${JSON.stringify(t.slice(offset, offset + 40) + '…')}`,
      });
    }
  });

  it('a return value must be a JSON string or null', () => {
    const state = (arg: string) => `<|return_sep|><|src_sep|>    return 1<|arg_sep|>${arg}`;
    expect(parseTrajectory(oneState(state('null')))).toStrictEqual({
      ok: true,
      value: {
        context: 'def f():\n    return 1\n',
        states: [{ kind: 'return', src: '    return 1', arg: null }],
        actions: [],
        exit: null,
      },
    });
    const at = HEAD.length + state('').length;
    const e1 = failure(parseTrajectory(oneState(state('2'))));
    expect([e1.offset, e1.expected, e1.got]).toEqual([at, 'a JSON string or null', '"2<|trace_end|><|end_of_text|>"']);
    const e2 = failure(parseTrajectory(oneState(state('"2'))));
    expect([e2.offset, e2.expected, e2.got]).toEqual([
      at + 2,
      'a JSON string or null: the closing " of a string',
      '"<|trace_end|><|end_of_text|>"',
    ]);
  });

  it('a state has only the fields it shows: no locals on a return, no value on a line', () => {
    const t = `${HEAD}<|line_sep|><|arg_sep|>{}<|src_sep|>    return 1<|action_sep|><|step_into|><|frame_sep|><|return_sep|><|src_sep|>    return 1<|arg_sep|>"1"<|action_sep|><|step_into|><|frame_sep|><|exit_normal|><|trace_end|><|end_of_text|>`;
    expect(parseTrajectory(t)).toStrictEqual({
      ok: true,
      value: {
        context: 'def f():\n    return 1\n',
        states: [
          { kind: 'line', src: '    return 1', locals: {} },
          { kind: 'return', src: '    return 1', arg: '1' },
        ],
        actions: [{ action: 'step_into' }, { action: 'step_into' }],
        exit: 'exit_normal',
      },
    });
  });

  it('after <|action_sep|> only an action token may follow, not another known token', () => {
    const state = '<|line_sep|><|arg_sep|>{}<|src_sep|>    return 1<|action_sep|>';
    const t = `${HEAD}${state}<|frame_sep|><|exit_normal|><|trace_end|><|end_of_text|>`;
    const e = failure(parseTrajectory(t));
    expect([e.offset, e.tokenIndex, e.expected]).toEqual([
      HEAD.length + state.length,
      7,
      'an action token (<|step_into|>, <|breakpoint|>, …)',
    ]);
  });

  it('an error on the first of several lines is placed on that line', () => {
    // The display form: a line break before each frame, the first state's locals broken.
    const t =
      '<|begin_of_text|><|trace_context_start|>x\n<|frame_sep|><|line_sep|><|arg_sep|>{"a": 1}<|src_sep|>y\n<|action_sep|><|step_into|>\n<|frame_sep|><|exit_normal|><|trace_end|><|end_of_text|>\n';
    const got = JSON.stringify('{"a": 1}<|src_sep|>y\n<|action_sep|><|ste' + '…');
    expect(failure(parseTrajectory(t))).toEqual({
      offset: 78,
      line: 2,
      column: 37,
      tokenIndex: 5,
      expected: 'locals as a JSON object of strings',
      got,
      message: `line 2, column 37 (offset 78): expected locals as a JSON object of strings, got ${got}`,
    });
  });

  // Locals that are JSON of the wrong shape are refused above ("locals as a JSON object of
  // strings"); malformed JSON is refused by the JSON reader, whose complaint is prefixed with
  // what was being read.
  it('locals that are not JSON at all: names the locals and what the JSON reader expected, where it stopped', () => {
    const head = '<|begin_of_text|><|trace_context_start|>def f():\n    return 1\n<|frame_sep|><|line_sep|><|arg_sep|>';
    const text = `${head}{"a" "1"}<|src_sep|>    return 1<|trace_end|><|end_of_text|>`;
    const p = parseTrajectory(text);
    expect(p.ok).toBe(false);
    if (p.ok) return;
    expect(p.error.offset).toBe(head.length + '{"a" '.length);
    expect(p.error.expected).toBe("locals as a JSON object: ':'");
    expect(p.error.message).toContain("expected locals as a JSON object: ':', got ");
  });
});

describe('what was found, in an error', () => {
  it('is the rest of the text up to 40 characters, cut with … after that', () => {
    const msg = (rest: string) => failure(parsePrediction(rest)).got;
    expect(msg('the answer is 2')).toBe('"the answer is 2"');
    expect(msg('y'.repeat(40))).toBe(`"${'y'.repeat(40)}"`);
    expect(msg('z'.repeat(41))).toBe(`"${'z'.repeat(40)}…"`);
    expect(msg('w'.repeat(500))).toBe(`"${'w'.repeat(40)}…"`);
    expect(msg('')).toBe('end of text');
  });
});
