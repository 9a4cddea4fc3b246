// Execution verdicts of stored predictions: CRUXEval's check on a slice of the released
// CodeLlama-7B generations against the released per-generation verdicts, the skip rule,
// predicted states run as a literal or a call, the valid alternative, and resumption.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvalSet } from '../../src/predictions/create.js';
import { runPendingChecks } from '../../src/predictions/execute.js';
import { importPredictions } from '../../src/predictions/import.js';
import { scoreLines } from '../../src/predictions/scores.js';
import type { Corpus, EvalSetRecord, StoredItem } from '../../src/store/corpus.js';
import { cli, ensureBuilt } from '../cli/helpers.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, cruxevalTraces, fileWriter } from './helpers.js';

const data = resolve(__dirname, '../../../shared/data/cruxeval/generations');
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

const item = (set: EvalSetRecord, key: string): StoredItem => [...corpus.iterateItems(set.id)].find((i) => i.key === key)!;
const preds = (set: EvalSetRecord, runId: number) => [...corpus.iteratePredictions({ setId: set.id, runId })];

describe.each([['output', () => co], ['input', () => ci]] as const)('CodeLlama-7B temperature 0.2, CRUXEval-%s, 20 tasks', (mode, set) => {
  it('every verdict is the released one; pass@1 is the formula over the released verdicts', async () => {
    const released = JSON.parse(readFileSync(`${data}/sample_scored_codellama-7b_temp0.2_${mode}.json`, 'utf8'));
    const slice = (o: Record<string, unknown[]>) => Object.fromEntries(SLICE.map((k) => [k, o[k]]));
    const f = file(JSON.stringify({ raw_generations: slice(released.raw_generations), raw_scored_generations: {}, pass_at_1: 0 }));
    const { run } = importPredictions(corpus, { file: f, set: set().name, label: 'cl7' });
    expect(run.pending).toBe(200);
    const r = await runPendingChecks(corpus, run.id, { pool: { workers: 2 } });
    expect(r.checked).toBe(200);
    expect(r.ran).toBeLessThan(200); // identical texts of one task run once
    expect(corpus.getRunById(run.id)!.pending).toBe(0);
    const got: Record<string, boolean[]> = {};
    for (const p of preds(set(), run.id)) (got[p.itemKey] ??= [])[p.sample] = p.exec!.status === 'pass';
    expect(got).toEqual(slice(released.raw_scored_generations));
    const expected = (SLICE.reduce((s, k) => s + released.raw_scored_generations[k].filter(Boolean).length / 10, 0) / SLICE.length) * 100;
    const [line] = scoreLines(set(), corpus.getRunById(run.id)!, corpus.verdictRows(run.id));
    expect(line).toMatchObject({ items: 20, samples: 200, format_errors: 0, em_all: null });
    expect(line['pass@1']).toBeCloseTo(expected, 9);
    expect(line.exec_pass).toBeCloseTo(expected, 9);
  }, 600_000);
});

describe('the skip rule', () => {
  it('an output text containing f(<input>), an input text without f(: not run, stored skipped by rule, wrong', async () => {
    const o = importPredictions(corpus, { file: file(JSON.stringify({ sample_146: ['f(5)', '[1, 2, 3, 4, 6, 7, 8, 9, 10]'] })), set: 'co', label: 'skip' });
    const i = importPredictions(corpus, { file: file(JSON.stringify({ sample_146: ['5', 'f(5)'] })), set: 'ci', label: 'skip' });
    await runPendingChecks(corpus, o.run.id);
    await runPendingChecks(corpus, i.run.id);
    for (const [set, run] of [[co, o.run.id], [ci, i.run.id]] as const) {
      const [a, b] = preds(set, run);
      expect(a.exec).toMatchObject({ status: 'skipped', rule: true, detail: expect.stringMatching(/^skip rule/) });
      expect(a.correct).toBe(false);
      expect(b.exec).toMatchObject({ status: 'pass', rule: false });
      expect(scoreLines(set, corpus.getRunById(run)!, corpus.verdictRows(run))[0]['pass@1']).toBe(50);
    }
  }, 120_000);
});

describe('predicted states on CRUXEval sets', () => {
  it('output: the predicted return value runs as the literal; another spelling of the value passes by execution only', async () => {
    const it146 = item(co, 'sample_146');
    const t = it146.target;
    expect(t).toContain('"[1, 2, 3, 4, 6, 7, 8, 9, 10]"');
    const lines = [t, t.replace('[1, 2, 3, 4, 6, 7, 8, 9, 10]', '[1,2,3,4,6,7,8,9,10]'), t.replace('[1, 2, 3, 4, 6, 7, 8, 9, 10]', '[1, 2]'), '<|return_sep|>oops']
      .map((c) => JSON.stringify({ id: it146.id, completion: c })).join('\n');
    const { run } = importPredictions(corpus, { file: file(lines), set: 'co', label: 'states' });
    await runPendingChecks(corpus, run.id);
    const got = preds(co, run.id).map((p) => [p.em.arg, p.exec?.status, p.correct]);
    expect(got).toEqual([[true, 'pass', true], [false, 'pass', true], [false, 'fail', false], [false, 'skipped', false]]);
  }, 120_000);

  it('input: f called with the predicted arguments; other arguments giving the output pass, and are valid alternatives', async () => {
    const it3 = item(ci, 'sample_3');
    const t = it3.target;
    expect(t).toContain(`"'bcksrut'"`);
    expect(it3.callReturn).toBe("'bcksrutq'");
    const variant = (text: string, value: string) => t.replace(`"'bcksrut'"`, JSON.stringify(text)).replace(`"'q'"`, JSON.stringify(value));
    const completions = [t, variant("'bcksru'", "'tq'"), variant("'a'", "'b'"), variant('undefined_name', "'q'")];
    const { run } = importPredictions(corpus, { file: file(JSON.stringify({ id: it3.id, completions })), set: 'ci', label: 'states' });
    expect(run.pending).toBe(4);
    await runPendingChecks(corpus, run.id);
    const got = preds(ci, run.id).map((p) => [p.em.locals, p.exec?.status, p.alt?.status, p.correct]);
    expect(got).toEqual([
      [true, 'pass', 'pass', true],
      [false, 'pass', 'pass', true],
      [false, 'fail', 'fail', false],
      [false, 'error', 'error', false],
    ]);
    const [line] = scoreLines(ci, corpus.getRunById(run.id)!, corpus.verdictRows(run.id));
    expect(line.em_all).toBe(25);
    expect(line['pass@1']).toBe(50);
  }, 120_000);
});

describe('resumption', () => {
  it('a stopped check run stores what it did; the next one does the rest', async () => {
    const released = JSON.parse(readFileSync(`${data}/sample_scored_codellama-7b_temp0.2_output.json`, 'utf8'));
    const gens = { sample_0: released.raw_generations.sample_0, sample_1: ['f((1, ), (1, ), (1, 2))', '{1: None, 2: None}'] };
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
  it("GPT-4's input predictions for sample_664 fail under seed 0 and pass under seed 5 (the data README's case); nothing stored", async () => {
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
    expect(cli(['scores', '--db', path, '--set', 'ci', '--model', 'gpt4', '--seed-check', 'x']).stderr).toMatch(/seed-check/);
  }, 300_000);
});
