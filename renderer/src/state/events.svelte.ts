/**
 * Events of the open trace fetched in chunks, for what the trees write on their rows (values,
 * changed locals). Views ask for a seq range with `want`; the chunks arrive through the data
 * source and `version` bumps so the rows redraw. A new trace drops the cache (`reset`).
 */
import type { TraceEvent } from '@core/trace/types.js';
import { Newest } from '../lib/newest.js';
import type { DataSource } from '../lib/source.js';

const CHUNK = 512;
/** At most this many chunks are asked for at once (a screen of rows needs one or two). */
const MAX_CHUNKS = 8;

export class EventCache {
  version = $state(0);
  #chunks = new Map<number, TraceEvent[]>();
  #pending = new Set<number>();
  #traces = new Newest();
  #traceId: number | null = null;

  constructor(private readonly source: DataSource) {}

  reset(traceId: number | null): void {
    this.#traces.drop();
    this.#traceId = traceId;
    this.#chunks = new Map();
    this.#pending.clear();
    this.version++;
  }

  /** The chunks `other` holds, for the same trace shown in a second view (those still on their way are asked again). */
  adopt(other: EventCache): void {
    this.reset(other.#traceId);
    this.#chunks = new Map(other.#chunks);
  }

  get(seq: number): TraceEvent | undefined {
    return this.#chunks.get(Math.floor(seq / CHUNK))?.[seq % CHUNK];
  }

  /** Loads the chunks holding seqs [from, to] (the first MAX_CHUNKS of them). */
  want(from: number, to: number): void {
    const id = this.#traceId;
    if (id === null || to < from) return;
    const live = this.#traces.ticket();
    const last = Math.min(Math.floor(to / CHUNK), Math.floor(from / CHUNK) + MAX_CHUNKS - 1);
    for (let c = Math.floor(from / CHUNK); c <= last; c++) {
      if (this.#chunks.has(c) || this.#pending.has(c)) continue;
      this.#pending.add(c);
      this.source
        .call('getEvents', { traceId: id, from: c * CHUNK, to: (c + 1) * CHUNK })
        .then((evs) => {
          if (!live()) return;
          this.#chunks.set(c, evs);
          this.version++;
        })
        .catch(() => undefined) // rows fall back to the source text
        .finally(() => live() && this.#pending.delete(c));
    }
  }
}
