// Execution verdicts of stored predictions: CRUXEval's check on a slice of the released
// CodeLlama-7B generations against the released per-generation verdicts, the skip rule,
// predicted states run as a literal or a call, the valid alternative, and resumption.
// Then, on a corpus of their own, the checks at their edges: why a check is not run, stored
// word for word; a trace whose CRUXEval task is incomplete; the valid alternative on a set with
// no execution check (horizon), with what the call returned; checks with the same arguments in
// another order run once; the verdicts stored every 200 while the engine runs; progress; and
// `scores --seed-check` (seedCheck) called in this process rather than through the CLI, so
// per-test coverage sees it: which verdicts change under another hash seed, named and in order.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvalSet } from '../../src/predictions/create.js';
import { runPendingChecks, seedCheck } from '../../src/predictions/execute.js';
import { importPredictions } from '../../src/predictions/import.js';
import { itemVerdictsOf } from '../../src/predictions/item-verdicts.js';
import { scoreLines } from '../../src/predictions/scores.js';
import type { Progress } from '../../src/scoring/index.js';
import { openCorpus, type Corpus, type EvalSetRecord, type StoredItem } from '../../src/store/corpus.js';
import { cli, ensureBuilt } from '../cli/helpers.js';
import { cruxevalDir, cruxevalRecording, readTraces, record, type Trace } from '../semantics/helpers.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, cruxevalTraces, fileWriter, tempDir, traceFile, vectors } from './helpers.js';

const data = resolve(cruxevalDir, 'generations');
const SLICE = Array.from({ length: 20 }, (_, i) => `sample_${i}`);
let corpus: Corpus;
let path: string;
let dir: string;
let file: (text: string) => string; // a new file in dir with the text given
let co: EvalSetRecord;
let ci: EvalSetRecord;

beforeAll(async () => {
  ({ corpus, path, dir } = await corpusOf(cruxevalTraces([...SLICE, 'sample_146', 'sample_664'])));
  file = fileWriter(dir, 'g', 'json');
  co = createEvalSet(corpus, { name: 'co', task: 'cruxeval-output' }).set;
  ci = createEvalSet(corpus, { name: 'ci', task: 'cruxeval-input' }).set;
}, 900_000); // the first run of the day records all of CRUXEval (see cruxevalRecording)
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

const item = (set: EvalSetRecord, key: string): StoredItem =>
  [...corpus.iterateItems(set.id)].find((i) => i.key === key)!;
const preds = (set: EvalSetRecord, runId: number) => [...corpus.iteratePredictions({ setId: set.id, runId })];

describe.each([
  ['output', () => co],
  ['input', () => ci],
] as const)('CodeLlama-7B temperature 0.2, CRUXEval-%s, 20 tasks', (mode, set) => {
  it('every verdict is the released one; pass@1 is the formula over the released verdicts', async () => {
    const released = JSON.parse(readFileSync(`${data}/sample_scored_codellama-7b_temp0.2_${mode}.json`, 'utf8'));
    const slice = (o: Record<string, unknown[]>) => Object.fromEntries(SLICE.map((k) => [k, o[k]]));
    const f = file(
      JSON.stringify({ raw_generations: slice(released.raw_generations), raw_scored_generations: {}, pass_at_1: 0 }),
    );
    const { run } = importPredictions(corpus, { file: f, set: set().name, label: 'cl7' });
    expect(run.pending).toBe(200);
    const r = await runPendingChecks(corpus, run.id, { pool: { workers: 2 } });
    expect(r.checked).toBe(200);
    expect(r.ran).toBeLessThan(200); // identical texts of one task run once
    expect(corpus.getRunById(run.id)!.pending).toBe(0);
    const got: Record<string, boolean[]> = {};
    for (const p of preds(set(), run.id)) (got[p.itemKey] ??= [])[p.sample] = p.exec!.status === 'pass';
    expect(got).toEqual(slice(released.raw_scored_generations));
    const expected =
      (SLICE.reduce((s, k) => s + released.raw_scored_generations[k].filter(Boolean).length / 10, 0) / SLICE.length) *
      100;
    const [line] = scoreLines(set(), corpus.getRunById(run.id)!, itemVerdictsOf(corpus.verdictRows(run.id)));
    expect(line).toMatchObject({ items: 20, samples: 200, format_errors: 0, em_all: null });
    expect(line['pass@1']).toBeCloseTo(expected, 9);
    expect(line.exec_pass).toBeCloseTo(expected, 9);
  }, 600_000);
});

describe('the skip rule', () => {
  it('an output text containing f(<input>), an input text without f(: not run, stored skipped by rule, wrong', async () => {
    const o = importPredictions(corpus, {
      file: file(JSON.stringify({ sample_146: ['f(5)', '[1, 2, 3, 4, 6, 7, 8, 9, 10]'] })),
      set: 'co',
      label: 'skip',
    });
    const i = importPredictions(corpus, {
      file: file(JSON.stringify({ sample_146: ['5', 'f(5)'] })),
      set: 'ci',
      label: 'skip',
    });
    await runPendingChecks(corpus, o.run.id);
    await runPendingChecks(corpus, i.run.id);
    for (const [set, run] of [
      [co, o.run.id],
      [ci, i.run.id],
    ] as const) {
      const [a, b] = preds(set, run);
      expect(a.exec).toMatchObject({ status: 'skipped', rule: true, detail: expect.stringMatching(/^skip rule/) });
      expect(a.correct).toBe(false);
      expect(b.exec).toMatchObject({ status: 'pass', rule: false });
      expect(scoreLines(set, corpus.getRunById(run)!, itemVerdictsOf(corpus.verdictRows(run)))[0]['pass@1']).toBe(50);
    }
  }, 120_000);
});

describe('predicted states on CRUXEval sets', () => {
  it('output: the predicted return value runs as the literal; another spelling of the value passes by execution only', async () => {
    const it146 = item(co, 'sample_146');
    const t = it146.target;
    expect(t).toContain('"[1, 2, 3, 4, 6, 7, 8, 9, 10]"');
    const lines = [
      t,
      t.replace('[1, 2, 3, 4, 6, 7, 8, 9, 10]', '[1,2,3,4,6,7,8,9,10]'),
      t.replace('[1, 2, 3, 4, 6, 7, 8, 9, 10]', '[1, 2]'),
      '<|return_sep|>oops',
    ]
      .map((c) => JSON.stringify({ id: it146.id, completion: c }))
      .join('\n');
    const { run } = importPredictions(corpus, { file: file(lines), set: 'co', label: 'states' });
    await runPendingChecks(corpus, run.id);
    const got = preds(co, run.id).map((p) => [p.em.arg, p.exec?.status, p.correct]);
    expect(got).toEqual([
      [true, 'pass', true],
      [false, 'pass', true],
      [false, 'fail', false],
      [false, 'skipped', false],
    ]);
  }, 120_000);

  it('input: f called with the predicted arguments; other arguments giving the output pass, and are valid alternatives', async () => {
    const it3 = item(ci, 'sample_3');
    const t = it3.target;
    expect(t).toContain(`"'bcksrut'"`);
    expect(it3.callReturn).toBe("'bcksrutq'");
    const variant = (text: string, value: string) =>
      t.replace(`"'bcksrut'"`, JSON.stringify(text)).replace(`"'q'"`, JSON.stringify(value));
    const completions = [t, variant("'bcksru'", "'tq'"), variant("'a'", "'b'"), variant('undefined_name', "'q'")];
    const { run } = importPredictions(corpus, {
      file: file(JSON.stringify({ id: it3.id, completions })),
      set: 'ci',
      label: 'states',
    });
    expect(run.pending).toBe(4);
    await runPendingChecks(corpus, run.id);
    const got = preds(ci, run.id).map((p) => [p.em.locals, p.exec?.status, p.alt?.status, p.correct]);
    expect(got).toEqual([
      [true, 'pass', 'pass', true],
      [false, 'pass', 'pass', true],
      [false, 'fail', 'fail', false],
      [false, 'error', 'error', false],
    ]);
    const [line] = scoreLines(ci, corpus.getRunById(run.id)!, itemVerdictsOf(corpus.verdictRows(run.id)));
    expect(line.em_all).toBe(25);
    expect(line['pass@1']).toBe(50);
  }, 120_000);
});

describe('resumption', () => {
  it('a stopped check run stores what it did; the next one does the rest', async () => {
    const released = JSON.parse(readFileSync(`${data}/sample_scored_codellama-7b_temp0.2_output.json`, 'utf8'));
    const gens = {
      sample_0: released.raw_generations.sample_0,
      sample_1: ['f((1, ), (1, ), (1, 2))', '{1: None, 2: None}'],
    };
    const { run } = importPredictions(corpus, { file: file(JSON.stringify(gens)), set: 'co', label: 'resume' });
    const stop = new AbortController();
    stop.abort();
    const first = await runPendingChecks(corpus, run.id, { signal: stop.signal });
    expect(first).toEqual({ checked: 1, ran: 0 }); // only the skip-rule verdict, known without running
    expect(corpus.getRunById(run.id)!.pending).toBe(11);
    const second = await runPendingChecks(corpus, run.id);
    expect(second.checked).toBe(11);
    expect(corpus.getRunById(run.id)!.pending).toBe(0);
    const ok = preds(co, run.id).map((p) => p.exec!.status === 'pass');
    expect(ok).toEqual([...released.raw_scored_generations.sample_0, false, true]);
  }, 120_000);
});

describe('scores --seed-check', () => {
  it("GPT-4's input predictions for sample_664 fail under seed 0 and pass under seed 5 (the hash-seed case of test/data/cruxeval/PROVENANCE.md); nothing stored", async () => {
    ensureBuilt();
    const released = JSON.parse(readFileSync(resolve(data, '../leaderboard/gpt-4-0613_temp0.2_input.json'), 'utf8'));
    const gens = { sample_664: released.raw_generations.sample_664 as string[] };
    expect(gens.sample_664).toHaveLength(10);
    const { run } = importPredictions(corpus, { file: file(JSON.stringify(gens)), set: 'ci', label: 'gpt4' });
    await runPendingChecks(corpus, run.id);
    const before = preds(ci, run.id).map((p) => p.exec!.status);
    expect(before).toEqual(Array(10).fill('fail'));
    const r = cli(['scores', '--db', path, '--set', 'ci', '--model', 'gpt4', '--seed-check', '5']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/PYTHONHASHSEED=5: 10 execution verdicts checked again, 10 change/);
    const rows = r.stdout.split('\n').filter((l) => /^\s*\d+\s+sample_664/.test(l));
    expect(rows).toHaveLength(10);
    for (const l of rows) expect(l).toMatch(/exec\s+fail\s+pass\s*$/);
    expect(preds(ci, run.id).map((p) => p.exec!.status)).toEqual(before);
    expect(cli(['scores', '--db', path, '--set', 'ci', '--model', 'gpt4', '--seed-check', 'x']).stderr).toMatch(
      /seed-check/,
    );
  }, 300_000);
});

describe('checks at their edges: skipped checks, incomplete tasks, horizon sets, batches, seedCheck', () => {
  let corpus: Corpus;
  let file: (text: string) => string;
  let co: EvalSetRecord;
  let ci: EvalSetRecord;
  let hz: EvalSetRecord;
  let countTrace: number; // the trace id of count('berry', 'r')

  /** A copy of a CRUXEval trace under another name, its meta changed (a hand-made trace file). */
  function variant(t: Trace, name: string, meta: Record<string, unknown>): Trace {
    return { header: { ...t.header, name, meta }, events: t.events, end: t.end };
  }

  beforeAll(async () => {
    const dir = tempDir('stepscope-pred-');
    const crux = readTraces(cruxevalRecording()).filter((t) =>
      ['sample_3', 'sample_146', 'sample_664'].includes(t.header.name),
    );
    const t146 = crux.find((t) => t.header.name === 'sample_146')!;
    const { input, output } = t146.header.meta as { input: string; output: string };
    const count = vectors().find((v) => v.name === 'count-forward-step-into')!;
    const traces = [
      ...crux,
      variant(t146, 'no_input', { task: 'cruxeval', id: 'no_input', output }),
      variant(t146, 'no_output', { task: 'cruxeval', id: 'no_output', input, output: 5 }),
      record(count.source, count.call),
    ];
    corpus = openCorpus(join(dir, 'c.db'), { create: true });
    await corpus.ingest(traceFile(dir, traces));
    file = fileWriter(dir, 'p', 'jsonl');
    co = createEvalSet(corpus, { name: 'co', task: 'cruxeval-output' }).set;
    ci = createEvalSet(corpus, { name: 'ci', task: 'cruxeval-input' }).set;
    countTrace = traces.length;
    hz = createEvalSet(corpus, { name: 'hz', task: 'horizon', traceIds: [countTrace] }).set;
  }, 900_000); // the first run of the day records all of CRUXEval (see cruxevalRecording)
  // The file's afterAll removes the temporary folders.
  afterAll(() => corpus.close());

  const item = (set: EvalSetRecord, key: string): StoredItem =>
    [...corpus.iterateItems(set.id)].find((i) => i.key === key)!;
  const preds = (set: EvalSetRecord, runId: number) => [...corpus.iteratePredictions({ setId: set.id, runId })];
  /** Imports state predictions (item id, completion) as a new run. */
  function importStates(set: EvalSetRecord, label: string, lines: [number, string][]) {
    const f = file(lines.map(([id, completion]) => JSON.stringify({ id, completion })).join('\n'));
    return importPredictions(corpus, { file: f, set: set.name, label }).run;
  }
  /** One worker per pool: fewer interpreters to start, and verdicts in submission order. */
  const ONE = { workers: 1 };
  const NOT_A_STATE = /^not run: the completion is not a state \(.+\)$/;
  const inputState = (locals: string) => `<|inv_call_sep|><|src_sep|>def f(single_digit):<|arg_sep|>${locals}`;

  describe("checks not run, and why (stored as the verdict's detail)", () => {
    it('predicted arguments: not a state, no arguments, a value that is not a repr, the elision marker', async () => {
      const id = item(ci, 'sample_146').id;
      const run = importStates(ci, 'reasons', [
        [id, 'no state'],
        [id, '<|inv_line_call_sep|><|src_sep|>    return result'],
        [id, inputState('{"single_digit": 5}')],
        [id, inputState('{"..": "..", "single_digit": "6"}')],
      ]);
      expect(await runPendingChecks(corpus, run.id)).toEqual({ checked: 8, ran: 0 });
      const details = [
        NOT_A_STATE,
        'not run: the predicted state has no arguments',
        'not run: the argument "single_digit" is not a repr',
        'not run: the argument ".." is not a repr',
      ];
      const got = preds(ci, run.id);
      got.forEach((p, i) => {
        for (const v of [p.exec, p.alt])
          expect(v, p.completion).toMatchObject({
            status: 'skipped',
            detail: typeof details[i] === 'string' ? details[i] : expect.stringMatching(details[i]),
          });
        expect(p.exec!.rule).toBe(false);
        expect(p.alt!.got).toBeNull();
      });
    });

    it('a predicted return value: not a state, or a state without one', async () => {
      const id = item(co, 'sample_146').id;
      const run = importStates(co, 'reasons', [
        [id, 'no state'],
        [id, inputState('{"single_digit": "5"}')],
        [id, '<|return_sep|><|src_sep|>    return result<|arg_sep|>5'],
      ]);
      expect(await runPendingChecks(corpus, run.id)).toEqual({ checked: 3, ran: 0 });
      expect(preds(co, run.id).map((p) => [p.exec!.status, p.exec!.detail])).toEqual([
        ['skipped', expect.stringMatching(NOT_A_STATE)],
        ['skipped', 'not run: the predicted state has no return value'],
        ['skipped', 'not run: the predicted state has no return value'],
      ]);
    });

    it('a trace whose CRUXEval task has no input, or an output that is not text: nothing to run, for states and benchmark texts', async () => {
      const why = 'not run: the trace was not recorded from a CRUXEval task (record-cruxeval)';
      const keys = ['no_input', 'no_output'];
      const states = importStates(
        co,
        'incomplete',
        keys.map((k) => [item(co, k).id, item(co, k).target]),
      );
      const texts = importPredictions(corpus, {
        file: file(JSON.stringify({ no_input: ['[1, 2]'], no_output: ['[1, 2]'] })),
        set: 'co',
        label: 'incomplete-texts',
      }).run;
      for (const run of [states, texts]) {
        expect(await runPendingChecks(corpus, run.id)).toEqual({ checked: 2, ran: 0 });
        expect(preds(co, run.id).map((p) => [p.itemKey, p.exec])).toEqual(
          keys.map((k) => [k, { status: 'skipped', detail: why, rule: false }]),
        );
      }
    });

    it('an argument named __proto__ is run as named (it was dropped, and the call ran without it)', async () => {
      const id = item(ci, 'sample_146').id;
      const run = importStates(ci, 'proto', [[id, inputState('{"__proto__": "5"}')]]);
      expect(await runPendingChecks(corpus, run.id, { pool: ONE })).toEqual({ checked: 2, ran: 2 });
      const [p] = preds(ci, run.id);
      // Dropped, the call was refused for the argument it lacked ("missing a required argument: 'single_digit'").
      expect(p.exec).toMatchObject({
        status: 'error',
        detail: expect.stringContaining("no parameter named '__proto__' (parameters: single_digit)"),
      });
    });

    it('an unknown run is named', async () => {
      await expect(runPendingChecks(corpus, 9999)).rejects.toThrow(/^no run 9999$/);
      await expect(seedCheck(corpus, 9999, 5)).rejects.toThrow(/^no run 9999$/);
    });
  });

  describe('the valid alternative on a horizon set (no execution check)', () => {
    it('the true arguments pass unrun; others run once whatever their order, storing what the call returned; verdicts stored every 200; no seed changes', async () => {
      const target = item(hz, `inverse/${countTrace}/0`);
      expect(target.target).toBe(
        '<|inv_call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"s": "\'berry\'", "t": "\'r\'"}',
      );
      expect(target.callReturn).toBe('2');
      const args = (locals: string) => `<|inv_call_sep|><|src_sep|>def count(s, t):<|arg_sep|>${locals}`;
      const lines: [number, string][] = [
        ...Array.from({ length: 200 }, (): [number, string] => [target.id, 'no state']),
        [target.id, target.target],
        [target.id, args('{"s": "\'r\'", "t": "\'r\'"}')],
        [target.id, args('{"t": "\'r\'", "s": "\'r\'"}')],
      ];
      const run = importStates(hz, 'alt', lines);
      expect(run.pending).toBe(203);
      const seen: { progress: Progress; pending: number }[] = [];
      const r = await runPendingChecks(corpus, run.id, {
        pool: ONE,
        onProgress: (progress) => seen.push({ progress, pending: corpus.getRunById(run.id)!.pending }),
      });
      expect(r).toEqual({ checked: 203, ran: 1 });
      // One run (the two orders share it), reported with its total; by then the first 200 verdicts were stored.
      expect(seen).toEqual([{ progress: expect.objectContaining({ done: 1, total: 1 }), pending: expect.any(Number) }]);
      expect(seen[0].pending).toBeLessThanOrEqual(3);
      const got = preds(hz, run.id).slice(200);
      expect(got.map((p) => [p.exec, p.alt?.status, p.alt?.got])).toEqual([
        [null, 'pass', '2'],
        [null, 'fail', '1'],
        [null, 'fail', '1'],
      ]);
      expect(got[0].alt!.detail).toBe('the true arguments');
      expect(preds(hz, run.id).every((p) => p.exec === null)).toBe(true);
      // count() does not depend on the hash seed: no alt verdict changes (exec, never checked, is not compared).
      expect(await seedCheck(corpus, run.id, 5, { pool: ONE })).toEqual({ checked: 203, changes: [] });
    }, 60_000);
  });

  describe('seedCheck (scores --seed-check)', () => {
    // sample_664 joins the keys of its argument: a set of strings iterates in hash order,
    // '4 3 ' under PYTHONHASHSEED=0 (wrong) and '3 4 ' under 5 (right); a dict keeps its order.
    it('benchmark texts: the verdicts that change under another seed, by prediction, named by item and sample', async () => {
      const gens = ['f({"3", "4"})', 'f({"4", "3"})', 'f({"3", "4"})', 'f({"3": "3", "4": "5"})'];
      const { run } = importPredictions(corpus, {
        file: file(JSON.stringify({ sample_664: gens })),
        set: 'ci',
        label: 'seeds',
      });
      expect(await runPendingChecks(corpus, run.id, { pool: ONE })).toEqual({ checked: 4, ran: 3 });
      const ids = preds(ci, run.id).map((p) => p.id);
      expect(preds(ci, run.id).map((p) => p.exec!.status)).toEqual(['fail', 'fail', 'fail', 'pass']);
      expect(await seedCheck(corpus, run.id, 0, { pool: ONE })).toEqual({ checked: 4, changes: [] });
      const change = (k: number) => ({
        prediction: ids[k],
        item: 'sample_664',
        sample: k,
        check: 'exec',
        stored: 'fail',
        other: 'pass',
      });
      expect(await seedCheck(corpus, run.id, 5, { pool: ONE })).toEqual({
        checked: 4,
        changes: [change(0), change(1), change(2)],
      });
      // Nothing stored.
      expect(preds(ci, run.id).map((p) => p.exec!.status)).toEqual(['fail', 'fail', 'fail', 'pass']);
    }, 60_000);

    it('predicted states: both checks of a prediction listed, alt before exec; arguments in another order run once', async () => {
      const i664 = item(ci, 'sample_664').id;
      const i3 = item(ci, 'sample_3').id;
      const state = (src: string, locals: string) => `<|inv_call_sep|><|src_sep|>${src}<|arg_sep|>${locals}`;
      const run = importStates(ci, 'seed-states', [
        [i664, state('def f(tags):', '{"tags": "{\'3\', \'4\'}"}')],
        [i3, state('def f(text, value):', '{"text": "\'a\'", "value": "\'b\'"}')],
        [i3, state('def f(text, value):', '{"value": "\'b\'", "text": "\'a\'"}')],
      ]);
      expect(await runPendingChecks(corpus, run.id, { pool: ONE })).toEqual({ checked: 6, ran: 4 });
      const p664 = preds(ci, run.id).find((p) => p.itemKey === 'sample_664')!;
      expect([p664.exec!.status, p664.alt!.status]).toEqual(['fail', 'fail']);
      const r = await seedCheck(corpus, run.id, 5, { pool: ONE });
      expect(r.checked).toBe(6);
      expect(r.changes).toEqual([
        { prediction: p664.id, item: 'sample_664', sample: 0, check: 'alt', stored: 'fail', other: 'pass' },
        { prediction: p664.id, item: 'sample_664', sample: 0, check: 'exec', stored: 'fail', other: 'pass' },
      ]);
    }, 60_000);
  });
});
