// The overlay's marks (renderer/src/lib/overlay/verdict.ts, views/tree/marks.ts): the verdict
// docs/explorer.md promises for each combination of a prediction's verdict columns, the first
// sample standing for an item, the worst of several items on a node, "failures only".
import { describe, expect, it } from 'vitest';
import type { ItemRow, VerdictInfo } from '../../src/contract/index.js';
import { itemMark, sampleVerdict, worst } from '../../renderer/src/lib/overlay/verdict.js';
import { verdictMarker } from '../../renderer/src/views/tree/marks.js';

const em = (all: boolean | null, locals: boolean | null = all) => ({ event: all, src: all, locals, arg: null, all });
const v = (o: Partial<VerdictInfo>): VerdictInfo => ({
  prediction: 1,
  run: 'r',
  sample: 0,
  formatError: false,
  em: em(true),
  exec: null,
  alt: null,
  correct: true,
  ...o,
});
const item = (id: number, verdicts: VerdictInfo[]): ItemRow => ({
  id,
  key: `k${id}`,
  traceId: 1,
  name: 't',
  direction: 'inverse',
  entry: 0,
  actions: ['inv_step_call'],
  action: 'inv_step_call',
  horizon: null,
  targetNode: 2,
  targetSeq: 1,
  targetKind: 'inv_call',
  verdicts,
});

describe('verdict of a prediction', () => {
  it('follows the table of docs/explorer.md', () => {
    expect(sampleVerdict(v({}))).toBe('pass');
    expect(sampleVerdict(v({ correct: false, em: em(false), formatError: false }))).toBe('fail');
    expect(sampleVerdict(v({ correct: false, em: em(false), formatError: true }))).toBe('format');
    // Wrong by exact match, but the predicted arguments give the true call's value.
    expect(sampleVerdict(v({ correct: false, em: em(false), alt: 'pass' }))).toBe('alternative');
    // A check not run yet: no mark.
    expect(
      sampleVerdict(
        v({
          correct: null,
          em: { event: null, src: null, locals: null, arg: null, all: null },
          formatError: null,
          exec: 'pending',
        }),
      ),
    ).toBeNull();
  });
});

describe('mark of an item', () => {
  it('the first sample of the chosen run, the wrong fields named, samples counted', () => {
    const it = item(1, [
      v({ sample: 1, correct: true }),
      v({ sample: 0, correct: false, em: em(false, false), exec: 'fail' }),
      v({ sample: 0, run: 'other', correct: true }),
    ]);
    const m = itemMark(it, 'r')!;
    expect(m.verdict).toBe('fail');
    expect(m.wrong).toEqual(['event', 'src', 'locals', 'exec fail']);
    expect([m.correct, m.samples]).toEqual([1, 2]);
    expect(itemMark(it, 'other')!.verdict).toBe('pass');
    expect(itemMark(it, 'none')).toBeNull();
  });

  it('several items on one node show the worst; failures only hides passes', () => {
    const pass = itemMark(item(1, [v({})]), 'r')!;
    const fail = itemMark(item(2, [v({ correct: false, em: em(false) })]), 'r')!;
    expect(worst(pass, fail).item.id).toBe(2);
    expect(worst(fail, pass).item.id).toBe(2);
    const marks = new Map([
      [5, pass],
      [6, fail],
    ]);
    const all = verdictMarker(marks, new Map([[5, fail]]), false);
    expect(all(5)).toEqual({
      classes: ['verdict', 'v-pass'],
      data: { verdict: 'pass', item: '1', samples: '1/1', verdict2: 'fail' },
    });
    expect(all(7)).toBeNull();
    const failing = verdictMarker(marks, new Map(), true);
    expect(failing(5)).toBeNull();
    expect(failing(6)?.data?.verdict).toBe('fail');
  });
});
