/**
 * Traces held in memory for walking and drawing, least recently used first out, within a
 * budget in bytes (trace-bytes.ts). A trace is opened lazily (src/trajectories/lazy.ts): its
 * packed skeleton (one row kept at ingest) is read and its shape and the semantics' index
 * built at once, its events read window by window as walks touch them, so opening a long
 * trace costs one row read and an index build, not every event. Stepping re-walks from the entry on each call, which is
 * linear in the trajectory, but each window is read from SQLite once.
 *
 * Bytes are counted as they come: the shape, index and packed skeleton when a trace is
 * opened, each window's events when it is read. Older traces are dropped to make room; a
 * trace whose opening or next window would alone pass the budget is refused (that window is
 * not kept, the trace is forgotten), naming its size and how to raise the budget, so memory
 * never holds more than the budget. A window that does fit may have dropped older traces
 * before a later window of the same trace is refused. In a worker pool (src/api/host/) each
 * worker has one cache; `onChange` tells the pool what a trace now holds (opened or grown)
 * or what was dropped, so the pool keeps the workers' sum to the budget by asking one to
 * drop() its least recently used trace.
 */
import { UserError } from '../../common/errors.js';
import type { ReadCorpus, TraceRecord } from '../../store/corpus.js';
import type { TraceEvent } from '../../trace/types.js';
import { openTraceLazily, type OpenedTrace } from '../../trajectories/lazy.js';
import { eventBytes, openedBytes } from './trace-bytes.js';

/** An opened trace with its packed skeleton, as the cache holds it. */
export interface CachedTrace extends OpenedTrace {
  /** What it holds in memory now (trace-bytes.ts): its opening, and the windows read so far. */
  bytes: number;
}

/** The default budget of all traces held: 1 GiB (a 1,000,000-event trace of short values takes about 430 MB). */
export const DEFAULT_CACHE_BYTES = 2 ** 30;

/** What one call changed: the trace it opened or grew (with what it holds now), the traces dropped. */
export interface CacheChange {
  loaded?: { traceId: number; bytes: number };
  dropped: number[];
}

/** Two changes of one call as one (the later wins; a trace dropped after it grew is only dropped). */
export function mergeChanges(a: CacheChange | null, b: CacheChange): CacheChange {
  if (!a) return b;
  const loaded = b.loaded ?? (a.loaded && !b.dropped.includes(a.loaded.traceId) ? a.loaded : undefined);
  const dropped = [...a.dropped, ...b.dropped].filter((id) => id !== loaded?.traceId);
  return { loaded, dropped };
}

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
    // Windows read so far and their bytes: the whole trace's size is judged from them when refused.
    const read = { events: 0, bytes: 0 };
    // `cached` is declared below: the callback runs only when a window is read, after that.
    const trace = openTraceLazily(this.corpus, id, (events) => this.grow(cached, read, events));
    const skeleton = trace.skeleton;
    const opened = openedBytes(trace, skeleton);
    if (opened > this.budgetBytes) throw this.overBudget(id, trace.shape.count, opened);
    const cached: CachedTrace = { ...trace, skeleton, bytes: opened };
    const dropped = this.makeRoom(opened, id);
    this.map.set(id, cached);
    this.held += opened;
    this.onChange?.({ loaded: { traceId: id, bytes: opened }, dropped });
    return cached;
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

  /** A window of `t` was read: counted before it is kept, or refused when the trace would pass the budget alone. */
  private grow(t: CachedTrace, read: { events: number; bytes: number }, events: TraceEvent[]): void {
    const id = t.record.id;
    let add = 0;
    for (const e of events) add += eventBytes(e);
    read.events += events.length;
    read.bytes += add;
    if (this.map.get(id) !== t) {
      // Dropped while a walk still holds it (the pool's request): it goes when the walk ends.
      t.bytes += add;
      return;
    }
    if (t.bytes + add > this.budgetBytes) {
      this.drop(id);
      this.onChange?.({ dropped: [id] });
      const whole = t.bytes - read.bytes + add + (read.bytes / read.events) * t.shape.count;
      throw this.overBudget(id, t.shape.count, Math.max(whole, t.bytes + add));
    }
    const dropped = this.makeRoom(add, id);
    t.bytes += add;
    this.held += add;
    this.onChange?.({ loaded: { traceId: id, bytes: t.bytes }, dropped });
  }

  /** Drops the least recently used traces other than `keep` until `more` bytes fit; the ids dropped. */
  private makeRoom(more: number, keep: number): number[] {
    const dropped: number[] = [];
    for (const old of [...this.map.keys()]) {
      if (this.held + more <= this.budgetBytes) break;
      if (old === keep) continue;
      this.drop(old);
      dropped.push(old);
    }
    return dropped;
  }

  private overBudget(id: number, events: number, estimate: number): UserError {
    return new UserError(
      `trace ${id} has ${events.toLocaleString('en')} events, about ${mib(estimate)} in memory: over the ${mib(this.budgetBytes)} this explorer may hold. ` +
        'Start it with a larger budget (`stepscope serve --cache-mb N`), or read the trace in windows (getEvents, `stepscope events --from --to`).',
      'unavailable',
    );
  }
}
