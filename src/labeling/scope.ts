/** Which annotations a `--set S [--model M]` (or the API's `{set, run}`) asks for. */
import { requireRun, requireSet } from '../predictions/views.js';
import type { AnnotationQuery, ReadCorpus } from '../store/corpus.js';
import { labelCounts, annotationInfo } from './info.js';

export function annotationScope(corpus: ReadCorpus, set?: string, run?: string): AnnotationQuery {
  if (set === undefined) return {};
  const s = requireSet(corpus, set);
  return run === undefined ? { setId: s.id } : { runId: requireRun(corpus, s, run).id };
}

/** The annotations in scope and, per label, how many people's annotations give it. */
export function labelListing(corpus: ReadCorpus, o: { set?: string; run?: string; annotator?: string }) {
  const rows = corpus
    .listAnnotations({ ...annotationScope(corpus, o.set, o.run), annotator: o.annotator })
    .map(annotationInfo);
  return { counts: labelCounts(rows.filter((a) => a.source === 'person' && !a.skipped)), rows };
}
