/**
 * A run's reviews per item (docs/annotation.md, "Reviews per item"): how many people label each
 * of its predictions. Stored in the corpus (migration 011); the store refuses a review beyond it
 * and the queue (queue.ts) leaves full items out of everyone else's.
 */
import type { ReviewQuota } from '../contract/annotations.js';
import { requireRun, requireSet } from '../predictions/views.js';
import type { Corpus, ReadCorpus } from '../store/corpus.js';

export function reviewQuotaOf(corpus: ReadCorpus, setName: string, runLabel: string): ReviewQuota {
  const set = requireSet(corpus, setName);
  const run = requireRun(corpus, set, runLabel);
  return { set: set.name, run: run.label, reviews: corpus.reviewQuota(run.id) ?? null };
}

/** Sets the run's reviews per item (null: no limit); the reviews already given all stay. */
export function setReviewQuota(
  corpus: Corpus,
  setName: string,
  runLabel: string,
  reviews: number | null,
  author: string | null,
): ReviewQuota {
  const set = requireSet(corpus, setName);
  const run = requireRun(corpus, set, runLabel);
  corpus.setReviewQuota(run.id, reviews, author);
  return { set: set.name, run: run.label, reviews };
}
