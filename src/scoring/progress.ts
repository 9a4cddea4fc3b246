/** Running counts of verdicts, for progress bars and summaries. */
import type { Status, Verdict } from './types.js';

export interface Progress {
  /** Verdicts so far. */
  done: number;
  /** Jobs in all, when known. */
  total: number | undefined;
  counts: Record<Status, number>;
  elapsedMs: number;
}

/** Counts verdicts as they come; snapshot() is the Progress a pool reports. */
export class ProgressCounter {
  private readonly started = performance.now();
  private readonly counts: Record<Status, number> = { pass: 0, fail: 0, error: 0, timeout: 0, skipped: 0 };
  private done = 0;

  constructor(private readonly total: number | undefined) {}

  add(v: Verdict): void {
    this.counts[v.status]++;
    this.done++;
  }

  snapshot(): Progress {
    return {
      done: this.done,
      total: this.total,
      counts: { ...this.counts },
      elapsedMs: performance.now() - this.started,
    };
  }
}
