/**
 * Pre-label rules on the completion's text (rules-format.ts), and the rules that blame the truth
 * or clear the model (rules-truth.ts): each rule, then the reasons shown to annotators, the limits
 * of each rule, inputs that once crashed a rule, and the "explains everything" stops. Expected
 * labels come from the default taxonomy's definitions, reasons from the rule's own sentence.
 */
import { describe, expect, it } from 'vitest';
import { COUNT, countEvent, countEvents, INV_COUNT as INV, labels, lineState, run } from './cases.js';

const TRUTH = lineState('{"..": "..", "n": "1"}', '    for c in s:');
const BEFORE = lineState('{"s": "\'berry\'", "t": "\'r\'", "n": "0", "c": "\'r\'"}', '        n += int(c == t)');
const base = {
  truth: TRUTH,
  before: BEFORE,
  direction: 'forward' as const,
  action: 'step_into' as const,
  source: COUNT,
};
const fwd = { direction: 'forward' as const, action: 'step_into' as const };
const RET = {
  direction: 'forward' as const,
  action: 'step_return' as const,
  source: 'def f(n):\n    xs = g(n)\n    return xs\n',
};
/** A return state of `xs` (at `src`) showing the value `v`. */
const ret = (v: string, src = '    return xs') => `<|return_sep|><|src_sep|>${src}<|arg_sep|>${JSON.stringify(v)}`;

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
    expect(labels(run({ ...base, completion: TRUTH + lineState('{}', '    return n') }))).toEqual([
      'format.unparseable by parse-error',
    ]);
  });

  it('cut-at-max-tokens: an unreadable completion that stopped at the token limit', () => {
    const completion = '<|line_sep|><|arg_sep|>{"..": "..", "n": "1"}<|src_sep';
    expect(labels(run({ ...base, completion, finishReason: 'length' }))).toEqual([
      'format.truncated by cut-at-max-tokens',
    ]);
    expect(labels(run({ ...base, completion, finishReason: 'stop' }))).toEqual(['format.unparseable by parse-error']);
  });

  it('ends-mid-state: the text ends inside a string, an object or before a field', () => {
    expect(labels(run({ ...base, completion: '<|line_sep|><|arg_sep|>{"..": "..", "n": "1' }))).toEqual([
      'format.truncated by ends-mid-state',
    ]);
    expect(labels(run({ ...base, completion: '<|line_sep|><|arg_sep|>{"..": "..", "n": "1"}  ' }))).toEqual([
      'format.truncated by ends-mid-state',
    ]);
    const got = run({ ...base, completion: '<|line_sep|><|arg_sep|>{"..": "..",' });
    expect(got[0].reason).toBe('the text ends where locals as a JSON object: a string key was expected');
  });

  it('parse-error: anything else unreadable, with where the parser stopped', () => {
    const got = run({ ...base, completion: '<|line_sep|><|arg_sep|>{"..": "..", n: 1}<|src_sep|>    for c in s:' });
    expect(labels(got)).toEqual(['format.unparseable by parse-error']);
    expect(got[0].reason).toMatch(/^line 1, column 37 \(offset 36\): expected locals as a JSON object: a string key/);
    expect(labels(run({ ...base, completion: 'The next state is the for line.' }))).toEqual([
      'format.unparseable by parse-error',
    ]);
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
    expect(labels(run({ ...c, completion: lineState('{"n": "0"}', '    for c in s:') }))).toEqual([
      'format.delta by marker-only',
    ]);
  });
});

describe('pre-labels: the truth, and execution', () => {
  it('known-nondeterministic: the caller knows the truth varies; nothing else is said', () => {
    expect(
      labels(run({ ...base, completion: lineState('{"..": "..", "n": "7"}', '    return n'), nondeterministic: true })),
    ).toEqual(['truth.nondeterminism by known-nondeterministic']);
  });

  it('passes-by-execution: an inverse prediction that runs to the true result is a valid alternative, and only that', () => {
    const completion = '<|inv_call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"s": "\'rr\'", "t": "\'r\'"}';
    expect(labels(run({ ...INV, completion, execution: 'pass' }))).toEqual([
      'inverse.valid_alternative by passes-by-execution',
    ]);
    expect(labels(run({ ...INV, completion, execution: 'fail' }))).toEqual([
      'inverse.invalid_input by invalid-input',
      'data.wrong_value by wrong-value',
    ]);
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

  it('cut-by-recorder: the true repr ends with the cut mark, or the event lists the name as cut', () => {
    const got = run({ ...RET, truth: ret('[0, 1, 2, 3…<cut 9000 chars>'), completion: ret('[0, 1, 2, 3, 4, 5]') });
    expect(labels(got)).toEqual(['truth.value_cut by cut-by-recorder']);
    const line = {
      direction: 'forward' as const,
      action: 'step_into' as const,
      source: 'def f(n):\n    xs = g(n)\n    return xs\n',
    };
    const viaEvent = run({
      ...line,
      truth: lineState('{"..": "..", "xs": "[0, 1, 2]"}', '    return xs'),
      completion: lineState('{"..": "..", "xs": "[0, 1]"}', '    return xs'),
      trueEvent: { line: 3, src: '    return xs', locals: { n: '3', xs: '[0, 1, 2]' }, cut: ['xs'] },
    });
    expect(labels(viaEvent)).toEqual(['truth.value_cut by cut-by-recorder']);
    expect(viaEvent[0].reason).toBe('the true repr of xs was cut by the recorder');
    // A cut value elsewhere does not excuse a wrong one.
    expect(
      labels(
        run({
          ...RET,
          truth: ret('[1, 2]'),
          completion: ret('[1, 3]'),
          trueEvent: { line: 3, src: '    return xs', locals: {}, cut: ['xs'] },
        }),
      ),
    ).toEqual(['return.wrong_value by arg-value']);
  });

  it('set-order: the same set in another order blames the hash seed; a list in another order is a wrong value', () => {
    expect(labels(run({ ...RET, truth: ret("{'b', 'a'}"), completion: ret("{'a', 'b'}") }))).toEqual([
      'truth.nondeterminism by set-order',
    ]);
    expect(
      labels(run({ ...RET, truth: ret("frozenset({'b', 'a'})"), completion: ret("frozenset({'a', 'b'})") })),
    ).toEqual(['truth.nondeterminism by set-order']);
    expect(labels(run({ ...RET, truth: ret("{'b', 'a'}"), completion: ret("{'a', 'c'}") }))).toEqual([
      'return.wrong_value by arg-value',
    ]);
    expect(labels(run({ ...RET, truth: ret("['b', 'a']"), completion: ret("['a', 'b']") }))).toEqual([
      'return.wrong_value by arg-value',
    ]);
  });

  it('address-only: two reprs that differ only in the object address', () => {
    expect(
      labels(run({ ...RET, truth: ret('<Node object at 0x2>'), completion: ret('<Node object at 0x1>') })),
    ).toEqual(['truth.nondeterminism by address-only']);
    expect(
      labels(run({ ...RET, truth: ret('<Node object at 0x2>'), completion: ret('<Leaf object at 0x2>') })),
    ).toEqual(['data.wrong_type by value-type', 'return.wrong_value by arg-value']);
  });
});

describe('format rules: what the text says', () => {
  it('repeated-text: copies separated by line breaks (a display form) are still one state written again', () => {
    const got = run({ ...base, completion: `${TRUTH}\n\n${TRUTH} \n${TRUTH}` });
    expect(labels(got)).toEqual(['format.repeated by repeated-text']);
    // The state as the annotator reads it: clipped to 40 characters, no trailing break.
    expect(got[0].reason).toBe(`the state ${TRUTH.slice(0, 40)}… is written 3 times in a row`);
  });

  it('repeated-text: a state written twice is already a loop', () => {
    const got = run({ ...base, completion: TRUTH + TRUTH });
    expect(labels(got)).toEqual(['format.repeated by repeated-text']);
    expect(got[0].reason).toMatch(/ is written 2 times in a row$/);
  });

  it('repeated-text stays silent on a readable state: what the model wrote after it is not scored', () => {
    // The model went on generating the same step again and again after a wrong state; the
    // prediction is the first state (n is 2, true 1), and the rest is ignored.
    const wrong = lineState('{"..": "..", "n": "2"}', '    for c in s:');
    const step = `${wrong}<|action_sep|><|step_into|><|frame_sep|>`;
    expect(labels(run({ ...base, completion: step + step + step }))).toEqual(['data.wrong_value by wrong-value']);
  });

  it('a loop that ran into the token limit is a loop: the cut is its consequence, not a second error', () => {
    const completion = TRUTH + TRUTH + TRUTH + '<|line_sep|><|arg_sep|>{"..": "..", "n"';
    expect(labels(run({ ...base, completion, finishReason: 'length' }))).toEqual(['format.repeated by repeated-text']);
  });

  it('cut-at-max-tokens explains the text alone, and says where the parser stopped', () => {
    // One whole state (71 characters), then a second one without an action, cut by the limit.
    const first = lineState('{"..": "..", "n": "1"}', '    for c in s:');
    expect(first.length).toBe(71);
    const completion = `${first}${lineState('{"..": "..", "c": "\'y\'"}', '        n += int(c')}`;
    const got = run({ ...base, completion, finishReason: 'length' });
    expect(labels(got)).toEqual(['format.truncated by cut-at-max-tokens']);
    expect(got[0].reason).toMatch(
      /^generation hit the token limit; line 1, column 72 \(offset 71\): expected the end of the state/,
    );
  });

  it('ends-mid-state: a stray character before the end is not an early stop, even after leading line breaks', () => {
    const completion = `\n${lineState('{"..": "..", "n": "1"}', '    for c in s:').replace('<|src_sep|>    for c in s:', '}')}`;
    expect(completion.endsWith('"1"}}')).toBe(true);
    expect(labels(run({ ...base, completion }))).toEqual(['format.unparseable by parse-error']);
  });

  it('non-string-value names every local that is not a repr', () => {
    const got = run({ ...base, completion: lineState('{"..": "..", "n": 1, "c": null}', '    for c in s:') });
    expect(labels(got)).toEqual(['format.unparseable by non-string-value']);
    expect(got[0].reason).toBe('n is 1, not a repr string; c is null, not a repr string');
  });

  it('non-string-value quotes a list or an object local as JSON, as the model wrote it', () => {
    const got = run({ ...base, completion: lineState('{"..": "..", "n": [1, 2], "c": {"a": 1}}', '    for c in s:') });
    expect(got[0].reason).toBe('n is [1,2], not a repr string; c is {"a":1}, not a repr string');
  });

  it("locals written in another order than the truth's are the same locals: nothing to suggest", () => {
    // Exact match compares locals as JSON objects (docs/semantics.md §8): key order is not part of it.
    expect(run({ ...base, completion: lineState('{"n": "1", "..": ".."}', '    for c in s:') })).toEqual([]);
    const full = {
      ...base,
      truth: lineState('{"s": "\'berry\'", "t": "\'r\'", "n": "0"}', '    for c in s:'),
      action: 'breakpoint' as const,
    };
    expect(
      run({ ...full, completion: lineState('{"n": "0", "t": "\'r\'", "s": "\'berry\'"}', '    for c in s:') }),
    ).toEqual([]);
  });

  it('non-string-value: a returned value written as JSON, not as its repr, is unparseable and not also a wrong value', () => {
    const ret = (arg: string) => `<|return_sep|><|src_sep|>    return n<|arg_sep|>${arg}`;
    const at = { ...base, truth: ret('"1"'), before: lineState('{"..": "..", "n": "1"}', '    return n') };
    const number = run({ ...at, completion: ret('1') });
    expect(labels(number)).toEqual(['format.unparseable by non-string-value']);
    expect(number[0].reason).toBe('the value is 1, not a repr string');
    // The repr string of the wrong value is a wrong value, not a format fault.
    expect(labels(run({ ...at, completion: ret('"2"') }))).toEqual(['return.wrong_value by arg-value']);
  });
});

describe('copies-previous: what counts as a copy', () => {
  const CALL = '<|call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"s": "\'berry\'", "t": "\'r\'"}';
  const FIRST = lineState('{"..": ".."}', '    n = 0');

  it('the call copied for the first line: one label, with its reason; the other kind of state is part of the copy', () => {
    const got = run({ ...base, truth: FIRST, before: CALL, completion: CALL });
    expect(labels(got)).toEqual(['format.repeated by copies-previous']);
    expect(got[0].reason).toBe('the model copied the previous state instead of taking the action');
  });

  it('a state of another kind is no copy: a forward token where the inverse one is due is a wrong event', () => {
    const inv = { direction: 'inverse' as const, action: 'inv_step_into' as const, source: COUNT };
    const before = '<|inv_line_sep|><|src_sep|>    for c in s:<|arg_sep|>{"..": ".."}';
    const truth = '<|inv_line_sep|><|src_sep|>        n += int(c == t)<|arg_sep|>{"..": ".."}';
    expect(labels(run({ ...inv, before, truth, completion: lineState('{"..": ".."}', '    for c in s:') }))).toEqual([
      'control.wrong_event by wrong-event',
    ]);
  });
});

describe('delta rules: names written though unchanged, and the marker', () => {
  const truth = lineState('{"..": "..", "n": "0"}', '    for c in s:');
  const before = lineState('{"s": "\'berry\'", "t": "\'r\'"}', '    n = 0');
  const c = { ...base, truth, before };

  it('unchanged-written: one name repeated "belongs" out of the delta', () => {
    const got = run({ ...c, completion: lineState('{"..": "..", "s": "\'berry\'", "n": "0"}', '    for c in s:') });
    expect(labels(got)).toEqual(['format.delta by unchanged-written']);
    expect(got[0].reason).toBe('s did not change and belongs out of the delta');
  });

  it('unchanged-written leaves alone a name another iteration already explains', () => {
    // After `n += int(c == t)` with c = 'r' the loop line shows n = 1 (seq 10); the model gave
    // the loop line of the last iteration (seq 14: c = 'y', n = 2) and wrote s as well.
    const got = run({
      ...base,
      before: lineState('{"..": "..", "c": "\'r\'"}', '        n += int(c == t)'),
      beforeEvent: countEvent(9),
      truth: TRUTH,
      trueEvent: countEvent(10),
      frameEvents: countEvents,
      completion: lineState('{"..": "..", "s": "\'berry\'", "c": "\'y\'", "n": "2"}', '    for c in s:'),
    });
    expect(labels(got)).toEqual(['control.loop_iteration by other-iteration']);
  });

  it('marker-only: the reason says whether the marker is missing or extra', () => {
    const missing = run({ ...c, completion: lineState('{"n": "0"}', '    for c in s:') });
    expect(labels(missing)).toEqual(['format.delta by marker-only']);
    expect(missing[0].reason).toBe('the ".." marker is missing although names were left out');
    // A breakpoint's state shows every local (nothing left out), so a marker there is extra.
    const all = '{"s": "\'berry\'", "t": "\'r\'", "n": "0", "c": "\'r\'"}';
    const extra = run({
      ...base,
      action: 'breakpoint',
      truth: lineState(all, '        n += int(c == t)'),
      completion: lineState(`{"..": "..", ${all.slice(1)}`, '        n += int(c == t)'),
    });
    expect(labels(extra)).toEqual(['format.delta by marker-only']);
    expect(extra[0].reason).toBe('the ".." marker is shown but no name was left out');
  });

  it('marker-only: a marker written with another value is the delta form wrong too', () => {
    const got = run({ ...c, completion: lineState('{"..": "...", "n": "0"}', '    for c in s:') });
    expect(labels(got)).toEqual(['format.delta by marker-only']);
    expect(got[0].reason).toBe('the ".." marker is written "...", not ".."');
  });

  describe('a delta written where the truth shows every local', () => {
    const ADD = '        n += int(c == t)';
    // A breakpoint's target is shown in full (docs/semantics.md §6), whatever came before.
    const bp = {
      direction: 'forward' as const,
      action: 'breakpoint' as const,
      source: COUNT,
      truth: lineState('{"s": "\'berry\'", "t": "\'r\'", "n": "0", "c": "\'e\'"}', ADD),
      trueEvent: countEvent(7),
      before: lineState('{"..": "..", "c": "\'b\'"}', ADD),
      beforeEvent: countEvent(5),
    };
    const WHY = "this state shows every local (a breakpoint's target, or the first state in another frame)";

    it("at a breakpoint's target, names left out under the marker are the delta form misused, not names missed", () => {
      const got = run({ ...bp, completion: lineState('{"..": "..", "c": "\'e\'"}', ADD) });
      expect(got).toEqual([
        { label: 'format.delta', rule: 'marker-only', reason: `the ".." marker leaves out s, t, n, but ${WHY}` },
      ]);
      // A wrong value shown beside them is its own fault.
      const also = run({ ...bp, completion: lineState('{"..": "..", "c": "\'r\'"}', ADD) });
      expect(labels(also)).toEqual(['data.wrong_value by wrong-value', 'format.delta by marker-only']);
      // Without the marker the model claims c is the only local: the others are missing.
      expect(labels(run({ ...bp, completion: lineState('{"c": "\'e\'"}', ADD) }))).toEqual([
        'data.missing_local by missing-local',
      ]);
    });

    it('at the wrong line, locals differ by design: no delta fault is claimed', () => {
      const got = run({ ...bp, completion: lineState('{"..": "..", "c": "\'e\'"}', '    return n') });
      expect(labels(got)).not.toContain('format.delta by marker-only');
      expect(got.map((x) => x.label.split('.')[0])).toEqual(['control']);
    });

    it('back in the caller after a return: the first state in that frame is shown in full too', () => {
      const src = 'def g(n):\n    return n + 1\ndef f(n):\n    k = g(n)\n    return k\n';
      const got = run({
        direction: 'forward',
        action: 'step_into',
        source: src,
        truth: lineState('{"n": "1", "k": "2"}', '    return k'),
        before: '<|return_sep|><|src_sep|>    return n + 1<|arg_sep|>"2"',
        completion: lineState('{"..": "..", "k": "2"}', '    return k'),
      });
      expect(got).toEqual([
        { label: 'format.delta', rule: 'marker-only', reason: `the ".." marker leaves out n, but ${WHY}` },
      ]);
    });

    it('in the same frame a delta with nothing left out has no marker: a new name left out under one is missing', () => {
      // f() binds y, its only local: the truth's delta shows y and needs no marker.
      const got = run({
        direction: 'forward',
        action: 'step_into',
        source: 'def f():\n    y = 1\n    return y\n',
        truth: lineState('{"y": "1"}', '    return y'),
        before: lineState('{}', '    y = 1'),
        completion: lineState('{"..": ".."}', '    return y'),
      });
      expect(labels(got)).toEqual(['data.missing_local by missing-local']);
      // Without the state before, nothing says the truth is shown in full: no delta fault is claimed.
      const { before: _before, ...alone } = {
        direction: 'forward' as const,
        action: 'step_into' as const,
        source: 'def f():\n    y = 1\n    return y\n',
        truth: lineState('{"y": "1"}', '    return y'),
        before: '',
      };
      expect(labels(run({ ...alone, completion: lineState('{"..": ".."}', '    return y') }))).toEqual([
        'data.missing_local by missing-local',
      ]);
    });
  });

  it('marker-only is silent at the wrong line: locals there differ by design', () => {
    // From the loop body the truth goes back to the loop line; the model left the loop.
    expect(labels(run({ ...base, completion: lineState('{"n": "1"}', '    return n') }))).toEqual([
      'control.loop_iteration by loop-exit',
    ]);
  });
});

describe('the truth rules at their edges: odd values, reasons, what they explain', () => {
  it('a missed exception (the truth returns null) with a set or an address predicted: the truth rules do not crash', () => {
    const raised = '<|return_sep|><|src_sep|>    return xs<|arg_sep|>null';
    expect(labels(run({ ...RET, truth: raised, completion: ret('{1, 2}') }))).toEqual([
      'return.missed_exception by missed-exception',
    ]);
    expect(labels(run({ ...RET, truth: raised, completion: ret('<Node object at 0x1>') }))).toEqual([
      'return.missed_exception by missed-exception',
    ]);
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
    expect(got).toEqual([
      { label: 'data.wrong_type', rule: 'value-type', reason: 'xs is set {2, 1}, true list [1, 2]' },
    ]);
  });

  it('a cut true value the prediction matches exactly is not blamed on the recorder', () => {
    // The right (cut) value at a line that is not the true one: only the line is wrong.
    const cut = '[0, 1, 2, 3…<cut 9000 chars>';
    expect(run({ ...RET, truth: ret(cut), completion: ret(cut, '    return ys') }).map((s) => s.label)).toEqual([
      'control.wrong_line',
    ]);
  });

  it('cut-by-recorder names the returned value "the value", and takes `<arg>` in the event\'s cut list', () => {
    const got = run({ ...RET, truth: ret('[0, 1, 2, 3…<cut 9000 chars>'), completion: ret('[0, 1, 2, 3, 4]') });
    expect(got[0].reason).toBe('the true repr of the value was cut by the recorder');
    const listed = run({
      ...RET,
      truth: ret('[0, 1, 2]'),
      completion: ret('[0, 1]'),
      trueEvent: { line: 3, src: '    return xs', locals: {}, cut: ['<arg>'] },
    });
    expect(labels(listed)).toEqual(['truth.value_cut by cut-by-recorder']);
  });

  it('a value the recorder cut is explained once, by the cut: no other truth rule or type rule adds to it', () => {
    const t = '[<Node object at 0x2>, <Node…<cut 90 chars>';
    const p = '[<Node object at 0x1>, <Node…<cut 90 chars>';
    expect(labels(run({ ...RET, truth: ret(t), completion: ret(p) }))).toEqual(['truth.value_cut by cut-by-recorder']);
    expect(
      labels(run({ ...RET, truth: ret('[0, 1, 2, 3…<cut 9000 chars>'), completion: ret('(0, 1, 2, 3)') })),
    ).toEqual(['truth.value_cut by cut-by-recorder']);
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
    expect(set[0].reason).toBe(
      "the value: the same set in another order ({'a', 'b'} vs {'b', 'a'}); the order depends on the hash seed",
    );
    const one = run({ ...RET, truth: ret('<Node object at 0x2>'), completion: ret('<Node object at 0x1>') });
    expect(one[0].reason).toBe('the value differs only in an object address');
    const two = run({
      ...fwd,
      source: 'def f():\n    a = Node()\n    b = Node()\n    return a\n',
      action: 'breakpoint',
      truth: lineState('{"a": "<Node object at 0x2>", "b": "<Node object at 0x3>"}', '    return a'),
      completion: lineState('{"a": "<Node object at 0x7>", "b": "<Node object at 0x8>"}', '    return a'),
    });
    expect(two).toEqual([
      { label: 'truth.nondeterminism', rule: 'address-only', reason: 'a, b differ only in an object address' },
    ]);
  });

  it('known-nondeterministic explains the whole failure: an invented exception is not suggested beside it', () => {
    const got = run({
      ...RET,
      truth: ret('2'),
      completion: '<|exception_sep|><|src_sep|>    xs = g(n)<|arg_sep|>"ValueError()"',
      nondeterministic: true,
    });
    expect(got).toEqual([
      {
        label: 'truth.nondeterminism',
        rule: 'known-nondeterministic',
        reason: 'the recorded state differs between two recordings of the program',
      },
    ]);
  });

  it('passes-by-execution explains the whole failure: a delta-marker slip is not suggested beside it', () => {
    const truth = '<|inv_call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"s": "\'berry\'", "t": "\'r\'"}';
    const completion =
      '<|inv_call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"..": "..", "s": "\'berry\'", "t": "\'r\'"}';
    const got = run({
      truth,
      completion,
      direction: 'inverse',
      action: 'inv_step_call',
      source: COUNT,
      execution: 'pass',
    });
    expect(got).toEqual([
      {
        label: 'inverse.valid_alternative',
        rule: 'passes-by-execution',
        reason: 'running the program on the predicted input gives the true result',
      },
    ]);
  });
});
