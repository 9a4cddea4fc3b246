// Scores from verdicts: pass@k against the estimator's formula (exact binomials), shares per
// field, groups, and the seeded bootstrap interval; items whose only sample is pending, fields
// no target has, the order of groups, and the interval's percentiles drawn again by hand.
import { describe, expect, it } from 'vitest';
import { groupOf, pass1Interval, scoreLines } from '../../src/predictions/scores.js';
import { itemVerdictsOf } from '../../src/predictions/item-verdicts.js';
import { mulberry32, seedFrom, type ScoreBy } from '../../src/semantics/index.js';
import type { EvalSetRecord, RunRecord, VerdictRow } from '../../src/store/corpus.js';
import { verdictRow } from '../helpers/verdict-rows.js';

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

/** A sample right on event and src, and on locals as `ok` says. */
const row = (itemId: number, ok: boolean, extra: Partial<VerdictRow> = {}): VerdictRow =>
  verdictRow(itemId, ok, { em: { event: true, src: true, locals: ok, arg: null, all: ok }, ...extra });

/** An item with n samples of which the first c are correct. */
const item = (id: number, n: number, c: number, extra: Partial<VerdictRow> = {}) =>
  Array.from({ length: n }, (_, j) => row(id, j < c, extra));

describe('pass@k', () => {
  it('is the unbiased estimator averaged over items', () => {
    const shapes: [number, number][] = [
      [10, 0],
      [10, 1],
      [10, 3],
      [10, 7],
      [10, 10],
      [12, 5],
      [20, 2],
      [15, 14],
    ];
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
    row(5, false, {
      action: 'inv_step_call',
      direction: 'inverse',
      em: { event: true, src: true, locals: false, arg: null, all: false },
      alt: true,
    }),
  ];

  it('whole set: shares over the samples whose target has the field; format errors counted', () => {
    const [all] = score(rows);
    expect(all).toMatchObject({ set: 'ns', model: 'm', by: null, group: null, items: 5, samples: 5, format_errors: 1 });
    expect(all.em_event).toBe(80);
    expect(all.em_locals).toBeCloseTo((1 / 3) * 100, 9);
    expect(all.em_arg).toBe(50);
    expect(all.em_all).toBe(40);
    expect(all.exec_pass).toBe(100); // the valid-alternative check of the one inverse call
    expect(Object.keys(all)).toEqual([
      'set',
      'model',
      'by',
      'group',
      'items',
      'samples',
      'format_errors',
      'em_event',
      'em_src',
      'em_locals',
      'em_arg',
      'em_all',
      'exec_pass',
      'pass@1',
      'pass@5',
      'pass@10',
    ]);
  });

  it('--by action and --by direction: the whole set first, then a line per group', () => {
    const by = score(rows, 'action');
    expect(by.map((l) => [l.group, l.items, l.em_all])).toEqual([
      [null, 5, 40],
      ['step_into', 2, 50],
      ['step_return', 2, 50],
      ['inv_step_call', 1, 0],
    ]);
    expect(by.every((l) => l.by === 'action')).toBe(true);
    expect(score(rows, 'direction').map((l) => [l.group, l.samples])).toEqual([
      [null, 5],
      ['forward', 4],
      ['inverse', 1],
    ]);
  });

  it('--by field: a line per field, pass@k on that field', () => {
    const by = score(rows, 'field');
    expect(by.map((l) => l.group)).toEqual([null, 'event', 'src', 'locals', 'arg', 'all']);
    const locals = by.find((l) => l.group === 'locals')!;
    expect(locals).toMatchObject({
      samples: 3,
      em_locals: (1 / 3) * 100,
      em_event: null,
      em_all: null,
      exec_pass: null,
    });
    expect(locals['pass@1']).toBeCloseTo((1 / 3) * 100, 9);
  });

  it("--by horizon: fractions go to the nearest point of the set's grid, in order", () => {
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
    expect(pass1Interval(itemVerdictsOf(Array.from({ length: 10 }, (_, i) => row(i + 1, true))), ['x'])).toEqual([
      100, 100,
    ]);
  });
});

describe('pending items, groups and their order, the interval drawn', () => {
  it('an item whose only sample is pending does not count in pass@k or the interval', () => {
    const rows = [verdictRow(1, true), verdictRow(2, null)];
    expect(score(rows)[0]).toMatchObject({ items: 2, 'pass@1': 100 });
    expect(pass1Interval(itemVerdictsOf(rows), ['x'])).toEqual([100, 100]);
    expect(pass1Interval(itemVerdictsOf([verdictRow(2, null)]), ['x'])).toBeNull();
  });

  it('--by field: no line for a field no target has', () => {
    expect(score([verdictRow(1, true), verdictRow(2, false)], 'field').map((l) => l.group)).toEqual([
      null,
      'event',
      'src',
      'all',
    ]);
  });

  it('--by action: groups in the order their items come; --by depth: numbers in order, exits last', () => {
    const rows = [
      verdictRow(1, true, { action: 'step_over' }),
      verdictRow(2, true, { action: 'continue' }),
      verdictRow(3, true, { action: 'breakpoint' }),
      verdictRow(4, false, { action: 'continue' }),
    ];
    expect(score(rows, 'action').map((l) => l.group)).toEqual([null, 'step_over', 'continue', 'breakpoint']);
    const depths = [
      verdictRow(1, true, { depth: 3 }),
      verdictRow(2, true, { depth: null }),
      verdictRow(3, true, { depth: 1 }),
      verdictRow(4, true, { depth: 2 }),
    ];
    expect(score(depths, 'depth').map((l) => l.group)).toEqual([null, 1, 2, 3, 'exit']);
  });

  it('--by horizon: an item without a horizon is its own group; grids of 1 and 2 points', () => {
    const grid = (points: number) =>
      groupOf('horizon', { options: { per_action: points } } as unknown as EvalSetRecord);
    const keys = { action: 'step_into', direction: 'forward', traceEvents: 1, depth: 0 } as const;
    expect(grid(5)({ ...keys, horizon: null })).toBeNull();
    expect(grid(1)({ ...keys, horizon: 1 })).toBe(1);
    expect(grid(2)({ ...keys, horizon: 0.6 })).toBe(1);
    expect(grid(2)({ ...keys, horizon: 0.4 })).toBe(0);
  });

  it('the interval: the 2.5th and 97.5th percentiles of 2,000 means of items drawn with replacement, seeded by set, run and group', () => {
    // Items with many different pass rates, so that neighbouring percentiles differ.
    const rows = Array.from({ length: 30 }, (_, i) =>
      Array.from({ length: i + 2 }, (_, j) => verdictRow(i + 1, j < (i * 7) % (i + 2))),
    ).flat();
    const values = itemVerdictsOf(rows).map((it) => it.correct.ok / it.correct.n);
    const rng = mulberry32(seedFrom('pass@1 bootstrap', 'ns', 'm', 'null'));
    const means = Array.from({ length: 2000 }, () => {
      let total = 0;
      for (let i = 0; i < values.length; i++) total += values[Math.floor(rng() * values.length)];
      return (total / values.length) * 100;
    }).sort((a, b) => a - b);
    expect(means[1949]).not.toBe(means[1951]);
    expect(pass1Interval(itemVerdictsOf(rows), ['ns', 'm', 'null'])).toEqual([means[50], means[1949]]);
  });
});
