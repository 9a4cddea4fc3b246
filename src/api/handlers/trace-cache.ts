/**
 * Traces held in memory for walking and drawing: a small LRU keyed by trace id. A trace is
 * opened lazily (src/trajectories/lazy.ts): its shape (what the skeleton packs) is read at
 * once, its events window by window as walks touch them, so opening a long trace costs a
 * column scan, not every event. Stepping re-walks from the entry on each call, which is
 * linear in the trajectory.
 */
import { UserError } from '../../common/errors.js';
import type { ReadCorpus, TraceRecord } from '../../store/corpus.js';
import { openTraceLazily, type OpenedTrace } from '../../trajectories/lazy.js';
import { encodeSkeleton, type SkeletonWire } from '../contract/index.js';

/** An opened trace with its packed skeleton, as the cache holds it. */
export interface CachedTrace extends OpenedTrace {
  skeleton: SkeletonWire;
}

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

  get(id: number): CachedTrace {
    const hit = this.map.get(id);
    if (hit) {
      this.map.delete(id);
      this.map.set(id, hit);
      return hit;
    }
    this.record(id); // the API's wording for an unknown id
    const trace = openTraceLazily(this.corpus, id);
    const loaded: CachedTrace = { ...trace, skeleton: encodeSkeleton(trace.shape) };
    this.map.set(id, loaded);
    while (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as number);
    return loaded;
  }
}
