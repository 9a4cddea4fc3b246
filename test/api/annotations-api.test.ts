// The annotation API over a real corpus (next-state items of the reference traces, a model that
// writes garbage on half of them): the queue, an item with its pre-labels, labels set, undone
// and traced in the history, skip and resume, one-line errors that write nothing, two
// annotators' agreement with an adjudicator, and a read-only corpus refusing every write.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApi, createWriteApi, openForReading, openForWriting } from '../../src/api/handlers/index.js';
import type { Api } from '../../src/contract/index.js';
import { prelabelRun } from '../../src/labeling/prelabel-run.js';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import { openCorpus, type Corpus, type ReadCorpus, type StoredItem } from '../../src/store/corpus.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { dispatch, type ResultOf } from './call.js';
import { corpusOf, vectorTraces } from '../predictions/helpers.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';

let corpus: Corpus;
let path: string;
let api: Api;
/** The API's connections as the app opens them: reads on a read-only one, writes on the writable one. */
let reading: ReadCorpus;
let writing: Corpus;
let items: StoredItem[];

beforeAllOrFail(async () => {
  let dir: string;
  ({ corpus, path, dir } = await corpusOf(vectorTraces().traces, 'stepscope-annot-'));
  const { set } = createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: 2, seed: 5 });
  items = [...corpus.iterateItems(set.id)];
  const file = join(dir, 'p.jsonl');
  writeFileSync(
    file,
    items.map((it, i) => JSON.stringify({ id: it.id, completion: i % 2 ? it.target : 'oops, no state' })).join('\n'),
  );
  importPredictions(corpus, { file, set: 'ns', label: 'half' });
  reading = openForReading(path);
  writing = openForWriting(path);
  api = { ...createApi(reading), ...createWriteApi(writing) };
});
afterAll(() => {
  reading.close();
  writing.close();
  corpus.close();
  cleanTempDirs();
});

async function call<M extends string>(m: M, p: unknown): Promise<ResultOf<M>> {
  const r = await dispatch(api, m, p);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}
async function failure(m: string, p: unknown): Promise<{ code: string; message: string }> {
  const r = await dispatch(api, m, p);
  if (r.ok) throw new Error(`${m} was expected to fail`);
  return r.error;
}
const queue = (annotator: string, extra: object = {}) =>
  call('annotationQueue', { set: 'ns', run: 'half', annotator, ...extra });

describe('annotation API', () => {
  it('the queue holds the failures in item order; the rules suggest format.unparseable for text that is no state', async () => {
    const q = await queue('ada');
    const failing = items.filter((_, i) => i % 2 === 0);
    expect(q.entries.map((e) => e.item)).toEqual(failing.map((it) => it.id));
    expect(q.done).toBe(0);
    expect(q.position).toBe(0);
    const r = prelabelRun(corpus, 'ns', 'half');
    expect(r.predictions).toBe(failing.length);
    expect(r.stored).toBe(failing.length);
    expect(prelabelRun(corpus, 'ns', 'half').stored).toBe(0); // again: nothing new
    const item = await call('getAnnotationItem', { prediction: q.entries[0].prediction, annotator: 'ada' });
    expect(item.prelabels.map((p) => [p.label, p.rule, p.status])).toEqual([
      ['format.unparseable', 'parse-error', 'suggested'],
    ]);
    expect(item.wrong).toEqual(expect.arrayContaining(['event']));
    expect(item.predicted).toBeNull();
    expect(item.item.target).toBe(failing[0].target);
    expect((await queue('ada', { prelabel: 'format.unparseable' })).entries).toHaveLength(failing.length);
    expect((await queue('ada', { prelabel: 'data.wrong_value' })).entries).toHaveLength(0);
  });

  it('labels are set, changed, undone and traced; accepting a suggestion marks it; the queue resumes after the labeled entry', async () => {
    const [first, second] = (await queue('ada')).entries;
    const target = { prediction: first.prediction };
    await call('annotate', { target, labels: ['format.unparseable'], annotator: 'ada' });
    let item = await call('getAnnotationItem', { prediction: first.prediction, annotator: 'ada' });
    expect(item.prelabels[0].status).toBe('accepted');
    await call('annotate', {
      target,
      labels: ['format.unparseable', 'format.truncated'],
      note: 'cut short',
      annotator: 'ada',
    });
    const q = await queue('ada');
    expect(q.done).toBe(1);
    expect(q.entries[q.position].prediction).toBe(second.prediction);
    expect(q.counts).toEqual({ 'format.unparseable': 1, 'format.truncated': 1 });

    const undone = await call('undoAnnotation', { annotator: 'ada' });
    expect(undone.undone?.labels).toEqual(['format.unparseable']);
    expect(undone.undone?.note).toBeNull();
    await call('annotate', { target, labels: ['format.truncated'], annotator: 'ada' });
    item = await call('getAnnotationItem', { prediction: first.prediction, annotator: 'ada' });
    expect(item.mine?.labels).toEqual(['format.truncated']);
    expect(item.prelabels[0].status).toBe('rejected');
    const h = await call('annotationHistory', { target, annotator: 'ada' });
    expect(h.map((e) => [e.op, e.before?.labels ?? null, e.after.labels])).toEqual([
      ['create', null, ['format.unparseable']],
      ['update', ['format.unparseable'], ['format.unparseable', 'format.truncated']],
      ['undo', ['format.unparseable', 'format.truncated'], ['format.unparseable']],
      ['update', ['format.unparseable'], ['format.truncated']],
    ]);
  });

  it('skip moves the queue on without labels; the filter narrows by labeled, by whom and by m annotators', async () => {
    const q0 = await queue('ada');
    const next = q0.entries[q0.position];
    await call('skipAnnotation', { target: { prediction: next.prediction }, annotator: 'ada' });
    const q1 = await queue('ada');
    expect(q1.entries[q1.position - 1]).toMatchObject({ prediction: next.prediction, mine: 'skipped', annotators: [] });
    expect((await queue('bob', { labeled: 'yes' })).entries.map((e) => e.annotators)).toEqual([['ada']]);
    expect((await queue('bob', { by: 'ada' })).entries).toHaveLength(1);
    expect((await queue('bob', { need: 1 })).entries).toHaveLength(q0.entries.length - 1);
    expect((await queue('bob', { failed: false })).entries).toHaveLength(items.length);
  });

  it("the queue's facets offer what the run has, whatever the other filters narrow it to", async () => {
    const failing = items.filter((_, i) => i % 2 === 0);
    const q = await queue('bob', { prelabel: 'data.wrong_value' });
    expect(q.entries).toHaveLength(0);
    expect(q.facets.actions).toEqual([...new Set(failing.map((it) => it.action))].sort());
    expect(q.facets.annotators).toEqual(['ada']); // ada labeled one item; her skip is no label
    expect(q.facets.prelabels).toEqual(['format.unparseable']);
    expect((await queue('bob', { action: failing[0].action })).entries.map((e) => e.item)).toEqual(
      failing.filter((it) => it.action === failing[0].action).map((it) => it.id),
    );
    // every failure here is text that is no state
    expect((await queue('bob', { formatError: false })).entries).toHaveLength(0);
  });

  it('an unknown label or target is one clear line, and nothing is written', async () => {
    const before = corpus.annotationHistory().length;
    const p = (await queue('ada')).entries[0].prediction;
    expect(
      await failure('annotate', { target: { prediction: p }, labels: ['data.nonsense'], annotator: 'ada' }),
    ).toEqual({
      code: 'bad-input',
      message:
        "unknown label 'data.nonsense' (taxonomy 'Execution-prediction errors' version 1; `stepscope taxonomy` lists the labels)",
    });
    expect(
      (await failure('annotate', { target: { prediction: 999999 }, labels: ['other.other'], annotator: 'ada' }))
        .message,
    ).toBe('no prediction with id 999999 (stepscope predictions lists them)');
    expect(
      (await failure('annotate', { target: { trace: 1, seq: 10 ** 6 }, labels: ['other.other'], annotator: 'ada' }))
        .message,
    ).toMatch(/^trace 1 has no state with seq 1000000: expected a seq from 0 to \d+$/);
    expect(
      (await failure('annotate', { target: { prediction: p }, labels: [], annotator: 'rule:me' })).message,
    ).toMatch(/^annotate.annotator: expected a person's name/);
    expect(corpus.annotationHistory()).toHaveLength(before);
  });

  it('a state and a transition of a trace take labels too', async () => {
    const a = await call('annotate', {
      target: { trace: 1, seq: 2, action: 'step_over' },
      labels: ['control.branch'],
      annotator: 'ada',
    });
    expect(a.target).toBe('trace:1/seq:2/action:step_over');
    const s = await call('annotate', { target: { trace: 1, seq: 2 }, labels: ['truth.value_cut'], annotator: 'ada' });
    expect(s.target).toBe('trace:1/seq:2');
  });

  it('two annotators: kappa, alpha and the disagreement an adjudicator settles', async () => {
    const entries = (await queue('bob')).entries.slice(0, 4);
    // bob agrees with carol on three items and not on the fourth.
    const bob = ['format.unparseable', 'format.truncated', 'format.unparseable', 'format.truncated'];
    const carol = ['format.unparseable', 'format.truncated', 'format.unparseable', 'format.unparseable'];
    for (let i = 0; i < 4; i++) {
      await call('annotate', { target: { prediction: entries[i].prediction }, labels: [bob[i]], annotator: 'bob' });
      await call('annotate', { target: { prediction: entries[i].prediction }, labels: [carol[i]], annotator: 'carol' });
    }
    await call('adjudicate', {
      target: { prediction: entries[3].prediction },
      labels: ['format.truncated'],
      annotator: 'dora',
    });
    const g = await call('getAgreement', { set: 'ns', run: 'half' });
    const pair = g.pairs.find((p) => p.a === 'bob' && p.b === 'carol')!;
    // Cohen: po = 3/4; pe = (2/4)(3/4) + (2/4)(1/4) = 1/2; kappa = (3/4 - 1/2) / (1 - 1/2) = 1/2.
    expect(pair.items).toBe(4);
    expect(pair.kappa).toBeCloseTo(0.5, 10);
    // ada labeled the first entry too (format.truncated), so it is a disagreement of three.
    expect(g.disagreements.map((d) => d.target)).toEqual([
      `prediction:${entries[0].prediction}`,
      `prediction:${entries[3].prediction}`,
    ]);
    expect(g.disagreements[1].final).toEqual({ annotator: 'dora', labels: ['format.truncated'] });
    expect(g.disagreements[0].final).toBeNull();
    // The rule (format.unparseable on every one of these) was right where a person said so.
    expect(g.rules.rules.find((r) => r.rule === 'parse-error')!.judged).toBeGreaterThanOrEqual(8);
  });

  it("a disagreement on a prediction carries each annotator's note, the program, the prediction against the truth and where the item is", async () => {
    const entries = (await queue('bob')).entries;
    const settled = entries[3]; // bob and carol disagree on it (the test above)
    await call('annotate', { target: { prediction: settled.prediction }, note: 'cut mid-token', annotator: 'bob' });
    await call('annotate', { target: { prediction: settled.prediction }, note: 'no state at all', annotator: 'carol' });
    // A readable prediction (a passing one, of a state on a source line) labeled differently by two people.
    const all = (await queue('bob', { failed: false })).entries;
    const passing = all.find(
      (e) =>
        !entries.some((f) => f.prediction === e.prediction) &&
        items.find((it) => it.id === e.item)!.truth.src !== undefined,
    )!;
    await call('annotate', { target: { prediction: passing.prediction }, labels: ['other.other'], annotator: 'bob' });
    await call('annotate', {
      target: { prediction: passing.prediction },
      labels: ['truth.value_cut'],
      annotator: 'carol',
    });
    // And a state of a trace: no prediction, so no context.
    await call('annotate', { target: { trace: 1, seq: 3 }, labels: ['other.other'], annotator: 'bob' });
    await call('annotate', { target: { trace: 1, seq: 3 }, labels: ['control.branch'], annotator: 'carol' });

    const g = await call('getAgreement', { set: 'ns', run: 'half' });
    const of = (target: string) => g.disagreements.find((d) => d.target === target)!;
    const d = of(`prediction:${settled.prediction}`);
    expect(d.notes).toEqual({ bob: 'cut mid-token', carol: 'no state at all' });
    expect(d.labels).toEqual({ bob: ['format.truncated'], carol: ['format.unparseable'] });
    expect(d.final).toEqual({ annotator: 'dora', labels: ['format.truncated'] });
    const item = items.find((it) => it.id === settled.item)!;
    // The same program, states and wrong fields as the queue's item view shows.
    const shown = await call('getAnnotationItem', { prediction: settled.prediction, annotator: 'bob' });
    expect(d.context).toEqual({
      prediction: settled.prediction,
      set: 'ns',
      run: 'half',
      item: item.id,
      key: item.key,
      sample: settled.sample,
      traceId: item.traceId,
      code: corpus.getTrace(item.traceId)!.context_forward,
      predicted: null,
      truth: item.truth,
      wrong: shown.wrong,
      completion: 'oops, no state',
    });
    expect(d.context!.code).not.toBe('');
    // Nobody wrote a note on the first: no notes, not empty ones.
    expect(of(`prediction:${entries[0].prediction}`).notes).toEqual({});

    const read = of(`prediction:${passing.prediction}`).context!;
    const readItem = await call('getAnnotationItem', { prediction: passing.prediction, annotator: 'bob' });
    expect(read.predicted).not.toBeNull();
    expect(read.predicted).toEqual(readItem.predicted);
    expect(read.predicted!.src).toBe(read.truth.src);
    expect(read.code.split('\n')).toContain(read.truth.src);
    expect(read.wrong).toEqual([]);

    // Outside any run: the whole corpus's report has it.
    const state = (await call('getAgreement', {})).disagreements.find((x) => x.target === 'trace:1/seq:3')!;
    expect(state.labels).toEqual({ bob: ['other.other'], carol: ['control.branch'] });
    expect(state.context).toBeNull();
  });

  it('a corpus opened read-only answers every write with read-only and keeps the reads', async () => {
    const ro = openCorpus(path, { readonly: true });
    const roApi = { ...createApi(ro), ...createWriteApi(ro as Corpus) };
    const r = await dispatch(roApi, 'annotate', {
      target: { trace: 1, seq: 0 },
      labels: ['other.other'],
      annotator: 'eve',
    });
    expect(r.ok ? 'ok' : r.error.code).toBe('read-only');
    const t = await dispatch(roApi, 'getTaxonomy', {});
    expect(t.ok && t.value.version).toBe(1);
    ro.close();
  });
});
