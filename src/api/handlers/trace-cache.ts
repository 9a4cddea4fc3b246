/**
 * Whole traces held in memory for walking (the semantics need every event's locals to show
 * states), least recently used first out, within a budget in bytes (trace-bytes.ts: events,
 * index and skeleton). Stepping through one trace re-walks from the entry on each call, which
 * is linear in the trajectory, but the trace is read from SQLite once.
 *
 * A trace whose estimate is over the whole budget is refused before it is read, naming the
 * budget and how to raise it. In a worker pool (src/api/host/) each worker has one cache;
 * `onChange` tells the pool what was loaded or dropped, so the pool keeps the workers' sum to
 * the budget by asking one to drop() its least recently used trace.
 */
import { UserError } from '../../common/errors.js';
import type { ReadCorpus, TraceRecord } from '../../store/corpus.js';
import { EVENT_KINDS } from '../../trace/types.js';
import { loadTrace, type LoadedTrace } from '../../trajectories/load.js';
import type { Skeleton } from '../contract/index.js';
import { estimateBeforeLoading, eventsBytes, indexBytes, valueBytes } from './trace-bytes.js';

/** A loaded trace with its skeleton, as the cache holds it. */
export interface CachedTrace extends LoadedTrace {
  skeleton: Skeleton;
  /** What it costs in memory (trace-bytes.ts). */
  bytes: number;
}

/** The default budget of all traces held: 1 GiB (a 1,000,000-event trace of short values takes about 430 MB). */
export const DEFAULT_CACHE_BYTES = 2 ** 30;

export interface CacheChange {
  loaded?: { traceId: number; bytes: number };
  dropped: number[];
}

const KIND = new Map<string, number>(EVENT_KINDS.map((k, i) => [k, i]));
const mib = (bytes: number) => `${Math.ceil(bytes / 2 ** 20).toLocaleString('en')} MiB`;

export class TraceCache {
  private readonly map = new Map<number, CachedTrace>();
  private held = 0;
  onChange: ((c: CacheChange) => void) | null = null;

  constructor(
    private readonly corpus: ReadCorpus,
    readonly budgetBytes = DEFAULT_CACHE_BYTES,
  ) {}

  /** The trace's record; a not-found UserError when there is none. */
  record(id: number): TraceRecord {
    const r = this.corpus.getTrace(id);
    if (!r) throw new UserError(`no trace with id ${id}`, 'not-found');
    return r;
  }

  get(id: number): CachedTrace {
    const hit = this.map.get(id);
    if (hit) {
      this.map.delete(id);
      this.map.set(id, hit);
      return hit;
    }
    this.record(id); // the API's wording for an unknown id
    const size = this.corpus.traceSize(id);
    const before = estimateBeforeLoading(size);
    if (before > this.budgetBytes) {
      throw new UserError(
        `trace ${id} has ${size.events.toLocaleString('en')} events, about ${mib(before)} in memory: over the ${mib(this.budgetBytes)} this explorer may hold. ` +
          'Start it with a larger budget (`stepscope serve --cache-mb N`), or read the trace in windows (getEvents, `stepscope events --from --to`).',
        'unavailable',
      );
    }
    // Make room first, so the budget holds while the new trace is read.
    const dropped = this.evictFor(before);
    const trace = loadTrace(this.corpus, id);
    const skeleton = skeletonOf(trace);
    const loaded: CachedTrace = { ...trace, skeleton, bytes: eventsBytes(trace.events) + indexBytes(trace.index) + valueBytes(skeleton) };
    this.map.set(id, loaded);
    this.held += loaded.bytes;
    dropped.push(...this.evictFor(0, id));
    this.onChange?.({ loaded: { traceId: id, bytes: loaded.bytes }, dropped });
    return loaded;
  }

  /** Forgets one trace (the pool's request when the workers together hold too much). */
  drop(id: number): void {
    const t = this.map.get(id);
    if (!t) return;
    this.map.delete(id);
    this.held -= t.bytes;
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.held;
  }

  /** Drops least recently used traces (never `keep`) until `incoming` more bytes fit. */
  private evictFor(incoming: number, keep?: number): number[] {
    const dropped: number[] = [];
    for (const id of this.map.keys()) {
      if (this.held + incoming <= this.budgetBytes) break;
      if (id === keep) continue;
      this.drop(id);
      dropped.push(id);
    }
    return dropped;
  }
}

function skeletonOf({ events }: LoadedTrace): Skeleton {
  const n = events.length;
  const funcs: string[] = [];
  const funcIx = new Map<string, number>();
  const sk: Skeleton = { count: n, kind: new Array(n), parent: new Array(n), frame: new Array(n), line: new Array(n), func: new Array(n), funcs };
  for (let i = 0; i < n; i++) {
    const e = events[i];
    sk.kind[i] = KIND.get(e.event)!;
    sk.parent[i] = e.parent ?? -1;
    sk.frame[i] = e.frame;
    sk.line[i] = e.line;
    let f = funcIx.get(e.func);
    if (f === undefined) {
      f = funcs.length;
      funcs.push(e.func);
      funcIx.set(e.func, f);
    }
    sk.func[i] = f;
  }
  return sk;
}
