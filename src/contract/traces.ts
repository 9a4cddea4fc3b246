/** The traces domain of the API: the corpus listing, one trace's header, events and shape. */
import { TRACE_SORTS, type TraceRow } from '../trace/listing.js';
import { TRACE_EXITS, type TraceEnd, type TraceEvent, type TraceHeader } from '../trace/types.js';
import { read } from './method.js';
import type { SkeletonWire } from '../trace/skeleton.js';
import { bool, int, object, oneOf, optional, str } from './validate.js';

/** The id of a stored trace or trajectory, as every method and command takes it. */
export const recordId = int(1);

/** Largest window getEvents returns at once. */
export const MAX_EVENT_WINDOW = 5000;

export const traceMethods = {
  listTraces: read(
    object({
      name: optional(str(1000)),
      code: optional(str(1000)),
      value: optional(str(1000)),
      exit: optional(oneOf(TRACE_EXITS)),
      sort: optional(oneOf(TRACE_SORTS)),
      desc: optional(bool),
      offset: optional(int(0)),
      limit: optional(int(1, 1000)),
    }),
  ),
  getTrace: read(object({ id: recordId })),
  getEvents: read(object({ traceId: recordId, from: int(0), to: int(0) })),
  getSkeleton: read(object({ traceId: recordId })),
  findInTrace: read(object({ traceId: recordId, text: str(1000), limit: optional(int(1, 10_000)) })),
};

export interface TraceInfo {
  id: number;
  header: TraceHeader;
  end: TraceEnd;
}

export interface TraceResults {
  listTraces: { total: number; rows: TraceRow[] };
  getTrace: TraceInfo;
  getEvents: TraceEvent[];
  /** Packed columns (skeleton.ts): decodeSkeleton gives the Skeleton. */
  getSkeleton: SkeletonWire;
  /** Seqs (time order, the first `limit`) of the states whose src, locals or value hold `text`. */
  findInTrace: { total: number; seqs: number[] };
}
