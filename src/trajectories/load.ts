/** Loads a stored trace with its semantics index (Node side). */
import { UserError } from '../common/errors.js';
import { buildTraceIndex, type TreeIndex } from '../semantics/index.js';
import type { ReadCorpus, TraceRecord } from '../store/corpus.js';
import type { TraceEvent } from '../trace/types.js';

export interface LoadedTrace {
  record: TraceRecord;
  events: TraceEvent[];
  index: TreeIndex;
}

/** A not-found UserError naming the corpus and the id when there is no such trace. */
export function loadTrace(corpus: ReadCorpus, traceId: number): LoadedTrace {
  const record = corpus.getTrace(traceId);
  if (!record) throw new UserError(`${corpus.path} has no trace with id ${traceId}`, 'not-found');
  const events = corpus.getEvents(traceId);
  return { record, events, index: buildTraceIndex(events) };
}
