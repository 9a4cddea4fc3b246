/**
 * Traces held in memory for walking and drawing: a small LRU keyed by trace id. A trace is
 * opened lazily (src/trajectories/lazy.ts): its packed skeleton (one row kept at ingest) is
 * read at once, its events window by window as walks touch them, so opening a long trace
 * costs one row read and an index build, not every event. Stepping re-walks from the entry on each call, which is
 * linear in the trajectory.
 */
import { UserError } from '../../common/errors.js';
import type { ReadCorpus, TraceRecord } from '../../store/corpus.js';
import { openTraceLazily, type OpenedTrace } from '../../trajectories/lazy.js';

/** An opened trace with its packed skeleton, as the cache holds it. */
export type CachedTrace = OpenedTrace;

export class TraceCache {
  private readonly map = new Map<number, CachedTrace>();

  constructor(
    private readonly corpus: ReadCorpus,
    private readonly capacity = 3,
  ) {}

  /** The trace's record; a not-found UserError when there is none. */
  record(id: number): TraceRecord {
    const r = this.corpus.getTrace(id);
    if (!r) throw new UserError(`no trace with id ${id}`, 'not-found');
    return r;
  }

  /** The trace if it is held now, without opening it or changing its place in the LRU order. */
  peek(id: number): CachedTrace | undefined {
    return this.map.get(id);
  }

  get(id: number): CachedTrace {
    const hit = this.map.get(id);
    if (hit) {
      this.map.delete(id);
      this.map.set(id, hit);
      return hit;
    }
    this.record(id); // the API's wording for an unknown id
    const loaded: CachedTrace = openTraceLazily(this.corpus, id);
    this.map.set(id, loaded);
    while (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as number);
    return loaded;
  }
}
