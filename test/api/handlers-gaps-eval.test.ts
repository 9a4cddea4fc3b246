// What the tests of src/api/handlers left open on the evaluation side: each set's own runs, one run's verdicts, a page past
// the end, a horizon set's breakdown, the interval's seed, verdicts re-read when a run is
// replaced, every field of listGroupItems, listAnnotations and setTaxonomy, the model's finish
// reason and the request timeout, and export's force, preview and failure. The API tables are built
// inside the tests, not in the set-up: StrykerJS credits code run in a beforeAll to one test
// only (docs/dev/mutation.md), so a mutant in a handler table would be
// run against that test alone.
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApi, createWriteApi } from '../../src/api/handlers/index.js';
import type { Api, ExportJob } from '../../src/contract/index.js';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import { newPrediction } from '../../src/predictions/verdicts.js';
import { pass1Interval } from '../../src/predictions/scores.js';
import { formatAction } from '../../src/semantics/index.js';
import { openCorpus, type Corpus, type StoredItem } from '../../src/store/corpus.js';
import { startFakeModelServer, type FakeModelServer } from '../../scripts/fake-model-server.mjs';
import { cleanTempDirs, corpusFileOf } from '../store/fixtures.js';
import { corpusOf, vectors, vectorTraces, type Vector } from '../predictions/helpers.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';
import { callApi, dispatch } from './call.js';

let corpus: Corpus;
let dir: string;
let items: StoredItem[];
let traceOf: (v: Vector) => number;
let fake: FakeModelServer;

/** Imports `completions(item, i)` for every item of `set` as run `label`. */
function run(set: string, label: string, completions: (it: StoredItem, i: number) => string[], replace = false) {
  const setItems = [...corpus.iterateItems(corpus.listEvalSets().find((s) => s.name === set)!.id)];
  const file = join(dir, `${set}-${label}-${Date.now()}-${Math.random()}.jsonl`);
  writeFileSync(file, setItems.map((it, i) => JSON.stringify({ id: it.id, completions: completions(it, i) })).join('\n'));
  importPredictions(corpus, { file, set, label, replace });
}

beforeAllOrFail(async () => {
  const vt = vectorTraces();
  traceOf = vt.traceOf;
  ({ corpus, dir } = await corpusOf(vt.traces, 'stepscope-hgaps-eval-'));
  const { set } = createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: 2, seed: 5 });
  items = [...corpus.iterateItems(set.id)];
  run('ns', 'A', (it, i) => [i % 2 ? it.target : 'oops, no state']);
  run('ns', 'B', (it) => [it.target]);
  const count = vectors().find((v) => v.name === 'count-forward-step-into')!;
  createEvalSet(corpus, { name: 'hz', task: 'horizon', traceIds: [traceOf(count)] });
  run('hz', 'H', (it, i) => [i % 3 ? it.target : 'nope']);
  // Every answer after 300 ms: a request timeout in milliseconds taken for seconds fails it.
  fake = await startFakeModelServer({ continuations: vectors().map((v) => v.text), faults: [{ fault: 'delay', ms: 300, times: 1000 }] });
});
afterAll(async () => {
  await fake.close();
  corpus.close();
  cleanTempDirs();
});

const apiOf = (): Api => ({ ...createApi(corpus), ...createWriteApi(corpus) });

describe('evaluation sets and items', () => {
  it('lists each set with its own runs', async () => {
    const sets = await callApi(apiOf(), 'listEvalSets', {});
    expect(sets.map((s) => [s.name, s.runs])).toEqual([['ns', ['A', 'B']], ['hz', ['H']]]);
  });

  it('listItems and getItem with a run give that run\'s verdicts only, and the item\'s own set', async () => {
    const api = apiOf();
    const page = await callApi(api, 'listItems', { set: 'ns', run: 'B', limit: 5 });
    expect(page.rows.map((r) => r.verdicts.map((v) => v.run))).toEqual(Array(5).fill(['B']));
    const both = await callApi(api, 'listItems', { set: 'ns', limit: 5 });
    expect(both.rows.map((r) => r.verdicts.map((v) => v.run).sort())).toEqual(Array(5).fill(['A', 'B']));
    const one = await callApi(api, 'getItem', { id: items[1].id, run: 'A' });
    expect(one.predictions.map((p) => p.run)).toEqual(['A']);
    const hzItem = [...corpus.iterateItems(corpus.listEvalSets().find((s) => s.name === 'hz')!.id)][0];
    const h = await callApi(api, 'getItem', { id: hzItem.id, run: 'H' });
    expect({ set: h.set, runs: h.predictions.map((p) => p.run) }).toEqual({ set: 'hz', runs: ['H'] });
  });

  it('a page past the last item is empty, with the total', async () => {
    const r = await dispatch(apiOf(), 'listItems', { set: 'ns', run: 'A', offset: items.length + 10 });
    expect(r).toEqual({ ok: true, value: { total: items.length, rows: [] } });
  });
});

describe('the dashboard', () => {
  it('breaks a horizon set down by horizon, and only a horizon set', async () => {
    const api = apiOf();
    const hz = await callApi(api, 'getRunScores', { set: 'hz', run: 'H' });
    expect(hz.by.horizon).toEqual(await callApi(api, 'getScores', { set: 'hz', run: 'H', by: 'horizon' }));
    expect(hz.by.horizon.length).toBeGreaterThan(2);
    expect((await callApi(api, 'getRunScores', { set: 'ns', run: 'A' })).by.horizon).toEqual([]);
  });

  it('seeds the pass@1 interval as `stepscope scores` does: by set, run and group', async () => {
    // Seven samples an item, right in varied shares: a bootstrap whose bounds another seed moves.
    run('ns', 'S', (it, i) => Array.from({ length: 7 }, (_, j) => ((i * 5 + j * j) % 3 === 0 ? it.target : 'no state')));
    const set = corpus.listEvalSets().find((s) => s.name === 'ns')!;
    const verdicts = corpus.itemVerdicts(corpus.getRun(set.id, 'S')!.id);
    const [iv] = await callApi(apiOf(), 'getScoreIntervals', { set: 'ns', run: 'S' });
    const seeded = pass1Interval(verdicts, ['ns', 'S', String(iv.group)])!;
    expect([iv.group, iv.lo, iv.hi]).toEqual([null, seeded[0], seeded[1]]);
    expect(pass1Interval(verdicts, ['another seed'])).not.toEqual(seeded); // the test can tell seeds apart
  });

  it('reads a run\'s verdicts again as predictions are added to it (as `stepscope predict` adds them)', async () => {
    const api = apiOf();
    const set = corpus.listEvalSets().find((s) => s.name === 'ns')!;
    // A run just started: no verdict yet, so no pass@1 and no interval.
    const id = corpus.saveRun({ setId: set.id, label: 'R', format: 'state', params: {}, source: 'http://model.test', sourceHash: null, hashseed: 0 }, []);
    expect(await callApi(api, 'getScoreIntervals', { set: 'ns', run: 'R' })).toEqual([{ group: null, lo: null, hi: null }]);
    expect((await callApi(api, 'getRunScores', { set: 'ns', run: 'R', interval: false })).by.action[0]['pass@1']).toBeNull();
    corpus.addPredictions(id, [newPrediction(items[0], 'next-state', 'state', 0, 'no state')]);
    expect((await callApi(api, 'getRunScores', { set: 'ns', run: 'R', interval: false })).by.action[0]['pass@1']).toBe(0);
    corpus.addPredictions(id, items.slice(1).map((it) => newPrediction(it, 'next-state', 'state', 0, it.target)));
    const after = await callApi(api, 'getRunScores', { set: 'ns', run: 'R', interval: false });
    expect(after.by.action[0]['pass@1']).toBeCloseTo((100 * (items.length - 1)) / items.length, 6);
  });

  it('lists the items of every field group', async () => {
    const api = apiOf();
    for (const group of ['event', 'src', 'locals', 'arg', 'all']) {
      const r = await dispatch(api, 'listGroupItems', { set: 'ns', run: 'A', by: 'field', group, limit: 1 });
      expect(r.ok, group).toBe(true);
      if (r.ok) expect(r.value.total, group).toBeGreaterThan(0);
    }
  });
});

describe('annotations and the model', () => {
  it('the annotation reads and writes answer, from tables built in the test', async () => {
    const api = apiOf();
    const q = await callApi(api, 'annotationQueue', { set: 'ns', run: 'A', annotator: 'ada' });
    expect(q.entries.length).toBeGreaterThan(2);
    const [first, second, third] = q.entries;
    expect((await callApi(api, 'getAnnotationItem', { prediction: first.prediction, annotator: 'ada' })).prediction.prediction).toBe(first.prediction);
    await callApi(api, 'annotate', { target: { prediction: first.prediction }, labels: ['format.unparseable'], annotator: 'ada' });
    const listed = await callApi(api, 'listAnnotations', { set: 'ns', run: 'A' });
    expect(listed.rows.map((r) => r.labels)).toEqual([['format.unparseable']]);
    expect(listed.counts).toMatchObject({ 'format.unparseable': 1 });
    expect((await callApi(api, 'skipAnnotation', { target: { prediction: second.prediction }, annotator: 'ada' })).annotator).toBe('ada');
    expect((await callApi(api, 'adjudicate', { target: { prediction: third.prediction }, labels: ['format.truncated'], annotator: 'dora' })).labels).toEqual(['format.truncated']);
    expect((await callApi(api, 'getAgreement', { set: 'ns', run: 'A' })).annotators).toContain('ada');
    const t = await callApi(api, 'getTaxonomy', {});
    const renamed = await callApi(api, 'setTaxonomy', { taxonomy: { ...t, name: 'Renamed for a test', version: t.version + 1 }, author: 'ada' });
    expect({ name: renamed.name, version: renamed.version }).toEqual({ name: 'Renamed for a test', version: t.version + 1 });
  });

  it('askModel gives each answer\'s finish reason, and waits the timeout given in seconds, or the default', async () => {
    const api = apiOf();
    const v = vectors().find((x) => x.name === 'count-inverse-step-into')!;
    const entry = corpus.getEvents(traceOf(v)).find((e) => e.event === 'call' && e.func === v.entry_function)!.seq;
    const at = { traceId: traceOf(v), direction: v.direction, entry, actions: v.actions.slice(0, 2).map(formatAction) };
    const cut = await callApi(api, 'checkCompletions', { ...at, completions: [] });
    expect(cut.prompt.length).toBeGreaterThan(0);
    const r = await callApi(api, 'askModel', { ...at, endpoint: fake.url, model: 'debugger', timeoutSeconds: 5 });
    expect(r.answers.map((a) => [a.completion, a.finish])).toEqual([[cut.target, 'stop']]);
    const d = await dispatch(api, 'askModel', { ...at, endpoint: fake.url, model: 'debugger' });
    expect(d.ok || d.error).toBe(true);
    // A server slower than the timeout asked for: refused after it (twice: one retry), not after the default two minutes.
    const slow = await startFakeModelServer({ continuations: vectors().map((x) => x.text), faults: [{ fault: 'delay', ms: 1500, times: 2 }] });
    try {
      const late = await dispatch(api, 'askModel', { ...at, endpoint: slow.url, model: 'debugger', timeoutSeconds: 1 });
      expect(late.ok || late.error).toMatchObject({ code: 'unavailable', message: expect.stringMatching(/within 1 ?s/) });
    } finally {
      await slow.close();
    }
  });
});

describe('export', () => {
  it('previews the rows of every split with nothing left out, exports over a folder in use when forced, and reports a failed export', async () => {
    const { db } = await corpusFileOf('stepscope-hgaps-export-', [{ name: 'a', n: 3 }, { name: 'b', n: 4 }, { name: 'c', n: 5 }]);
    const c = openCorpus(db, { readonly: true });
    try {
      const api = createApi(c);
      const p = await callApi(api, 'previewExport', { kind: 'traces', select: [], split: 'train=0.5,test=0.5', seed: 1 });
      const events = [...c.query('SELECT count(*) AS n FROM events')][0].n as number;
      expect(p.rows).toBe(events);
      expect(p.splits.reduce((s, x) => s + x.rows, 0)).toBe(events);
      expect(p.excluded).toEqual({ programs: 0, rows: 0, sets: [] });
      const until = async (job: number) => {
        let s = await callApi(api, 'exportProgress', { job });
        // At most 10 s: a job left running (a failure never written) fails the test instead of hanging it.
        for (let k = 0; s.state === 'running' && k < 500; k++) {
          await new Promise((r) => setTimeout(r, 20));
          s = await callApi(api, 'exportProgress', { job });
        }
        return s;
      };
      expect((await until((await callApi(api, 'startExport', { kind: 'traces', select: [], folder: 'out' })).job)).state).toBe('done');
      const again = await callApi(api, 'startExport', { kind: 'traces', select: [], folder: 'out', force: true });
      expect(await until(again.job)).toMatchObject({ state: 'done', done: events, total: events });
      // The export's unfinished folder taken away under it: the job fails, saying why, and the earlier export stays.
      // Called directly, not awaited: the handler answers at once, so the folder goes before the export's first write.
      const started = api.startExport({ kind: 'traces', select: [], folder: 'out', force: true }) as ExportJob;
      const root = dirname(started.path);
      for (const f of readdirSync(root)) if (f !== 'out') rmSync(join(root, f), { recursive: true, force: true });
      const failed = await until(started.job);
      expect(failed).toMatchObject({ state: 'failed', path: started.path, error: expect.stringMatching(/^internal error: ENOENT/) });
      expect(existsSync(join(started.path, 'stepscope-export.json'))).toBe(true);
    } finally {
      c.close();
    }
  });
});
