/**
 * The API methods, implemented once over a Corpus and the semantics; both transports
 * (HTTP server, Electron IPC) serve this object through dispatch().
 */
import type { Corpus } from '../store/corpus.js';
import { Scope, WalkError, contextFor, seqOf, serialize, showStates, stateKind, walk, type Action } from '../semantics/index.js';
import type { TraceHeader, TraceEnd } from '../trace/types.js';
import { MAX_EVENT_WINDOW, type Api, type TraceInfo } from './contract.js';
import { ApiError } from './result.js';
import { TraceCache } from './trace-cache.js';
import { trajectoryApi } from './trajectories.js';

/** `breakpoint <src>` keeps src exactly (leading spaces included); other actions are bare names. */
export function parseAction(text: string): Action {
  if (text.startsWith('breakpoint ')) return { action: 'breakpoint', src: text.slice('breakpoint '.length) };
  return { action: text as Exclude<Action['action'], 'breakpoint'> };
}

export function createApi(corpus: Corpus): Api {
  const cache = new TraceCache(() => corpus);
  return {
    listTraces(p) {
      return corpus.listTraces({
        search: p.name,
        code: p.code,
        value: p.value,
        exit: p.exit,
        sort: p.sort === 'exit' || p.sort === 'seconds' ? 'id' : p.sort,
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
      let scope: Scope;
      try {
        scope = new Scope(t.index, p.entry ?? 0);
      } catch (e) {
        throw new ApiError((e as Error).message);
      }
      let traj;
      try {
        traj = walk(scope, p.direction, p.actions.map(parseAction));
      } catch (e) {
        if (e instanceof WalkError) throw new ApiError(e.message);
        throw e;
      }
      const shown = showStates(t.index, traj);
      return {
        direction: traj.direction,
        entry: traj.entry,
        states: traj.states.map((node) => ({ seq: seqOf(traj.direction, node), event: stateKind(t.index, traj.direction, node) })),
        exit: traj.exit,
        text: serialize(t.index, traj, contextFor(traj.direction, t.record)),
        shown: shown.map((s) => s.locals ?? null),
      };
    },

    ...trajectoryApi(corpus),
  };
}
