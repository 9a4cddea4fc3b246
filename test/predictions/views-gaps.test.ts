// What the CLI and the API show of sets, runs and predictions, the score lines' groups and
// interval, comparing two runs, and which checks a new prediction is due: the cases the other
// tests leave out. Plain values and a stub corpus: no database, no Python.
import { describe, expect, it } from 'vitest';
import { compareItems } from '../../src/predictions/compare.js';
import { itemVerdictsOf } from '../../src/predictions/item-verdicts.js';
import { groupOf, pass1Interval, scoreLines } from '../../src/predictions/scores.js';
import { execMode, newPrediction } from '../../src/predictions/verdicts.js';
import { predictionDetail, requireRun, requireSet, runsOf, verdictInfo } from '../../src/predictions/views.js';
import { mulberry32, seedFrom, type EvalTask, type ScoreBy } from '../../src/semantics/index.js';
import type { EvalSetRecord, PredictionRecord, ReadCorpus, RunRecord, StoredItem, VerdictRow } from '../../src/store/corpus.js';

/** A corpus with these sets, and these runs in set 1. */
const stub = (sets: string[], runs: string[]) =>
  ({
    path: '/data/c.db',
    getEvalSet: (name: string) => (sets.includes(name) ? ({ id: 1, name } as EvalSetRecord) : undefined),
    listEvalSets: () => sets.map((name, i) => ({ id: i + 1, name })),
    getRun: (_set: number, label: string) => (runs.includes(label) ? ({ label } as RunRecord) : undefined),
    listRuns: (set: number) => (set === 1 ? runs.map((label) => ({ label }) as RunRecord) : []),
  }) as unknown as ReadCorpus;

/** [message, code] of what `f` throws. */
function refusal(f: () => unknown): [string, string] {
  try {
    f();
  } catch (e) {
    return [(e as Error).message, (e as { code: string }).code];
  }
  throw new Error('no error');
}

describe('not-found messages and the runs to show', () => {
  const set = { id: 1, name: 'ns' } as EvalSetRecord;

  it('a set: names the sets there are, or says there are none and how to make one', () => {
    expect(refusal(() => requireSet(stub([], []), 'ns'))).toEqual(['/data/c.db has no evaluation set named "ns"; it has none (make one with stepscope evalset create)', 'not-found']);
    expect(refusal(() => requireSet(stub(['a', 'b'], []), 'ns'))).toEqual(['/data/c.db has no evaluation set named "ns"; its sets: a, b', 'not-found']);
  });

  it('a run: names the labels there are, or says there are none and how to make one', () => {
    expect(refusal(() => requireRun(stub(['ns'], []), set, 'm'))).toEqual(['the set "ns" has no run labelled "m"; it has none (stepscope predictions import, or stepscope predict)', 'not-found']);
    expect(refusal(() => requireRun(stub(['ns'], ['a', 'b']), set, 'm'))).toEqual(['the set "ns" has no run labelled "m"; its runs: a, b', 'not-found']);
  });

  it('runsOf: every run without a label, the labelled one with it, an error for an unknown label', () => {
    const corpus = stub(['ns'], ['a', 'b']);
    expect(runsOf(corpus, set).map((r) => r.label)).toEqual(['a', 'b']);
    expect(runsOf(corpus, set, 'b').map((r) => r.label)).toEqual(['b']);
    expect(refusal(() => runsOf(corpus, set, 'c'))).toEqual(['the set "ns" has no run labelled "c"; its runs: a, b', 'not-found']);
  });
});

describe('a prediction as shown', () => {
  const base = {
    id: 7, runId: 1, model: 'm', itemId: 3, itemKey: 'k', traceId: 1, sample: 0, finish: 'stop', formatError: false, parseError: null,
    em: { event: true, src: true, locals: null, arg: true, all: true }, correct: true, created: '',
  };
  const state = '<|return_sep|><|src_sep|>    return n<|arg_sep|>"2"';
  const checked = { ...base, completion: state, exec: { status: 'pass', detail: 'ok', rule: false }, alt: { status: 'fail', detail: 'got 3', got: '3' } } as PredictionRecord;
  const unchecked = { ...base, completion: state, exec: null, alt: null } as PredictionRecord;

  it('verdictInfo: the checks\' statuses, null without a check', () => {
    expect(verdictInfo(checked)).toMatchObject({ exec: 'pass', alt: 'fail' });
    expect(verdictInfo(unchecked)).toMatchObject({ exec: null, alt: null });
  });

  it('predictionDetail: the parsed state of a state run, none of a CRUXEval run; the checks\' details', () => {
    expect(predictionDetail(checked, 'state')).toMatchObject({
      parsed: { event: 'return', src: '    return n', arg: '2' }, execDetail: 'ok', altDetail: 'got 3', altGot: '3',
    });
    expect(predictionDetail(unchecked, 'state')).toMatchObject({ execDetail: null, altDetail: null, altGot: null });
    // A CRUXEval run's completions are the benchmark's texts, never read as states.
    expect(predictionDetail(checked, 'cruxeval').parsed).toBeNull();
    expect(predictionDetail({ ...unchecked, completion: '[1, 2]' }, 'cruxeval')).toMatchObject({ parsed: null, completion: '[1, 2]' });
  });
});

function row(itemId: number, correct: boolean | null, extra: Partial<VerdictRow> = {}): VerdictRow {
  return {
    itemId, action: 'step_into', direction: 'forward', horizon: null, traceEvents: 10, depth: 0, formatError: false,
    em: { event: correct, src: correct, locals: null, arg: null, all: correct }, exec: null, alt: null, correct, pending: correct === null, ...extra,
  };
}
const set = { name: 'ns', task: 'next-state', options: { per_action: 5 } } as unknown as EvalSetRecord;
const run = { label: 'm' } as unknown as RunRecord;
const score = (rows: VerdictRow[], by?: ScoreBy) => scoreLines(set, run, itemVerdictsOf(rows), by);

describe('scores', () => {
  it('an item whose only sample is pending does not count in pass@k or the interval', () => {
    const rows = [row(1, true), row(2, null)];
    expect(score(rows)[0]).toMatchObject({ items: 2, 'pass@1': 100 });
    expect(pass1Interval(itemVerdictsOf(rows), ['x'])).toEqual([100, 100]);
    expect(pass1Interval(itemVerdictsOf([row(2, null)]), ['x'])).toBeNull();
  });

  it('--by field: no line for a field no target has', () => {
    expect(score([row(1, true), row(2, false)], 'field').map((l) => l.group)).toEqual([null, 'event', 'src', 'all']);
  });

  it('--by action: groups in the order their items come; --by depth: numbers in order, exits last', () => {
    const rows = [row(1, true, { action: 'step_over' }), row(2, true, { action: 'continue' }), row(3, true, { action: 'breakpoint' }), row(4, false, { action: 'continue' })];
    expect(score(rows, 'action').map((l) => l.group)).toEqual([null, 'step_over', 'continue', 'breakpoint']);
    const depths = [row(1, true, { depth: 3 }), row(2, true, { depth: null }), row(3, true, { depth: 1 }), row(4, true, { depth: 2 })];
    expect(score(depths, 'depth').map((l) => l.group)).toEqual([null, 1, 2, 3, 'exit']);
  });

  it('--by horizon: an item without a horizon is its own group; grids of 1 and 2 points', () => {
    const grid = (points: number) => groupOf('horizon', { options: { per_action: points } } as unknown as EvalSetRecord);
    const keys = { action: 'step_into', direction: 'forward', traceEvents: 1, depth: 0 } as const;
    expect(grid(5)({ ...keys, horizon: null })).toBeNull();
    expect(grid(1)({ ...keys, horizon: 1 })).toBe(1);
    expect(grid(2)({ ...keys, horizon: 0.6 })).toBe(1);
    expect(grid(2)({ ...keys, horizon: 0.4 })).toBe(0);
  });

  it('the interval: the 2.5th and 97.5th percentiles of 2,000 means of items drawn with replacement, seeded by set, run and group', () => {
    // Items with many different pass rates, so that neighbouring percentiles differ.
    const rows = Array.from({ length: 30 }, (_, i) => Array.from({ length: i + 2 }, (_, j) => row(i + 1, j < (i * 7) % (i + 2)))).flat();
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

describe('comparing two runs', () => {
  it('an item pending in the first run is not paired', () => {
    const c = compareItems(itemVerdictsOf([row(1, null), row(2, true)]), itemVerdictsOf([row(1, true), row(2, false)]));
    expect(c.groups[0]).toMatchObject({ items: 1, onlyA: 1 });
    expect(c.unpaired).toBe(1);
  });

  it('differing items in item order, action groups in name order, whatever order the verdicts come in', () => {
    const a = [row(3, true, { action: 'step_over' }), row(1, true, { action: 'step_over' }), row(2, false, { action: 'breakpoint' })];
    const b = [row(2, true, { action: 'breakpoint' }), row(1, false, { action: 'step_over' }), row(3, false, { action: 'step_over' })];
    const c = compareItems(itemVerdictsOf(a), itemVerdictsOf(b));
    expect(c.differing.map((p) => p.itemId)).toEqual([1, 2, 3]);
    expect(c.groups.map((g) => [g.action, g.items])).toEqual([[null, 3], ['breakpoint', 1], ['step_over', 2]]);
  });
});

describe('the checks a new prediction is due', () => {
  it('execMode: CRUXEval\'s check on CRUXEval sets; on the breakpoint task only for the benchmark\'s texts', () => {
    const tasks: EvalTask[] = ['next-state', 'horizon', 'cruxeval-output', 'cruxeval-output-breakpoint', 'cruxeval-input'];
    const table = tasks.map((t) => [t, execMode(t, 'state'), execMode(t, 'cruxeval')]);
    expect(table).toEqual([
      ['next-state', null, null],
      ['horizon', null, null],
      ['cruxeval-output', 'output', 'output'],
      ['cruxeval-output-breakpoint', null, 'output'],
      ['cruxeval-input', 'input', 'input'],
    ]);
  });

  it('newPrediction: the valid-alternative check only where the item has a call\'s return to compare', () => {
    const item = { id: 4, truth: { event: 'inv_call', src: 'def f(x):', locals: { x: 1 } }, callReturn: null } as unknown as StoredItem;
    const completion = '<|inv_call_sep|><|src_sep|>def f(x):<|arg_sep|>{"x": "1"}';
    expect(newPrediction(item, 'next-state', 'state', 0, completion)).toMatchObject({ itemId: 4, exec: null, alt: null });
    expect(newPrediction({ ...item, callReturn: '2' }, 'next-state', 'state', 0, completion)).toMatchObject({ exec: null, alt: 'pending' });
    expect(newPrediction(item, 'cruxeval-output-breakpoint', 'cruxeval', 1, '5')).toMatchObject({ sample: 1, exec: 'pending', alt: null, em: null });
  });
});
