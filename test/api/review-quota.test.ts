// Reviews per item over the API (docs/annotation.md, "Reviews per item"): set and read per run,
// checked (1-99 or null), refused on a read-only corpus, and enforced by the corpus: the queue
// shows the setting and leaves full items out, and the write that would exceed it is refused
// with a message naming the item, whoever sends it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApi, createWriteApi, openForReading, openForWriting } from '../../src/api/handlers/index.js';
import type { Api } from '../../src/contract/index.js';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import type { Corpus, ReadCorpus } from '../../src/store/corpus.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, vectorTraces } from '../predictions/helpers.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';
import { callApi, dispatch } from './call.js';

let corpus: Corpus;
let reading: ReadCorpus;
let writing: Corpus;
let api: Api;

beforeAllOrFail(async () => {
  let dir: string, path: string;
  ({ corpus, path, dir } = await corpusOf(vectorTraces().traces, 'stepscope-quota-api-'));
  const { set } = createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: 1, seed: 4 });
  const items = [...corpus.iterateItems(set.id)];
  const file = join(dir, 'p.jsonl');
  writeFileSync(file, items.map((it) => JSON.stringify({ id: it.id, completion: 'no state' })).join('\n'));
  importPredictions(corpus, { file, set: 'ns', label: 'm' });
  reading = openForReading(path);
  writing = openForWriting(path);
  api = { ...createApi(reading), ...createWriteApi(writing) };
}, 120_000);
afterAll(() => {
  reading?.close();
  writing?.close();
  corpus?.close();
  cleanTempDirs();
});

const call = <M extends string>(m: M, p: unknown) => callApi(api, m, p);
async function refusal(m: string, p: unknown, a: Partial<Api> = api): Promise<{ code: string; message: string }> {
  const r = await dispatch(a, m, p);
  if (r.ok) throw new Error(`${m} was answered, expected a refusal`);
  return r.error;
}
const queue = (annotator: string) => call('annotationQueue', { set: 'ns', run: 'm', annotator });

describe('reviews per item over the API', () => {
  it('is read and set per run; only 1-99 or null; an unknown run is named', async () => {
    expect(await call('getReviewQuota', { set: 'ns', run: 'm' })).toEqual({ set: 'ns', run: 'm', reviews: null });
    expect(await call('setReviewQuota', { set: 'ns', run: 'm', reviews: 1, author: 'ada' })).toEqual({
      set: 'ns',
      run: 'm',
      reviews: 1,
    });
    expect((await call('getReviewQuota', { set: 'ns', run: 'm' })).reviews).toBe(1);
    for (const bad of [0, 100, 1.5, '2'])
      expect((await refusal('setReviewQuota', { set: 'ns', run: 'm', reviews: bad, author: 'ada' })).code).toBe(
        'bad-input',
      );
    expect((await refusal('getReviewQuota', { set: 'ns', run: 'nope' })).message).toContain('its runs: m');
    // A read-only API has no such write.
    expect(
      (await refusal('setReviewQuota', { set: 'ns', run: 'm', reviews: 2, author: 'ada' }, createApi(reading))).message,
    ).toMatch(/setReviewQuota/);
  });

  it("the queue says it; an item one person labeled leaves the others' queues, their write refused", async () => {
    const q = await queue('ada');
    expect(q.reviews).toBe(1);
    const [first] = q.entries;
    await call('annotate', {
      target: { prediction: first.prediction },
      labels: ['format.unparseable'],
      annotator: 'ada',
    });
    const bob = await queue('bob');
    expect(bob.entries.map((e) => e.prediction)).not.toContain(first.prediction);
    expect(bob.entries).toHaveLength(q.entries.length - 1);
    const err = await refusal('annotate', {
      target: { prediction: first.prediction },
      labels: ['format.truncated'],
      annotator: 'bob',
    });
    expect(err.code).toBe('bad-input');
    expect(err.message).toContain(`item ${first.key} (prediction ${first.prediction}, draw ${first.sample + 1})`);
    expect(err.message).toContain('has its 1 review already (ada)');
    const item = await call('getAnnotationItem', { prediction: first.prediction, annotator: 'bob' });
    expect(item.mine).toBeNull();
    expect(item.annotators).toEqual(['ada']);
    // Her own labels still change; with no limit, bob gets the item back.
    await call('annotate', {
      target: { prediction: first.prediction },
      labels: ['format.truncated'],
      annotator: 'ada',
    });
    await call('setReviewQuota', { set: 'ns', run: 'm', reviews: null, author: 'ada' });
    expect((await queue('bob')).entries).toHaveLength(q.entries.length);
    expect((await queue('bob')).progress).toEqual([{ annotator: 'ada', done: 1 }]);
  });
});
