// The labeling queue's progress line (renderer/src/views/label/Progress.svelte): this
// annotator's done / total, every other annotator's over the same entries, and the run's
// reviews per item when it has a limit.
import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { Queue, QueueEntry } from '../../../src/contract/index.js';
import Progress from '../../../renderer/src/views/label/Progress.svelte';

const entry = (prediction: number, mine: QueueEntry['mine']): QueueEntry => ({
  prediction,
  item: prediction,
  key: `t/${prediction}`,
  action: 'step_over',
  sample: 0,
  annotators: [],
  mine,
  prelabels: [],
});

const queue = (reviews: number | null): Queue => ({
  entries: [entry(1, 'labeled'), entry(2, null), entry(3, null), entry(4, 'skipped')],
  done: 2,
  position: 1,
  counts: {},
  reviews,
  progress: [
    { annotator: 'bob', done: 3 },
    { annotator: 'flo', done: 2 },
    { annotator: 'ada', done: 1 },
  ],
  facets: { actions: [], annotators: [], prelabels: [] },
});

describe('Progress', () => {
  it("shows this annotator's progress, then each other annotator's done / total", () => {
    render(Progress, { props: { queue: queue(2), index: 1, annotator: 'flo', labelName: (id: string) => id } });
    expect(screen.getByTestId('progress-text').textContent).toBe('2 / 4 done');
    expect(screen.getAllByTestId('annotator-progress').map((e) => e.textContent)).toEqual(['bob 3 / 4', 'ada 1 / 4']);
    expect(screen.getByTestId('reviews-per-item').textContent).toBe('2 reviews per item');
  });

  it('says nothing of reviews when the run has no limit', () => {
    render(Progress, { props: { queue: queue(null), index: 0, annotator: 'zed', labelName: (id: string) => id } });
    expect(screen.getAllByTestId('annotator-progress')).toHaveLength(3);
    expect(screen.queryByTestId('reviews-per-item')).toBeNull();
  });
});
