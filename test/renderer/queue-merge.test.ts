// The labeling session's queue (renderer/src/lib/queue-merge.ts): labeling an item of a
// "labeled by nobody" queue must not move the items after it under the annotator's keys,
// and the progress must follow each change. Queues are written out by hand.
import { describe, expect, it } from 'vitest';
import type { Queue, QueueEntry } from '../../src/contract/index.js';
import { sessionQueue, type Touched } from '../../renderer/src/lib/queue-merge.js';

const entry = (prediction: number, mine: QueueEntry['mine'] = null): QueueEntry => ({
  prediction,
  item: prediction,
  key: `sample_${prediction}`,
  action: 'step_over',
  sample: 0,
  annotators: [],
  mine,
  prelabels: [],
});
const queue = (entries: QueueEntry[], counts: Record<string, number> = {}): Queue => ({
  entries,
  done: entries.filter((e) => e.mine).length,
  position: 0,
  counts,
  reviews: null,
  progress: [],
  facets: { actions: [], annotators: [], prelabels: [] },
});

describe('the session queue', () => {
  it('keeps every entry in place and counts a new label as done', () => {
    const open = queue([entry(1), entry(2), entry(3)]);
    const touched = new Map<number, Touched>([
      [1, { before: null, now: { labels: ['data.wrong_value', 'data.wrong_type'], skipped: false } }],
    ]);
    const q = sessionQueue(open, touched);
    expect(q.entries.map((e) => [e.prediction, e.mine])).toEqual([
      [1, 'labeled'],
      [2, null],
      [3, null],
    ]);
    expect([q.done, q.position]).toEqual([1, 0]);
    expect(q.counts).toEqual({ 'data.wrong_value': 1, 'data.wrong_type': 1 });
  });

  it('a changed label moves from one count to the other; a label taken off leaves no zero count', () => {
    const open = queue([entry(1, 'labeled'), entry(2, 'labeled')], { 'data.wrong_value': 2 });
    const q = sessionQueue(
      open,
      new Map([
        [
          2,
          {
            before: { labels: ['data.wrong_value'], skipped: false },
            now: { labels: ['return.wrong_value'], skipped: false },
          },
        ],
      ]),
    );
    expect(q.counts).toEqual({ 'data.wrong_value': 1, 'return.wrong_value': 1 });
    const r = sessionQueue(
      queue([entry(1, 'labeled')], { 'data.wrong_value': 1 }),
      new Map([[1, { before: { labels: ['data.wrong_value'], skipped: false }, now: { labels: [], skipped: false } }]]),
    );
    expect(r.counts).toEqual({});
    expect(r.done).toBe(1); // an annotation without labels is still this annotator's
  });

  it('a skip counts as done without labels; an undone creation is not done', () => {
    const open = queue([entry(1), entry(2, 'labeled')], { 'data.wrong_value': 1 });
    const q = sessionQueue(
      open,
      new Map([
        [1, { before: null, now: { labels: [], skipped: true } }],
        [2, { before: { labels: ['data.wrong_value'], skipped: false }, now: null }],
      ]),
    );
    expect(q.entries.map((e) => e.mine)).toEqual(['skipped', null]);
    expect(q.done).toBe(1);
    expect(q.counts).toEqual({});
  });
});
