/**
 * Whole traces held in memory for walking (the semantics need every event's locals to show
 * states). A small LRU keyed by trace id: stepping through one trace re-walks from the entry
 * on each call, which is linear in the trajectory, but the trace is read from SQLite once.
 */
import { UserError } from '../../common/errors.js';
import type { ReadCorpus, TraceRecord } from '../../store/corpus.js';
import { EVENT_KINDS } from '../../trace/types.js';
import { loadTrace, type LoadedTrace } from '../../trajectories/load.js';
import type { Skeleton } from '../contract/index.js';

/** A loaded trace with its skeleton, as the cache holds it. */
export interface CachedTrace extends LoadedTrace {
  skeleton: Skeleton;
}

const KIND = new Map<string, number>(EVENT_KINDS.map((k, i) => [k, i]));

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
    const trace = loadTrace(this.corpus, id);
    const loaded: CachedTrace = { ...trace, skeleton: skeletonOf(trace) };
    this.map.set(id, loaded);
    while (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as number);
    return loaded;
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
