/**
 * The queue a session keeps while labeling: the entries as opened, so that labeling an item
 * of a "labeled by nobody" queue does not pull the items after it one place back under the
 * annotator's keys; their states, pre-labels and counts refreshed from the corpus. An entry
 * the fresh queue no longer holds (it just left the filter because it was labeled) keeps its
 * place, with this annotator's state and labels from the annotation saved in this session.
 * Entries that joined the filter since it was opened wait for the next opening.
 */
import type { AnnotationInfo, Queue } from '../../../src/api/contract/index.js';

export function mergeQueue(open: Queue, fresh: Queue, saved: ReadonlyMap<number, AnnotationInfo>): Queue {
  const now = new Map(fresh.entries.map((e) => [e.prediction, e]));
  const counts = { ...fresh.counts };
  const entries = open.entries.map((e) => {
    const f = now.get(e.prediction);
    if (f) return f;
    const a = saved.get(e.prediction);
    if (!a) return e;
    // No labels and not skipped: its creation was undone (or every label taken off).
    if (!a.skipped && a.labels.length === 0) return { ...e, mine: null };
    if (!a.skipped) for (const l of a.labels) counts[l] = (counts[l] ?? 0) + 1;
    return { ...e, mine: a.skipped ? ('skipped' as const) : ('labeled' as const) };
  });
  return { ...fresh, entries, counts, done: entries.filter((e) => e.mine !== null).length, position: open.position };
}
