/** Loads a stored trace with its semantics index (Node side). */
import type { Corpus, TraceRecord } from '../store/corpus.js';
import { buildTraceIndex, type TreeIndex } from '../semantics/index.js';
import type { TraceEvent } from '../trace/types.js';

export interface LoadedTrace {
  record: TraceRecord;
  events: TraceEvent[];
  index: TreeIndex;
}

/** Throws a RangeError naming the id when the corpus has no such trace. */
export function loadTrace(corpus: Corpus, traceId: number): LoadedTrace {
  const record = corpus.getTrace(traceId);
  if (!record) throw new RangeError(`${corpus.path} has no trace with id ${traceId}`);
  const events = corpus.getEvents(traceId);
  return { record, events, index: buildTraceIndex(events) };
}
