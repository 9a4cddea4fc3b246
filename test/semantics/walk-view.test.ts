/**
 * walkView, what the explorer and `replay` show for a walk: on the test vectors of
 * docs/semantics.md §9, each state's event seq (an inverse node shows the seq of its event,
 * both copies of a call line the same), the text, and the locals as the model sees them.
 */
import { describe, expect, it } from 'vitest';
import { buildTraceIndex, parseTrajectory, walkView } from '../../src/semantics/index.js';
import { readVectors, record, type Trace } from './helpers.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';

const vectors = readVectors();
// One forward vector and two inverse ones (the second shows an inv_line_call copy: seq 24 twice).
const chosen = ['count-forward-breakpoint', 'count-inverse-step-into', 'exception-caught-inverse-step-over'].map((n) =>
  vectors.find((v) => v.name === n)!,
);
const traces = new Map<string, Trace>();

beforeAllOrFail(() => {
  for (const v of chosen) traces.set(v.name, record(v.source, v.call));
});

describe('walkView on the test vectors', () => {
  for (const v of chosen) {
    it(`${v.name}: seq, events, exit, text and shown locals`, () => {
      const tr = traces.get(v.name)!;
      const index = buildTraceIndex(tr.events);
      const entry = tr.events.find((e) => e.event === 'call' && e.func === v.entry_function)!.seq;
      const w = walkView(index, tr.header, v.direction, entry, v.actions);
      expect(w.direction).toBe(v.direction);
      expect(w.entry).toBe(entry);
      expect(w.text).toBe(v.text);
      expect(w.exit === null ? null : `<|${w.exit}|>`).toBe(v.exit);
      expect(w.states.map((s) => s.seq)).toEqual(v.states_seq);
      // What the text shows, read back independently: event names and locals per state.
      const p = parseTrajectory(v.text);
      if (!p.ok) throw new Error(p.error.message);
      expect(w.states.map((s) => s.event)).toEqual(p.value.states.map((s) => s.kind));
      expect(w.shown).toEqual(p.value.states.map((s) => s.locals ?? null));
      expect(w.shown.some((l) => l === null)).toBe(true);
      expect(w.shown.some((l) => l !== null && Object.keys(l).length > 0)).toBe(true);
    });
  }
});
