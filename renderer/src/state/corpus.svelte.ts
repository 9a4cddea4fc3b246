/**
 * The corpus browser's query and its rows, fetched from SQLite through the API a page at a
 * time as the virtual list scrolls. A new query drops the cache; stale answers are ignored.
 */
import type { TraceRow } from '@core/contract/index.js';
import { Newest } from '../lib/newest.js';
import type { DataSource } from '../lib/source.js';

export const PAGE = 100;

export class CorpusQuery {
  name = $state('');
  code = $state('');
  value = $state('');
  exit = $state<'' | 'normal' | 'error' | 'never'>('');
  sort = $state<'id' | 'name' | 'events'>('id');
  desc = $state(false);

  total = $state(0);
  /** Row cache by position; a version bump tells the list to redraw. */
  rows = $state.raw<Map<number, TraceRow>>(new Map());
  error = $state<string | null>(null);
  /** One generation per query: pages of an older query are dropped when they arrive. */
  #queries = new Newest();
  #pending = new Set<number>();

  constructor(private readonly source: DataSource) {}

  #query() {
    return {
      name: this.name || undefined,
      code: this.code || undefined,
      value: this.value || undefined,
      exit: this.exit || undefined,
      sort: this.sort,
      desc: this.desc,
    };
  }

  #prefetched: Promise<void> | null = null;

  /** The first page asked for at the page's boot (main.ts), before the browser is mounted. */
  prefetch(): void {
    this.#prefetched = this.reload();
  }

  /** The browser's first load on mounting: the boot's prefetch if there is one, else a reload. */
  mounted(): Promise<void> {
    const p = this.#prefetched ?? this.reload();
    this.#prefetched = null;
    return p;
  }

  async reload(): Promise<void> {
    this.#queries.drop();
    this.#pending.clear();
    this.rows = new Map();
    await this.ensure(0, PAGE);
  }

  /** Makes sure rows [from, to) are loaded (by whole pages). */
  async ensure(from: number, to: number): Promise<void> {
    const live = this.#queries.ticket();
    const first = Math.floor(from / PAGE);
    const last = Math.floor(Math.max(from, to - 1) / PAGE);
    const jobs: Promise<void>[] = [];
    for (let p = first; p <= last; p++) {
      if (this.#pending.has(p) || this.rows.has(p * PAGE)) continue;
      this.#pending.add(p);
      jobs.push(
        this.source
          .call('listTraces', { ...this.#query(), offset: p * PAGE, limit: PAGE })
          .then((r) => {
            if (!live()) return;
            const next = new Map(this.rows);
            r.rows.forEach((row, i) => next.set(p * PAGE + i, row));
            this.rows = next;
            this.total = r.total;
            this.error = null;
          })
          .catch((e) => {
            if (live()) this.error = (e as Error).message;
          })
          .finally(() => live() && this.#pending.delete(p)),
      );
    }
    await Promise.all(jobs);
  }

  /** Flips the sort order and reloads. */
  reverse(): Promise<void> {
    this.desc = !this.desc;
    return this.reload();
  }
}
