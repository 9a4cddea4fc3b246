/** The traces domain's handlers (contract: ../contract/traces.ts). */
import { UserError } from '../../common/errors.js';
import type { ReadCorpus } from '../../store/corpus.js';
import type { TraceEnd, TraceHeader } from '../../trace/types.js';
import { MAX_EVENT_WINDOW, type Api, type TraceInfo } from '../../contract/index.js';
import { encodeSkeleton, skeletonBytes, skeletonWireFromBytes } from '../../trace/skeleton.js';
import type { TraceCache } from './trace-cache.js';

export function traceHandlers(
  corpus: ReadCorpus,
  cache: TraceCache,
): Pick<Api, 'listTraces' | 'getTrace' | 'getEvents' | 'getSkeleton'> {
  return {
    listTraces(p) {
      return corpus.listTraces({
        search: p.name,
        code: p.code,
        value: p.value,
        exit: p.exit,
        sort: p.sort,
        desc: p.desc,
        offset: p.offset ?? 0,
        limit: p.limit ?? 100,
      });
    },

    getTrace(p): TraceInfo {
      const r = cache.record(p.id);
      const header: TraceHeader = {
        name: r.name,
        mode: r.mode,
        python: r.python,
        hashseed: r.hashseed,
        filename: r.filename,
        source: r.source,
        call: r.call,
        context_forward: r.context_forward,
        context_inverse: r.context_inverse,
        limits: r.limits,
        meta: r.meta,
      };
      const end: TraceEnd = { exit: r.exit, reason: r.reason, events: r.events, seconds: r.seconds };
      if (r.stdout_bytes !== undefined) end.stdout_bytes = r.stdout_bytes;
      if (r.tampered !== undefined) end.tampered = r.tampered;
      return { id: r.id, header, end };
    },

    getEvents(p) {
      if (p.to < p.from) throw new UserError(`getEvents: to (${p.to}) is before from (${p.from})`, 'bad-input');
      if (p.to - p.from > MAX_EVENT_WINDOW)
        throw new UserError(
          `getEvents: at most ${MAX_EVENT_WINDOW} events at once, asked for ${p.to - p.from}`,
          'bad-input',
        );
      cache.record(p.traceId);
      return corpus.getEvents(p.traceId, p.from, p.to);
    },

    getSkeleton(p) {
      const b = cache.get(p.traceId).skeleton;
      return skeletonWireFromBytes(b, (x) => Buffer.from(x.buffer, x.byteOffset, x.byteLength).toString('base64'));
    },
  };
}

/**
 * getSkeleton answered as bytes (skeletonBytes, src/trace/skeleton.ts) for a client that asks
 * for application/octet-stream: straight from the kept row (or packed from the events when the
 * trace has none), without opening the trace, so it runs beside the first walk, which does.
 */
export function traceBytesHandlers(
  corpus: ReadCorpus,
  cache: TraceCache,
): { getSkeleton(p: { traceId: number }): Uint8Array } {
  return {
    getSkeleton(p) {
      cache.record(p.traceId); // the API's wording for an unknown id
      return (
        corpus.getSkeletonBytes(p.traceId) ??
        skeletonBytes(encodeSkeleton({ count: 0, kind: [], parent: [], frame: [], line: [], func: [], funcs: [] }))
      );
    },
  };
}
