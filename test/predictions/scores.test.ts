// Scores from verdicts: pass@k against the estimator's formula (exact binomials), shares per
// field, groups, and the seeded bootstrap interval.
import { describe, expect, it } from 'vitest';
import { pass1Interval, scoreLines } from '../../src/predictions/scores.js';
import { itemVerdictsOf } from '../../src/predictions/item-verdicts.js';
import type { ScoreBy } from '../../src/semantics/index.js';
import type { EvalSetRecord, RunRecord, VerdictRow } from '../../src/store/corpus.js';

const set = { name: 'ns', task: 'next-state', options: { per_action: 5 } } as unknown as EvalSetRecord;
const run = { label: 'm' } as unknown as RunRecord;
/** Scores of verdict rows, summed per item as `stepscope scores` sums them. */
const score = (rows: VerdictRow[], by?: ScoreBy) => scoreLines(set, run, itemVerdictsOf(rows), by);

/** C(n, k) as an exact integer. */
function choose(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let r = 1n;
  for (let i = 0; i < k; i++) r = (r * BigInt(n - i)) / BigInt(i + 1);
  return r;
}

/** Chen et al.'s pass@k of one item, 1 - C(n-c, k) / C(n, k), in percent. */
function formula(n: number, c: number, k: number): number {
  const miss = choose(n - c, k);
  const all = choose(n, k);
  return (1 - Number((miss * 10n ** 15n) / all) / 1e15) * 100;
}

function row(itemId: number, ok: boolean, extra: Partial<VerdictRow> = {}): VerdictRow {
  return {
    itemId, action: 'step_into', direction: 'forward', horizon: null, traceEvents: 10, depth: 0, formatError: false,
    em: { event: true, src: true, locals: ok, arg: null, all: ok }, exec: null, alt: null, correct: ok, pending: false, ...extra,
  };
}

/** An item with n samples of which the first c are correct. */
const item = (id: number, n: number, c: number, extra: Partial<VerdictRow> = {}) => Array.from({ length: n }, (_, j) => row(id, j < c, extra));

describe('pass@k', () => {
  it('is the unbiased estimator averaged over items', () => {
    const shapes: [number, number][] = [[10, 0], [10, 1], [10, 3], [10, 7], [10, 10], [12, 5], [20, 2], [15, 14]];
    const rows = shapes.flatMap(([n, c], i) => item(i + 1, n, c));
    const [all] = score(rows);
    for (const k of [1, 5, 10]) {
      const expected = shapes.reduce((s, [n, c]) => s + formula(n, c, k), 0) / shapes.length;
      expect(all[`pass@${k}` as 'pass@1'], `pass@${k}`).toBeCloseTo(expected, 9);
    }
    expect(all['pass@1']).toBeCloseTo((shapes.reduce((s, [n, c]) => s + c / n, 0) / shapes.length) * 100, 9);
  });

  it('is null where an item has fewer samples than k', () => {
    const [all] = score([...item(1, 10, 4), ...item(2, 4, 1)]);
    expect(all['pass@1']).toBeCloseTo(((0.4 + 0.25) / 2) * 100, 9);
    expect(all['pass@5']).toBeNull();
    expect(all['pass@10']).toBeNull();
  });

  it('counts by execution where a sample has an execution verdict (the stored `correct`)', () => {
    // Exact match wrong everywhere, but the execution check passed for one of two samples.
    const rows = [row(1, false, { correct: true, exec: true }), row(1, false, { correct: false, exec: false })];
    const [all] = score(rows);
    expect(all.em_all).toBe(0);
    expect(all.exec_pass).toBe(50);
    expect(all['pass@1']).toBe(50);
  });

  it('leaves out samples whose check is pending', () => {
    const rows = [row(1, true), row(1, false, { correct: null, exec: null, pending: true })];
    expect(score(rows)[0]['pass@1']).toBe(100);
  });
});

describe('shares and groups', () => {
  const rows = [
    row(1, true),
    row(2, false, { formatError: true, em: { event: false, src: false, locals: false, arg: null, all: false } }),
    row(3, true, { action: 'step_return', em: { event: true, src: true, locals: null, arg: true, all: true } }),
    row(4, false, { action: 'step_return', em: { event: true, src: true, locals: null, arg: false, all: false } }),
    row(5, false, { action: 'inv_step_call', direction: 'inverse', em: { event: true, src: true, locals: false, arg: null, all: false }, alt: true }),
  ];

  it('whole set: shares over the samples whose target has the field; format errors counted', () => {
    const [all] = score(rows);
    expect(all).toMatchObject({ set: 'ns', model: 'm', by: null, group: null, items: 5, samples: 5, format_errors: 1 });
    expect(all.em_event).toBe(80);
    expect(all.em_locals).toBeCloseTo((1 / 3) * 100, 9);
    expect(all.em_arg).toBe(50);
    expect(all.em_all).toBe(40);
    expect(all.exec_pass).toBe(100); // the valid-alternative check of the one inverse call
    expect(Object.keys(all)).toEqual(['set', 'model', 'by', 'group', 'items', 'samples', 'format_errors', 'em_event', 'em_src', 'em_locals', 'em_arg', 'em_all', 'exec_pass', 'pass@1', 'pass@5', 'pass@10']);
  });

  it('--by action and --by direction: the whole set first, then a line per group', () => {
    const by = score(rows, 'action');
    expect(by.map((l) => [l.group, l.items, l.em_all])).toEqual([[null, 5, 40], ['step_into', 2, 50], ['step_return', 2, 50], ['inv_step_call', 1, 0]]);
    expect(by.every((l) => l.by === 'action')).toBe(true);
    expect(score(rows, 'direction').map((l) => [l.group, l.samples])).toEqual([[null, 5], ['forward', 4], ['inverse', 1]]);
  });

  it('--by field: a line per field, pass@k on that field', () => {
    const by = score(rows, 'field');
    expect(by.map((l) => l.group)).toEqual([null, 'event', 'src', 'locals', 'arg', 'all']);
    const locals = by.find((l) => l.group === 'locals')!;
    expect(locals).toMatchObject({ samples: 3, em_locals: (1 / 3) * 100, em_event: null, em_all: null, exec_pass: null });
    expect(locals['pass@1']).toBeCloseTo((1 / 3) * 100, 9);
  });

  it('--by horizon: fractions go to the nearest point of the set\'s grid, in order', () => {
    const h = [1, 10 / 13, 0.5, 3 / 13, 0].map((x, i) => row(i + 1, i % 2 === 0, { horizon: x }));
    expect(score(h, 'horizon').map((l) => l.group)).toEqual([null, 0, 0.25, 0.5, 0.75, 1]);
  });
});

describe('the 95% bootstrap interval of pass@1', () => {
  const rows = Array.from({ length: 60 }, (_, i) => item(i + 1, 4, i % 5)).flat();

  it('is the same for the same run, and holds the estimate', () => {
    const a = pass1Interval(itemVerdictsOf(rows), ['ns', 'm', 'null']);
    expect(pass1Interval(itemVerdictsOf(rows), ['ns', 'm', 'null'])).toEqual(a);
    const p1 = score(rows)[0]['pass@1']!;
    expect(a![0]).toBeLessThan(p1);
    expect(a![1]).toBeGreaterThan(p1);
    expect(a![0]).toBeGreaterThanOrEqual(0);
    expect(a![1]).toBeLessThanOrEqual(100);
  });

  it('is a point when every item scores the same', () => {
    expect(pass1Interval(itemVerdictsOf(Array.from({ length: 10 }, (_, i) => row(i + 1, true))), ['x'])).toEqual([100, 100]);
  });
});
