/**
 * Whole traces held in memory for walking (the semantics need every event's locals to show
 * states), least recently used first out, within a budget in bytes (trace-bytes.ts: events,
 * index and skeleton). Stepping through one trace re-walks from the entry on each call, which
 * is linear in the trajectory, but the trace is read from SQLite once.
 *
 * Traces are counted as they are read: older ones are dropped to make room, and a trace that
 * alone passes the budget, or is on course to (judged from its first 5%), stops being read
 * and is refused, naming its size and how to raise the budget; memory never holds much more
 * than the budget. In a worker pool (src/api/host/) each worker has one cache;
 * `onChange` tells the pool what was loaded or dropped, so the pool keeps the workers' sum to
 * the budget by asking one to drop() its least recently used trace.
 */
import { UserError } from '../../common/errors.js';
import type { ReadCorpus, TraceRecord } from '../../store/corpus.js';
import { EVENT_KINDS } from '../../trace/types.js';
import { loadTrace, type LoadedTrace } from '../../trajectories/load.js';
import type { Skeleton } from '../contract/index.js';
import { eventBytes, indexBytes, SHAPE_PER_EVENT, valueBytes } from './trace-bytes.js';

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
    const record = this.record(id);
    const dropped: number[] = [];
    let reading = 0;
    let read = 0;
    const sample = Math.max(100, record.events / 20);
    let trace: LoadedTrace;
    try {
      trace = loadTrace(this.corpus, id, (e) => {
        reading += eventBytes(e) + SHAPE_PER_EVENT;
        read++;
        // Past the budget, or on course to pass it (judged after 5% of the events): stop
        // before dropping what is held for a trace that will not fit anyway.
        const expected = (reading / read) * record.events;
        if (reading > this.budgetBytes || (read >= sample && expected > this.budgetBytes)) throw this.overBudget(id, record.events, Math.max(expected, reading));
        // Make room as it grows, least recently used first.
        for (const old of this.map.keys()) {
          if (this.held + reading <= this.budgetBytes) break;
          this.drop(old);
          dropped.push(old);
        }
      });
    } catch (e) {
      if (dropped.length) this.onChange?.({ dropped });
      throw e;
    }
    const skeleton = skeletonOf(trace);
    const loaded: CachedTrace = { ...trace, skeleton, bytes: reading - read * SHAPE_PER_EVENT + indexBytes(trace.index) + valueBytes(skeleton) };
    // The index and skeleton were counted at a measured average while reading; their real
    // size decides. Over the budget alone, the trace is refused; else older ones make room.
    if (loaded.bytes > this.budgetBytes) {
      if (dropped.length) this.onChange?.({ dropped });
      throw this.overBudget(id, record.events, loaded.bytes);
    }
    for (const old of this.map.keys()) {
      if (this.held + loaded.bytes <= this.budgetBytes) break;
      this.drop(old);
      dropped.push(old);
    }
    this.map.set(id, loaded);
    this.held += loaded.bytes;
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

  private overBudget(id: number, events: number, estimate: number): UserError {
    return new UserError(
      `trace ${id} has ${events.toLocaleString('en')} events, about ${mib(estimate)} in memory: over the ${mib(this.budgetBytes)} this explorer may hold. ` +
        'Start it with a larger budget (`stepscope serve --cache-mb N`), or read the trace in windows (getEvents, `stepscope events --from --to`).',
      'unavailable',
    );
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
