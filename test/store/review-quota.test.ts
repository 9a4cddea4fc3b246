/**
 * Reviews per item (migration 011, docs/annotation.md "Reviews per item"): a run's setting kept
 * in the corpus; the store refuses the person's labels that would give an item more reviewers
 * than it, naming the item, whoever writes them; and the queue leaves full items out of every
 * other annotator's queue.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildQueue } from '../../src/labeling/queue.js';
import { reviewQuotaOf, setReviewQuota } from '../../src/labeling/quota.js';
import { setLabels, skipTarget, undoLast } from '../../src/labeling/write.js';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import { openCorpus, type Corpus, type StoredItem } from '../../src/store/corpus.js';
import { corpusOf, vectorTraces } from '../predictions/helpers.js';
import { cleanTempDirs } from './fixtures.js';

let corpus: Corpus;
let path: string;
let preds: number[];
let items: StoredItem[];

beforeAll(async () => {
  let dir: string;
  ({ corpus, path, dir } = await corpusOf(vectorTraces().traces, 'stepscope-quota-'));
  const { set } = createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: 1, seed: 3 });
  items = [...corpus.iterateItems(set.id)];
  const file = join(dir, 'p.jsonl');
  writeFileSync(file, items.map((it) => JSON.stringify({ id: it.id, completion: 'not a state' })).join('\n'));
  importPredictions(corpus, { file, set: 'ns', label: 'm' });
  importPredictions(corpus, { file, set: 'ns', label: 'other' });
  preds = [...corpus.iteratePredictions({ setId: set.id, runId: runId('m') })].map((p) => p.id);
}, 120_000);
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

const runId = (label: string) => corpus.getRun(corpus.getEvalSet('ns')!.id, label)!.id;
const label = (prediction: number, annotator: string, labels = ['format.unparseable']) =>
  setLabels(corpus, { target: { prediction }, labels, annotator });
const queue = (annotator: string) => buildQueue(corpus, { set: 'ns', run: 'm', annotator });

describe('reviews per item', () => {
  it('is kept per run, in the corpus: none at first, set, changed, removed, seen by another connection', () => {
    expect(reviewQuotaOf(corpus, 'ns', 'm')).toEqual({ set: 'ns', run: 'm', reviews: null });
    setReviewQuota(corpus, 'ns', 'm', 3, 'ada');
    setReviewQuota(corpus, 'ns', 'm', 2, 'ada');
    const r = openCorpus(path, { readonly: true });
    expect(reviewQuotaOf(r, 'ns', 'm').reviews).toBe(2);
    expect(reviewQuotaOf(r, 'ns', 'other').reviews).toBeNull();
    r.close();
    setReviewQuota(corpus, 'ns', 'other', 1, null);
    setReviewQuota(corpus, 'ns', 'other', null, null);
    expect(corpus.reviewQuota(runId('other'))).toBeUndefined();
    expect(() => corpus.setReviewQuota(runId('m'), 0)).toThrow(/CHECK constraint/);
  });

  it("refuses a third person's labels on an item two reviewed, naming the item; writes nothing", () => {
    const p = preds[0];
    label(p, 'ada');
    label(p, 'bob');
    const before = corpus.listAnnotations().length;
    const key = items.find((it) => it.id === corpus.predictionRef(p)!.itemId)!.key;
    expect(() => label(p, 'cy')).toThrow(
      `item ${key} (prediction ${p}, draw 1) has its 2 reviews already (ada, bob): ns/m takes 2 per item, ` +
        "so cy's is refused",
    );
    expect(corpus.listAnnotations().length).toBe(before);
    expect(corpus.getAnnotation(`prediction:${p}`, 'cy')).toBeUndefined();
  });

  it('lets the reviewers change their labels and notes, anyone skip, and an adjudicator decide', () => {
    const p = preds[0];
    expect(label(p, 'ada', ['format.truncated']).labels).toEqual(['format.truncated']);
    expect(setLabels(corpus, { target: { prediction: p }, note: 'cut', annotator: 'bob' }).note).toBe('cut');
    expect(skipTarget(corpus, { prediction: p }, 'cy').skipped).toBe(true);
    const adj = setLabels(corpus, {
      target: { prediction: p },
      labels: ['format.truncated'],
      annotator: 'di',
      role: 'adjudicator',
    });
    expect(adj.role).toBe('adjudicator');
    // A skip is no review: cy's labels after it are still one too many.
    expect(() => label(p, 'cy')).toThrow(/has its 2 reviews already/);
  });

  it('a place freed (a reviewer undoes their labels) is free again', () => {
    const p = preds[1];
    label(p, 'ada');
    label(p, 'bob');
    expect(() => label(p, 'cy')).toThrow(/has its 2 reviews already \(ada, bob\)/);
    undoLast(corpus, 'bob'); // bob's creation undone
    expect(label(p, 'cy').annotator).toBe('cy');
  });

  it("the queue leaves full items out of others' queues, keeps them in the reviewers', and says the setting", () => {
    const cy = queue('cy');
    expect(cy.reviews).toBe(2);
    // preds[0]: ada and bob; preds[1]: ada and cy. cy skipped preds[0], so it stays in her queue.
    expect(cy.entries.map((e) => e.prediction)).toContain(preds[0]);
    const eve = queue('eve').entries.map((e) => e.prediction);
    expect(eve).not.toContain(preds[0]);
    expect(eve).not.toContain(preds[1]);
    expect(eve).toHaveLength(preds.length - 2);
    expect(queue('bob').entries.map((e) => e.prediction)).toContain(preds[0]);
    expect(queue('eve').progress).toEqual([]); // nobody did anything on the entries eve is offered
    // Over ada's entries (both items): people who labeled or skipped them; bob's undone one is gone.
    expect(queue('ada').progress).toEqual([
      { annotator: 'ada', done: 2 },
      { annotator: 'cy', done: 2 },
      { annotator: 'bob', done: 1 },
    ]);
  });
});
