/**
 * A stored trace opened for walking without reading all of it: the semantics' index built
 * from the trace's packed skeleton (one row kept at ingest, src/store/queries/skeletons.ts,
 * also what the explorer draws from) and its events read in
 * windows of CHUNK the first time the semantics touch one. Opening a 270,000-event trace and
 * walking its first states reads a window or two instead of every event; a breakpoint (which
 * looks at the src of every line) reads them all, window by window.
 */
import { UserError } from '../common/errors.js';
import { buildTreeIndex } from '../semantics/index.js';
import type { ReadCorpus } from '../store/corpus.js';
import type { TraceShape } from '../store/corpus.js';
import { decodeSkeletonBytes, encodeSkeleton, skeletonBytes } from '../trace/skeleton.js';
import type { TraceEvent } from '../trace/types.js';
import type { LoadedTrace } from './load.js';

const CHUNK = 4096;

export interface OpenedTrace extends LoadedTrace {
  shape: TraceShape;
  /** The shape packed, as getSkeleton's bytes form sends it (src/trace/skeleton.ts). */
  skeleton: Uint8Array;
}

const EMPTY = skeletonBytes(
  encodeSkeleton({ count: 0, kind: [], parent: [], frame: [], line: [], func: [], funcs: [] }),
);

/**
 * `onRead` sees each window's events when they are read, before they are kept, and may throw
 * to refuse them (e.g. past a memory budget): the window then stays unread and the access
 * that asked for it throws.
 */
export function openTraceLazily(
  corpus: ReadCorpus,
  traceId: number,
  onRead?: (events: TraceEvent[]) => void,
): OpenedTrace {
  const record = corpus.getTrace(traceId);
  if (!record) throw new UserError(`${corpus.path} has no trace with id ${traceId}`, 'not-found');
  const skeleton = corpus.getSkeletonBytes(traceId) ?? EMPTY;
  const shape = decodeSkeletonBytes(skeleton);
  const events = lazyEvents(corpus, traceId, shape.count, onRead);
  return { record, events, shape, skeleton, index: { ...buildTreeIndex(shape), events } };
}

/** An array of the trace's events, each window read from the corpus on its first access. */
function lazyEvents(
  corpus: ReadCorpus,
  traceId: number,
  count: number,
  onRead?: (events: TraceEvent[]) => void,
): TraceEvent[] {
  const slots: TraceEvent[] = new Array(count);
  const loaded = new Uint8Array(Math.ceil(count / CHUNK));
  return new Proxy(slots, {
    get(target, prop, receiver) {
      if (typeof prop === 'string') {
        const i = prop.charCodeAt(0) - 48 < 10 ? Number(prop) : NaN;
        if (Number.isInteger(i) && i >= 0 && i < count) {
          const c = Math.floor(i / CHUNK);
          if (!loaded[c]) {
            const evs = corpus.getEvents(traceId, c * CHUNK, Math.min(count, (c + 1) * CHUNK));
            onRead?.(evs);
            for (let j = 0; j < evs.length; j++) target[c * CHUNK + j] = evs[j];
            loaded[c] = 1;
          }
          return target[i];
        }
      }
      return Reflect.get(target, prop, receiver);
    },
  });
}
