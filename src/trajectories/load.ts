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
  // One event at a time: the rows are never all held beside the events made from them.
  const events: TraceEvent[] = [];
  for (const e of corpus.iterateEvents(traceId)) events.push(e);
  return { record, events, index: buildTraceIndex(events) };
}
