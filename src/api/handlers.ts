/**
 * The API methods, implemented once over a Corpus and the semantics; both transports
 * (HTTP server, Electron IPC) serve this object through dispatch().
 */
import type { Corpus } from '../store/corpus.js';
import { TraceShapeError, WalkError, parseAction, walkView } from '../semantics/index.js';
import type { TraceHeader, TraceEnd } from '../trace/types.js';
import { MAX_EVENT_WINDOW, type Api, type TraceInfo } from './contract.js';
import { ApiError } from './result.js';
import { TraceCache } from './trace-cache.js';
import { trajectoryApi } from './trajectories.js';

export function createApi(corpus: Corpus): Api {
  const cache = new TraceCache(() => corpus);
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
        name: r.name, mode: r.mode, python: r.python, hashseed: r.hashseed, filename: r.filename, source: r.source,
        call: r.call, context_forward: r.context_forward, context_inverse: r.context_inverse, limits: r.limits, meta: r.meta,
      };
      const end: TraceEnd = { exit: r.exit, reason: r.reason, events: r.events, seconds: r.seconds };
      if (r.stdout_bytes !== undefined) end.stdout_bytes = r.stdout_bytes;
      if (r.tampered !== undefined) end.tampered = r.tampered;
      return { id: r.id, header, end };
    },

    getEvents(p) {
      if (p.to < p.from) throw new ApiError(`getEvents: to (${p.to}) is before from (${p.from})`);
      if (p.to - p.from > MAX_EVENT_WINDOW) throw new ApiError(`getEvents: at most ${MAX_EVENT_WINDOW} events at once, asked for ${p.to - p.from}`);
      cache.record(p.traceId);
      return corpus.getEvents(p.traceId, p.from, p.to);
    },

    getSkeleton(p) {
      return cache.get(p.traceId).skeleton;
    },

    walk(p) {
      const t = cache.get(p.traceId);
      try {
        return walkView(t.index, t.record, p.direction, p.entry ?? 0, p.actions.map(parseAction));
      } catch (e) {
        // Bad entry, an action of the other direction, an action after the exit: the user's to fix.
        if (e instanceof WalkError || e instanceof TraceShapeError || e instanceof RangeError) throw new ApiError(e.message);
        throw e;
      }
    },

    ...trajectoryApi(corpus),
  };
}
