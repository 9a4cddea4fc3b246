// The labeling queue and one item's view (src/labeling/queue.ts, item.ts; docs/annotation.md
// "The queue"), in process, on a run of three kinds of completions per item: the truth
// (passes), the truth with one local's value changed (wrong locals only) and text that is no
// state (wrong on every field). Expected entries are worked out here from the items' order
// and the labels each test writes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { annotationItem } from '../../src/labeling/item.js';
import { buildQueue, type QueueFilter } from '../../src/labeling/queue.js';
import { setLabels, skipTarget } from '../../src/labeling/write.js';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import type { Corpus, NewAnnotation, StoredItem } from '../../src/store/corpus.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, vectorTraces } from '../predictions/helpers.js';

let corpus: Corpus;
let items: StoredItem[];
/**
 * Per item (in the set's order), the prediction ids of the text that is no state (sample 1) and of the wrong locals
 * (sample 0, where the item has a local to change).
 */
const garbage: number[] = [];
const localsOnly: number[] = [];

/** The target with its first local's value changed, or null when it shows no local. */
function withWrongLocal(target: string): string | null {
  const m = /"([A-Za-z_]\w*)": "([^"\\]*)"/.exec(target);
  return m ? target.replace(m[0], `"${m[1]}": "${m[2]}0"`) : null;
}

beforeAll(async () => {
  let dir: string;
  ({ corpus, dir } = await corpusOf(vectorTraces().traces, 'stepscope-queue-'));
  const { set } = createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: 2, seed: 5 });
  // In the set's order (the queue's).
  items = [...corpus.iterateItems(set.id)].sort((a, b) => a.ord - b.ord);
  // Imported last item first: the queue's order is the set's (then the sample's), not the file's.
  // An item's lines are numbered as samples in file order, so the wrong-locals one is sample 0.
  const lines = items
    .flatMap((it) => [
      { id: it.id, sample: 0, completion: 'oops, no state' },
      { id: it.id, sample: 1, completion: withWrongLocal(it.target) ?? it.target },
    ])
    .reverse();
  const file = join(dir, 'p.jsonl');
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));
  importPredictions(corpus, { file, set: 'ns', label: 'r' });
  const preds = [...corpus.iteratePredictions({ setId: set.id })];
  for (const it of items) {
    garbage.push(preds.find((p) => p.itemId === it.id && p.completion === 'oops, no state')!.id);
    const one = preds.find((p) => p.itemId === it.id && p.completion !== 'oops, no state')!;
    if (withWrongLocal(it.target) !== null) localsOnly.push(one.id);
  }
}, 120_000);
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

const q = (annotator: string, f: Partial<QueueFilter> = {}) =>
  buildQueue(corpus, { set: 'ns', run: 'r', annotator, ...f });

describe('buildQueue', () => {
  it('the failures in item order, then sample order, whatever the order they were imported in; a filter by wrong field keeps those wrong on every field named', () => {
    expect(localsOnly.length).toBeGreaterThan(2);
    const all = q('ada');
    // Both samples of an item fail where the item has a local to change; item order first.
    const expected = items.flatMap((it, i) => [
      ...localsOnly.filter((p) => corpus.predictionRef(p)!.itemId === it.id),
      garbage[i],
    ]);
    expect(all.entries.map((e) => e.prediction)).toEqual(expected);
    expect(all.entries.map((e) => e.sample)).toEqual(expected.map((p) => (garbage.includes(p) ? 1 : 0)));
    expect(all.position).toBe(0);
    expect(all.facets.actions).toEqual([...new Set(items.map((it) => it.action))].sort());
    // Text that is no state is wrong on every field its item's truth shows (a line state shows no arg, a return no
    // locals).
    const shows = (p: number, field: string) => {
      const t = items.find((it) => it.id === corpus.predictionRef(p)!.itemId)!.target;
      return field === 'locals' ? t.includes('<|arg_sep|>{') : t.includes('<|src_sep|>');
    };
    expect(q('ada', { wrong: ['locals'] }).entries.map((e) => e.prediction)).toEqual(
      expected.filter((p) => localsOnly.includes(p) || shows(p, 'locals')),
    );
    expect(q('ada', { wrong: ['src'] }).entries.map((e) => e.prediction)).toEqual(
      garbage.filter((p) => shows(p, 'src')),
    );
    expect(q('ada', { wrong: ['locals', 'src'] }).entries.map((e) => e.prediction)).toEqual(
      garbage.filter((p) => shows(p, 'locals') && shows(p, 'src')),
    );
    expect(q('ada', { wrong: [] }).entries).toHaveLength(expected.length);
    expect(q('ada', { failed: false }).entries).toHaveLength(items.length * 2);
  });

  it('labeled yes / no, by whom, resume position and done count, need: each item goes to the first m people who reach it', () => {
    const all = q('ada').entries.map((e) => e.prediction);
    setLabels(corpus, { target: { prediction: all[0] }, labels: ['format.unparseable'], annotator: 'carol' });
    setLabels(corpus, { target: { prediction: all[0] }, labels: ['format.unparseable'], annotator: 'bob' });
    setLabels(corpus, { target: { prediction: all[1] }, labels: ['data.wrong_value'], annotator: 'ada' });
    skipTarget(corpus, { prediction: all[2] }, 'bob');
    // An adjudicator's labels are not a labeler's.
    setLabels(corpus, {
      target: { prediction: all[3] },
      labels: ['other.other'],
      annotator: 'dan',
      role: 'adjudicator',
    });

    const ada = q('ada');
    expect(ada.entries[0]).toMatchObject({ annotators: ['bob', 'carol'], mine: null });
    expect(ada.entries[1]).toMatchObject({ annotators: ['ada'], mine: 'labeled' });
    expect(ada.entries[2]).toMatchObject({ annotators: [], mine: null });
    expect(ada.entries[3]).toMatchObject({ annotators: [], mine: null });
    expect(ada.position).toBe(0);
    expect(ada.done).toBe(1);
    expect(ada.counts).toEqual({ 'data.wrong_value': 1 });
    expect(ada.facets.annotators).toEqual(['ada', 'bob', 'carol']);

    const bob = q('bob');
    expect(bob.entries[2]).toMatchObject({ mine: 'skipped' });
    expect(bob.position).toBe(1);
    expect(bob.done).toBe(2);

    expect(q('ada', { labeled: 'yes' }).entries.map((e) => e.prediction)).toEqual([all[0], all[1]]);
    expect(q('ada', { labeled: 'no' }).entries.map((e) => e.prediction)).toEqual(all.slice(2));
    expect(q('ada', { by: 'carol' }).entries.map((e) => e.prediction)).toEqual([all[0]]);
    // need 2: all[0] has two people already, so it is left out for ada; need 1 leaves out all[1] too, but not for ada
    // who labeled it.
    expect(q('ada', { need: 2 }).entries.map((e) => e.prediction)).toEqual(all.slice(1));
    expect(q('ada', { need: 1 }).entries.map((e) => e.prediction)).toEqual(all.slice(1));
    expect(q('eve', { need: 1 }).entries.map((e) => e.prediction)).toEqual(all.slice(2));
    expect(q('bob', { need: 2 }).entries.map((e) => e.prediction)).toEqual(all);
    // Done with every entry in view: the position is past the end.
    const mineOnly = q('ada', { by: 'ada' });
    expect(mineOnly.entries.map((e) => e.prediction)).toEqual([all[1]]);
    expect(mineOnly.position).toBe(1);
    // The rules' labels offered as a filter, sorted.
    const rule = (prediction: number, label: string, name: string): NewAnnotation => ({
      target: `prediction:${prediction}`,
      prediction,
      trace: null,
      seq: null,
      action: null,
      annotator: `rule:${name}`,
      role: 'annotator',
      source: 'rule',
      rule: name,
      labels: [label],
      note: null,
      status: 'suggested',
      skipped: false,
      active: true,
      taxonomy: 1,
    });
    corpus.saveAnnotations([rule(all[4], 'other.other', 'a'), rule(all[5], 'format.unparseable', 'b')], 'rules');
    expect(q('ada').facets.prelabels).toEqual(['format.unparseable', 'other.other']);
    expect(q('ada', { prelabel: 'other.other' }).entries.map((e) => e.prediction)).toEqual([all[4]]);
  });
});

describe('annotationItem', () => {
  it("shows the program, the prediction read against the truth, the rules' suggestions apart from people, my labels and who labeled", () => {
    // The last item's: no other test labels it.
    const p = garbage.at(-1)!;
    corpus.saveAnnotations(
      [
        {
          target: `prediction:${p}`,
          prediction: p,
          trace: null,
          seq: null,
          action: null,
          annotator: 'rule:parse-error',
          role: 'annotator',
          source: 'rule',
          rule: 'parse-error',
          labels: ['format.unparseable'],
          note: 'no state',
          status: 'suggested',
          skipped: false,
          active: true,
          taxonomy: 1,
        },
      ],
      'rules',
    );
    setLabels(corpus, { target: { prediction: p }, labels: ['format.unparseable'], annotator: 'carol' });
    setLabels(corpus, { target: { prediction: p }, labels: ['format.truncated'], annotator: 'bob' });
    setLabels(corpus, { target: { prediction: p }, labels: ['other.other'], annotator: 'dan', role: 'adjudicator' });
    skipTarget(corpus, { prediction: p }, 'eve');
    const item = annotationItem(corpus, p, 'carol');
    const stored = items.at(-1)!;
    expect(item.code).toBe(corpus.getTrace(stored.traceId)!.context_forward);
    expect(item.item).toMatchObject({ id: stored.id, key: stored.key, prompt: stored.prompt, target: stored.target });
    expect(item.predicted).toBeNull();
    // No state read: wrong on the event and on every other field the truth shows.
    expect(item.wrong[0]).toBe('event');
    expect(item.wrong.includes('locals')).toBe(stored.target.includes('<|arg_sep|>{'));
    expect(item.prelabels).toEqual([
      {
        id: expect.any(Number),
        label: 'format.unparseable',
        rule: 'parse-error',
        reason: 'no state',
        status: 'rejected',
      },
    ]); // bob's labels, the last given, leave it out
    expect(item.mine).toMatchObject({ annotator: 'carol', labels: ['format.unparseable'] });
    expect(item.annotators).toEqual(['bob', 'carol']);
    expect(annotationItem(corpus, p, 'zed').mine).toBeNull();
    expect(annotationItem(corpus, p, 'dan').mine).toBeNull();

    const wrongLocal = annotationItem(corpus, localsOnly[0], 'ada');
    expect(wrongLocal.predicted).not.toBeNull();
    expect(wrongLocal.wrong).toEqual(['locals']);
    expect(wrongLocal.diff).not.toBeNull();
    expect(() => annotationItem(corpus, 99999, 'ada')).toThrow(
      'no prediction with id 99999 (stepscope predictions lists them)',
    );
  });
});
