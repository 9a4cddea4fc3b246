/**
 * The byte-exact test vectors of neural-debugger.md §9 (examples/trajectories.json), on
 * traces recorded by the real recorder, and the three CRUXEval-style prompts and targets.
 */
import { describe, expect, it } from 'vitest';
import {
  Scope,
  buildTraceIndex,
  contextFor,
  parseTrajectory,
  promptTarget,
  serialize,
  stateSeqs,
  textParts,
  walk,
} from '../../src/semantics/index.js';
import { readVectors, vectorTrace, type Vector } from './helpers.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';

const vectors = readVectors();
// Recorded up front, so a recorder failure fails here with its reason.
beforeAllOrFail(() => {
  for (const v of vectors) vectorTrace(v);
});

function run(v: Vector) {
  const tr = vectorTrace(v);
  const index = buildTraceIndex(tr.events);
  const entry = tr.events.find((e) => e.event === 'call' && e.func === v.entry_function)!.seq;
  const t = walk(new Scope(index, entry), v.direction, v.actions);
  return { tr, index, t, ctx: contextFor(v.direction, tr.header) };
}

describe('test vectors of neural-debugger.md §9', () => {
  it('has the ten vectors', () => expect(vectors.length).toBe(10));

  for (const v of vectors) {
    it(`${v.name}: text, states and exit are byte-exact`, () => {
      const { index, t, ctx } = run(v);
      expect(stateSeqs(t)).toEqual(v.states_seq);
      expect(t.exit === null ? null : `<|${t.exit}|>`).toBe(v.exit);
      expect(serialize(index, t, ctx)).toBe(v.text);
    });

    it(`${v.name}: parses back into its actions and exit`, () => {
      const p = parseTrajectory(v.text);
      expect(p.ok).toBe(true);
      if (!p.ok) return;
      expect(p.value.actions).toEqual(v.actions);
      expect(p.value.states.length).toBe(v.states_seq.length);
      expect(p.value.exit === null ? null : `<|${p.value.exit}|>`).toBe(v.exit);
    });
  }
});

describe('CRUXEval-style prompts and targets (§9)', () => {
  const vec = (name: string) => vectors.find((v) => v.name === name)!;
  const split = (name: string, k: number) => {
    const { index, t, ctx } = run(vec(name));
    return promptTarget(textParts(index, t, ctx), k);
  };

  it('output prediction by step_return', () => {
    const { prompt, target } = split('cruxeval-output-step-return', 2);
    expect(
      prompt.endsWith(
        '<|call_sep|><|src_sep|>def f(single_digit):<|arg_sep|>{"single_digit": "5"}<|action_sep|><|step_return|><|frame_sep|>',
      ),
    ).toBe(true);
    expect(prompt.startsWith('<|begin_of_text|><|trace_context_start|>def f(single_digit):\n')).toBe(true);
    expect(target).toBe('<|return_sep|><|src_sep|>    return result<|arg_sep|>"[1, 2, 3, 4, 6, 7, 8, 9, 10]"');
  });

  it('output prediction by breakpoint', () => {
    const { prompt, target } = split('cruxeval-output-breakpoint', 2);
    expect(prompt.endsWith('<|action_sep|><|breakpoint|>    return result<|frame_sep|>')).toBe(true);
    expect(target).toBe(
      '<|line_sep|><|arg_sep|>{"single_digit": "5", "result": "[1, 2, 3, 4, 6, 7, 8, 9, 10]", "c": "10"}<|src_sep|>    return result',
    );
  });

  it('input prediction by inv_step_call', () => {
    const { prompt, target } = split('cruxeval-input-inv-step-call', 0);
    expect(prompt).toBe(
      '<|begin_of_text|><|trace_context_start|>' +
        vec('cruxeval-input-inv-step-call').source +
        '<|frame_sep|><|inv_return_sep|><|src_sep|>    return result<|arg_sep|>"[1, 2, 3, 4, 6, 7, 8, 9, 10]"<|action_sep|><|inv_step_call|><|frame_sep|>',
    );
    expect(target).toBe('<|inv_call_sep|><|src_sep|>def f(single_digit):<|arg_sep|>{"single_digit": "5"}');
  });

  it('prompt + target is a prefix of the full text for every step', () => {
    for (const v of vectors) {
      const { index, t, ctx } = run(v);
      const parts = textParts(index, t, ctx);
      for (let k = 0; k < t.actions.length; k++) {
        const { prompt, target } = promptTarget(parts, k);
        expect(v.text.startsWith(prompt + target)).toBe(true);
        const rest = v.text.slice((prompt + target).length);
        expect(rest.startsWith('<|action_sep|>') || rest.startsWith('<|trace_end|>')).toBe(true);
      }
      expect(() => promptTarget(parts, t.actions.length)).toThrow(RangeError);
    }
  });
});
