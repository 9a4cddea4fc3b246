/**
 * Folding a run's verdict combinations into items (queries/verdicts.ts foldVerdicts): a format
 * error counts against the fields that apply to the item only.
 */
import { describe, expect, it } from 'vitest';
import { foldVerdicts, type ItemKeys, type VerdictCombo } from '../../src/store/corpus.js';

const keys = (itemId: number): ItemKeys => ({
  itemId,
  action: 'step_into',
  direction: 'forward',
  horizon: null,
  traceEvents: 10,
  depth: 1,
});

const combo = (extra: Partial<VerdictCombo>): VerdictCombo => ({
  itemId: 1,
  formatError: false,
  em: { event: true, src: true, locals: true, arg: null, all: true },
  exec: null,
  alt: null,
  correct: true,
  pending: false,
  n: 1,
  firstSample: 0,
  ...extra,
});

describe('folding verdicts', () => {
  it("counts a format error against the fields that apply to the item only (what 'scores --by field' shows)", () => {
    // An item whose target has no arg: three samples, two of them unreadable.
    const [it1] = foldVerdicts(
      [
        combo({ n: 1, firstSample: 0 }),
        combo({
          formatError: true,
          em: { event: false, src: false, locals: false, arg: null, all: false },
          correct: false,
          n: 2,
          firstSample: 1,
        }),
      ],
      keys,
    );
    expect(it1.formatErrors).toBe(2);
    expect(Object.fromEntries(Object.entries(it1.em).map(([f, t]) => [f, [t.n, t.ok, t.formatErrors]]))).toEqual({
      event: [3, 1, 2],
      src: [3, 1, 2],
      locals: [3, 1, 2],
      arg: [0, 0, 0],
      all: [3, 1, 2],
    });
    expect(it1.first).toBe(true);
  });
});
