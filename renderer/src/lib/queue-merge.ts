/**
 * The queue a labeling session shows: the entries as the queue was opened, with this
 * annotator's changes of the session applied in the page, so the progress (done, labels per
 * label) follows each save without asking the server to rebuild the queue (on the whole
 * CRUXEval run that takes seconds, and would hold up the next item). The entries stay in
 * place: labeling an item of a "labeled by nobody" queue counts it as done, and the items
 * after it do not move one place back under the annotator's keys.
 */
import type { Queue, QueueEntry } from '@core/contract/index.js';

/** This annotator's annotation of an item: its labels and whether it was skipped; null for none. */
export type Mine = { labels: readonly string[]; skipped: boolean } | null;

/** An item changed in this session: its annotation when the session first touched it, and now. */
export interface Touched {
  before: Mine;
  now: Mine;
}

const stateOf = (m: Mine): QueueEntry['mine'] => (m === null ? null : m.skipped ? 'skipped' : 'labeled');

export function sessionQueue(open: Queue, touched: ReadonlyMap<number, Touched>): Queue {
  const counts = { ...open.counts };
  const add = (m: Mine, by: number) => {
    if (m && !m.skipped) for (const l of m.labels) counts[l] = (counts[l] ?? 0) + by;
  };
  const entries = open.entries.map((e) => {
    const t = touched.get(e.prediction);
    if (!t) return e;
    add(t.before, -1);
    add(t.now, +1);
    return { ...e, mine: stateOf(t.now) };
  });
  for (const [l, n] of Object.entries(counts)) if (n <= 0) delete counts[l];
  return { ...open, entries, counts, done: entries.filter((e) => e.mine !== null).length };
}
