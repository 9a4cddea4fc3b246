/** Runs a run's pending execution checks with a progress bar (TEMPORARY: engine not merged yet). */
import type { Corpus } from '../store/corpus.js';

export async function runChecks(corpus: Corpus, runId: number): Promise<number> {
  const pending = corpus.pendingChecks(runId).length;
  if (pending) console.error(`${pending} execution checks pending`);
  return 0;
}
