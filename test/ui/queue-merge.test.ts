// The labeling session's queue (renderer/src/lib/queue-merge.ts): labeling an item of a
// "labeled by nobody" queue must not move the items after it under the annotator's keys,
// and the progress must count it. Queues are written out by hand.
import { describe, expect, it } from 'vitest';
import type { AnnotationInfo, Queue, QueueEntry } from '../../src/api/contract/index.js';
import { mergeQueue } from '../../renderer/src/lib/queue-merge.js';

const entry = (prediction: number, mine: QueueEntry['mine'] = null): QueueEntry => ({
  prediction, item: prediction, key: `sample_${prediction}`, action: 'step_over', sample: 0, annotators: [], mine, prelabels: [],
});
const queue = (entries: QueueEntry[], counts: Record<string, number> = {}): Queue => ({
  entries, done: entries.filter((e) => e.mine).length, position: 0, counts, facets: { actions: [], annotators: [], prelabels: [] },
});
const saved = (prediction: number, labels: string[], skipped = false) =>
  ({ prediction, labels, skipped, target: `prediction:${prediction}` }) as AnnotationInfo;

describe('the session queue', () => {
  it('keeps an item that left the filter in its place, counted as done with its labels', () => {
    const open = queue([entry(1), entry(2), entry(3)]);
    // The corpus now: item 1 labeled (gone from "labeled by nobody"), 2 and 3 left.
    const fresh = queue([entry(2), entry(3)]);
    const q = mergeQueue(open, fresh, new Map([[1, saved(1, ['data.wrong_value', 'data.wrong_type'])]]));
    expect(q.entries.map((e) => e.prediction)).toEqual([1, 2, 3]);
    expect(q.entries.map((e) => e.mine)).toEqual(['labeled', null, null]);
    expect(q.done).toBe(1);
    expect(q.counts).toEqual({ 'data.wrong_value': 1, 'data.wrong_type': 1 });
  });

  it('takes what the corpus says for entries still in the filter, and ignores entries that joined it', () => {
    const open = queue([entry(1), entry(2)]);
    const fresh = queue([entry(1, 'skipped'), entry(2, 'labeled'), entry(9)], { 'return.wrong_value': 1 });
    const q = mergeQueue(open, fresh, new Map());
    expect(q.entries.map((e) => [e.prediction, e.mine])).toEqual([[1, 'skipped'], [2, 'labeled']]);
    expect(q.done).toBe(2);
    expect(q.counts).toEqual({ 'return.wrong_value': 1 });
  });

  it('a skipped item that left the filter counts as done without labels; an undone creation is not done', () => {
    const open = queue([entry(1, 'labeled'), entry(2)]);
    const q = mergeQueue(open, queue([]), new Map([[1, saved(1, [])], [2, saved(2, ['data.wrong_value'], true)]]));
    expect(q.entries.map((e) => e.mine)).toEqual([null, 'skipped']);
    expect(q.done).toBe(1);
    expect(q.counts).toEqual({});
  });
});
