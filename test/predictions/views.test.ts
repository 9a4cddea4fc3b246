// What the CLI and the API show of sets, runs and predictions (src/predictions/views.ts): the
// not-found messages with what there is instead, the runs to show, and a prediction with its
// checks. Plain values and a stub corpus: no database, no Python.
import { describe, expect, it } from 'vitest';
import { predictionDetail, requireRun, requireSet, runsOf, verdictInfo } from '../../src/predictions/views.js';
import type { EvalSetRecord, PredictionRecord, ReadCorpus, RunRecord } from '../../src/store/corpus.js';

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
    expect(refusal(() => requireSet(stub([], []), 'ns'))).toEqual([
      '/data/c.db has no evaluation set named "ns"; it has none (make one with stepscope evalset create)',
      'not-found',
    ]);
    expect(refusal(() => requireSet(stub(['a', 'b'], []), 'ns'))).toEqual([
      '/data/c.db has no evaluation set named "ns"; its sets: a, b',
      'not-found',
    ]);
  });

  it('a run: names the labels there are, or says there are none and how to make one', () => {
    expect(refusal(() => requireRun(stub(['ns'], []), set, 'm'))).toEqual([
      'the set "ns" has no run labelled "m"; it has none (stepscope predictions import, or stepscope predict)',
      'not-found',
    ]);
    expect(refusal(() => requireRun(stub(['ns'], ['a', 'b']), set, 'm'))).toEqual([
      'the set "ns" has no run labelled "m"; its runs: a, b',
      'not-found',
    ]);
  });

  it('runsOf: every run without a label, the labelled one with it, an error for an unknown label', () => {
    const corpus = stub(['ns'], ['a', 'b']);
    expect(runsOf(corpus, set).map((r) => r.label)).toEqual(['a', 'b']);
    expect(runsOf(corpus, set, 'b').map((r) => r.label)).toEqual(['b']);
    expect(refusal(() => runsOf(corpus, set, 'c'))).toEqual([
      'the set "ns" has no run labelled "c"; its runs: a, b',
      'not-found',
    ]);
  });
});

describe('a prediction as shown', () => {
  const base = {
    id: 7,
    runId: 1,
    model: 'm',
    itemId: 3,
    itemKey: 'k',
    traceId: 1,
    sample: 0,
    finish: 'stop',
    formatError: false,
    parseError: null,
    em: { event: true, src: true, locals: null, arg: true, all: true },
    correct: true,
    created: '',
  };
  const state = '<|return_sep|><|src_sep|>    return n<|arg_sep|>"2"';
  const checked = {
    ...base,
    completion: state,
    exec: { status: 'pass', detail: 'ok', rule: false },
    alt: { status: 'fail', detail: 'got 3', got: '3' },
  } as PredictionRecord;
  const unchecked = { ...base, completion: state, exec: null, alt: null } as PredictionRecord;

  it("verdictInfo: the checks' statuses, null without a check", () => {
    expect(verdictInfo(checked)).toMatchObject({ exec: 'pass', alt: 'fail' });
    expect(verdictInfo(unchecked)).toMatchObject({ exec: null, alt: null });
  });

  it("predictionDetail: the parsed state of a state run, none of a CRUXEval run; the checks' details", () => {
    expect(predictionDetail(checked, 'state')).toMatchObject({
      parsed: { event: 'return', src: '    return n', arg: '2' },
      execDetail: 'ok',
      altDetail: 'got 3',
      altGot: '3',
    });
    expect(predictionDetail(unchecked, 'state')).toMatchObject({ execDetail: null, altDetail: null, altGot: null });
    // A CRUXEval run's completions are the benchmark's texts, never read as states.
    expect(predictionDetail(checked, 'cruxeval').parsed).toBeNull();
    expect(predictionDetail({ ...unchecked, completion: '[1, 2]' }, 'cruxeval')).toMatchObject({
      parsed: null,
      completion: '[1, 2]',
    });
  });
});
