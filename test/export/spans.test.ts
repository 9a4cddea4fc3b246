// target_spans of a trajectories row (docs/export.md): the [start, end] in `text`, in code
// points, of each state a model must predict. On the byte-exact vectors of
// test/data/semantics/trajectories.json, slicing each vector's text by its spans gives exactly
// the targets the semantics gives for its steps (promptTarget over the walked trajectory), and
// the text before each span is that step's prompt.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { codePointSpans, frameEnds, targetSpans } from '../../src/export/steps.js';
import { buildTraceIndex, contextFor, promptTarget, Scope, textParts, walk } from '../../src/semantics/index.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';
import { readVectors, vectorTrace } from '../semantics/helpers.js';

const vectors = readVectors();
// Recorded up front, so a recorder failure fails here with its reason.
beforeAllOrFail(() => {
  for (const v of vectors) vectorTrace(v);
});

/** Python's `text[start:end]`: code points. */
const slice = (text: string, [s, e]: [number, number]) => Array.from(text).slice(s, e).join('');

describe('target_spans on the test vectors', () => {
  it('has the ten vectors', () => expect(vectors.length).toBe(10));

  for (const v of vectors) {
    it(`${v.name}: one span per action; each slice is the step's target, the text before it its prompt`, () => {
      const tr = vectorTrace(v);
      const index = buildTraceIndex(tr.events);
      const entry = tr.events.find((e) => e.event === 'call' && e.func === v.entry_function)!.seq;
      const t = walk(new Scope(index, entry), v.direction, v.actions);
      const parts = textParts(index, t, contextFor(v.direction, tr.header));
      const spans = targetSpans(v.text, frameEnds(v.text, v.actions.length, 0));
      expect(spans).toHaveLength(v.actions.length);
      spans.forEach((span, k) => {
        const want = promptTarget(parts, k);
        expect(slice(v.text, span), `step ${k}`).toBe(want.target);
        expect(Array.from(v.text).slice(0, span[0]).join('')).toBe(want.prompt);
      });
      // The last target is the exit token when the trajectory reached one.
      if (v.exit) expect(slice(v.text, spans[spans.length - 1])).toBe(v.exit);
    });
  }
});

describe('code points, not UTF-16 code units', () => {
  const F = '<|frame_sep|>';
  const A = '<|action_sep|>';
  const text = `<|begin_of_text|>s = "😀"${F}s0 😀${A}<|step_over|>${F}{"s": "'😀😀'"}${A}<|step_over|>${F}<|exit_normal|><|trace_end|><|end_of_text|>`;

  it('a character past U+FFFF counts once: Python slices the same targets', () => {
    const spans = targetSpans(text, frameEnds(text, 2, 1));
    expect(spans.map((s) => slice(text, s))).toEqual([`{"s": "'😀😀'"}`, '<|exit_normal|>']);
    // In code units (JavaScript's indices) the first span starts 2 later: two emoji before it.
    const units = text.indexOf(`{"s"`);
    expect(spans[0][0]).toBe(units - 2);
    const py = execFileSync(
      'python3',
      ['-c', 'import json,sys; t, s = json.load(sys.stdin); print(json.dumps([t[a:b] for a, b in s]))'],
      {
        input: JSON.stringify([text, spans]),
        encoding: 'utf8',
      },
    );
    expect(JSON.parse(py)).toEqual([`{"s": "'😀😀'"}`, '<|exit_normal|>']);
  });

  it('a text without such characters keeps its offsets; a lone surrogate is one code point', () => {
    expect(
      codePointSpans('abc', [
        [0, 1],
        [1, 3],
      ]),
    ).toEqual([
      [0, 1],
      [1, 3],
    ]);
    expect(
      codePointSpans('\uD800x😀y', [
        [1, 2],
        [4, 5],
      ]),
    ).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });
});
