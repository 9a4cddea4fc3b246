/**
 * serializeChunks, the streaming form of serialize: on every byte-exact vector of
 * neural-debugger.md §9 its pieces, joined, are serialize's text (and so the vector's), at
 * the default piece size and at sizes that cut the text after every state.
 */
import { describe, expect, it } from 'vitest';
import { Scope, buildTraceIndex, contextFor, serialize, serializeChunks, walk } from '../../src/semantics/index.js';
import { readVectors, vectorTrace } from './helpers.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';

const vectors = readVectors();
// Recorded up front, so a recorder failure fails here with its reason.
beforeAllOrFail(() => {
  for (const v of vectors) vectorTrace(v);
});

describe('serializeChunks', () => {
  for (const v of vectors) {
    it(`${v.name}: the pieces joined are serialize's text, at any piece size`, () => {
      const tr = vectorTrace(v);
      const index = buildTraceIndex(tr.events);
      const entry = tr.events.find((e) => e.event === 'call' && e.func === v.entry_function)!.seq;
      const t = walk(new Scope(index, entry), v.direction, v.actions);
      const ctx = contextFor(v.direction, tr.header);
      expect(serialize(index, t, ctx)).toBe(v.text);
      const whole = [...serializeChunks(index, t, ctx)];
      expect(whole.join('')).toBe(v.text);
      expect(whole).toHaveLength(1); // a vector is far shorter than one piece
      const small = [...serializeChunks(index, t, ctx, 1)];
      expect(small.join('')).toBe(v.text);
      // One piece per state (the first with the head), then the exit and the end tokens.
      expect(small).toHaveLength(t.states.length + 1);
      expect(small[small.length - 1]).toBe(`${v.exit ? '<|frame_sep|>' + v.exit : ''}<|trace_end|><|end_of_text|>`);
      expect(small.every((c) => c.length > 0)).toBe(true);
    });
  }
});
