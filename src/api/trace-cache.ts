/**
 * Whole traces held in memory for walking (the semantics need every event's locals to show
 * states). A small LRU keyed by trace id: stepping through one trace re-walks from the entry
 * on each call, which is linear in the trajectory, but the trace is read from SQLite once.
 */
import type { Corpus, TraceRecord } from '../store/corpus.js';
import { KIND_NAMES, type TreeIndex } from '../semantics/index.js';
import { loadTrace } from '../trajectories/load.js';
import type { Skeleton } from './contract.js';
import { ApiError } from './result.js';

export interface LoadedTrace {
  record: TraceRecord;
  index: TreeIndex;
  skeleton: Skeleton;
}

const KIND = new Map<string, number>(KIND_NAMES.map((k, i) => [k, i]));

export class TraceCache {
  private readonly map = new Map<number, LoadedTrace>();

  constructor(
    private readonly corpus: () => Corpus,
    private readonly capacity = 3,
  ) {}

  record(id: number): TraceRecord {
    const r = this.corpus().getTrace(id);
    if (!r) throw new ApiError(`no trace with id ${id}`);
    return r;
  }

  get(id: number): LoadedTrace {
    const hit = this.map.get(id);
    if (hit) {
      this.map.delete(id);
      this.map.set(id, hit);
      return hit;
    }
    let trace;
    try {
      trace = loadTrace(this.corpus(), id);
    } catch (e) {
      if (e instanceof RangeError) throw new ApiError(`no trace with id ${id}`);
      throw e;
    }
    const { record, events, index } = trace;
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
    const loaded: LoadedTrace = { record, index, skeleton: sk };
    this.map.set(id, loaded);
    while (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as number);
    return loaded;
  }

  clear(): void {
    this.map.clear();
  }
}
