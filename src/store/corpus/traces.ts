/**
 * Traces and their events: listing, one trace, its events (a primary-key range scan), its
 * layout (shape, packed skeleton) and, on a writable corpus, ingesting trace files in one
 * transaction each. SQL: queries/traces.ts, queries/events.ts, queries/skeletons.ts;
 * ingest: ../ingest.ts.
 */
import type { TraceQuery, TraceRow } from '../../trace/listing.js';
import type { SkeletonWire } from '../../trace/skeleton.js';
import type { TraceEvent } from '../../trace/types.js';
import { ingestFile, ingestStream, type IngestOptions, type IngestResult } from '../ingest.js';
import { getEvents, iterateEvents, traceShape, type TraceShape } from '../queries/events.js';
import { packedSkeleton, packedSkeletonBytes } from '../queries/skeletons.js';
import {
  counts,
  getTrace,
  listTraces,
  traceIds,
  traceIdsNamed,
  traceIdsOfPrograms,
  type CorpusCounts,
  type TraceRecord,
} from '../queries/traces.js';
import type { CorpusClass } from './base.js';

export function TraceReads<B extends CorpusClass>(Base: B) {
  return class TraceReads extends Base {
    listTraces(q: TraceQuery = {}): { total: number; rows: TraceRow[] } {
      return this.guard(() => listTraces(this.conn, q));
    }

    getTrace(id: number): TraceRecord | undefined {
      return this.guard(() => getTrace(this.conn, id));
    }

    /** Every trace id, in id order. */
    traceIds(): number[] {
      return this.guard(() => traceIds(this.conn));
    }

    /** The ids of the traces of these programs, in id order. */
    traceIdsOfPrograms(programIds: number[]): number[] {
      return this.guard(() => traceIdsOfPrograms(this.conn, programIds));
    }

    /** The ids of the traces named `name`, in id order. */
    traceIdsNamed(name: string): number[] {
      return this.guard(() => traceIdsNamed(this.conn, name));
    }

    counts(): CorpusCounts {
      return this.guard(() => counts(this.conn));
    }

    /** Events with fromSeq <= seq < toSeq, in seq order (one primary-key range scan). */
    getEvents(traceId: number, fromSeq = 0, toSeq = Infinity): TraceEvent[] {
      return this.guard(() => getEvents(this.conn, traceId, fromSeq, toSeq));
    }

    /** The columns that lay out a trace's trees (no values), or null when it has no events. */
    getTraceShape(traceId: number): TraceShape | null {
      return this.guard(() => traceShape(this.conn, traceId));
    }

    /**
     * The trace's packed skeleton (what getTraceShape gives, packed): the row kept at ingest,
     * else packed from the events; null when the trace has no events.
     */
    getPackedSkeleton(traceId: number): SkeletonWire | null {
      return this.guard(() => packedSkeleton(this.conn, traceId));
    }

    /** The same skeleton as bytes (skeletonBytes, src/trace/skeleton.ts): the kept row as it is. */
    getSkeletonBytes(traceId: number): Uint8Array | null {
      return this.guard(() => packedSkeletonBytes(this.conn, traceId));
    }

    /** Like getEvents, one event at a time; see queries/events.ts for the iterator rule. */
    iterateEvents(traceId: number, fromSeq = 0, toSeq = Infinity): Generator<TraceEvent> {
      return iterateEvents(this.conn, traceId, fromSeq, toSeq);
    }
  };
}

export function TraceWrites<B extends CorpusClass>(Base: B) {
  return class TraceWrites extends Base {
    /** Reads one trace file ('-' for stdin) in one transaction; see ingest.ts. */
    async ingest(file: string, opts?: IngestOptions): Promise<IngestResult> {
      this.assertWritable();
      return ingestFile(this.conn, file, opts);
    }

    async ingestStream(chunks: AsyncIterable<Buffer>, label: string, opts?: IngestOptions): Promise<IngestResult> {
      this.assertWritable();
      return ingestStream(this.conn, chunks, label, opts);
    }
  };
}
