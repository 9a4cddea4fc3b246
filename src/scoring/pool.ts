/**
 * A pool of execution workers under one hash seed. `submit` gives one job's verdict;
 * `run` streams many with bounded memory (backpressure), in input order or as they finish.
 * A worker that dies is replaced: the job it was running gets an `error` verdict, the
 * jobs queued behind it go to other workers. Always `close()` (or `destroy()`) the pool.
 */
import { availableParallelism } from 'node:os';
import { ExecWorker, type SubmittedJob } from './worker.js';
import { ProgressCounter, type Progress } from './progress.js';
import type { Job, Verdict } from './types.js';

export interface ExecPoolOptions {
  /** Worker processes. Default: the number of CPUs. */
  workers?: number;
  /** PYTHONHASHSEED of every worker. Default 0 (as traces are recorded). */
  hashseed?: number;
  /** Default wall-clock limit per job, seconds. Default 3 (CRUXEval's). */
  timeout?: number;
  /** Default address-space limit per job, MiB. Default 1024. */
  memoryMb?: number;
  /** Python interpreter. Default $STEPSCOPE_PYTHON or `python3`. */
  python?: string;
  /** Jobs written ahead to each worker so it never waits for the next. Default 2. */
  depth?: number;
}

export interface PoolRunOptions {
  /** Yield verdicts in input order (default) or as soon as each is ready. */
  ordered?: boolean;
  /** Jobs taken from the source ahead of the consumer. Default 4 × workers × depth. */
  window?: number;
  /** Called after every verdict. */
  onProgress?: (p: Progress) => void;
  /** The number of jobs, for `Progress.total` (known without it for arrays). */
  total?: number;
}

export interface SubmitOptions {
  /** Aborted before the job reaches a worker: it resolves as `skipped` ("cancelled"). */
  signal?: AbortSignal;
}

/** More consecutive deaths of workers that answered nothing fail the pool. */
const MAX_CONSECUTIVE_DEATHS = 5;

export class ExecPool {
  readonly hashseed: number;
  readonly size: number;
  private readonly depth: number;
  private readonly settings: { hashseed: number; timeout: number; memoryMb: number; python?: string };
  private workers: ExecWorker[] = [];
  private readonly waiting: SubmittedJob[] = [];
  private outstanding = 0;
  private idle: (() => void)[] = [];
  private broken: Error | null = null;
  private closed = false;
  private deaths = 0;
  /** Workers started to replace dead ones. */
  restarts = 0;

  constructor(options: ExecPoolOptions = {}) {
    this.hashseed = options.hashseed ?? 0;
    this.size = Math.max(1, Math.floor(options.workers ?? availableParallelism()));
    this.depth = Math.max(1, Math.floor(options.depth ?? 2));
    this.settings = {
      hashseed: this.hashseed,
      timeout: options.timeout ?? 3,
      memoryMb: options.memoryMb ?? 1024,
      python: options.python,
    };
    if (!Number.isInteger(this.hashseed) || this.hashseed < 0 || this.hashseed > 4294967295)
      throw new RangeError(`hash seed must be an integer 0..4294967295, got ${this.hashseed}`);
    if (!(this.settings.timeout > 0) || !(this.settings.memoryMb > 0))
      throw new RangeError('timeout and memoryMb must be positive');
  }

  /** Starts the workers (also done by the first submit) and waits until all are ready. */
  async start(): Promise<void> {
    this.ensureWorkers();
    await Promise.all(this.workers.map((w) => w.ready));
  }

  /** Process ids of the live workers (for diagnostics and tests). */
  workerPids(): number[] {
    return this.workers
      .filter((w) => w.alive)
      .map((w) => w.pid!)
      .filter((p) => p !== undefined);
  }

  /** One job's verdict. Rejects only when the job is malformed or the pool is unusable. */
  submit(job: Job, options: SubmitOptions = {}): Promise<Verdict> {
    if (this.broken) return Promise.reject(this.broken);
    if (this.closed) return Promise.reject(new Error('the execution pool is closed'));
    this.ensureWorkers();
    this.outstanding++;
    return new Promise<Verdict>((resolve, reject) => {
      const done = () => {
        this.outstanding--;
        this.dispatch(); // the worker that answered has room again
        if (this.outstanding === 0) for (const f of this.idle.splice(0)) f();
      };
      const ticket: SubmittedJob = {
        job,
        resolve: (v) => {
          done();
          resolve(v);
        },
        reject: (e) => {
          done();
          reject(e);
        },
        signal: options.signal,
      };
      const signal = options.signal;
      if (signal?.aborted) return ticket.resolve({ id: job.id, status: 'skipped', reason: 'cancelled', seconds: 0 });
      this.waiting.push(ticket);
      this.dispatch();
    });
  }

  /**
   * Streams verdicts for `jobs` (an array, any iterable, or an async iterable: it is read
   * only as fast as workers and the consumer keep up). Stopping the loop early cancels the
   * jobs not yet started. Throws if a job is malformed or the pool cannot run.
   */
  async *run(
    jobs: Iterable<Job> | AsyncIterable<Job>,
    options: PoolRunOptions = {},
  ): AsyncGenerator<Verdict, void, undefined> {
    const ordered = options.ordered ?? true;
    const window = Math.max(1, options.window ?? 4 * this.size * this.depth);
    const tally = new ProgressCounter(options.total ?? (Array.isArray(jobs) ? jobs.length : undefined));
    const source =
      Symbol.asyncIterator in jobs
        ? (jobs as AsyncIterable<Job>)[Symbol.asyncIterator]()
        : (jobs as Iterable<Job>)[Symbol.iterator]();
    const abort = new AbortController();
    const ready = new Map<number, Verdict>(); // ordered: by input index
    const finished: Verdict[] = []; // unordered
    let taken = 0;
    let emitted = 0;
    let inflight = 0;
    let exhausted = false;
    let failure: unknown = null;
    let wake: (() => void) | null = null;
    const notify = () => {
      const w = wake;
      wake = null;
      w?.();
    };
    const buffered = () => (ordered ? ready.size : finished.length);
    try {
      for (;;) {
        while (!exhausted && failure === null && inflight + buffered() < window) {
          const r = await source.next();
          if (r.done) {
            exhausted = true;
            break;
          }
          const index = taken++;
          inflight++;
          this.submit(r.value, { signal: abort.signal }).then(
            (v) => {
              inflight--;
              if (ordered) ready.set(index, v);
              else finished.push(v);
              tally.add(v);
              options.onProgress?.(tally.snapshot());
              notify();
            },
            (e: unknown) => {
              inflight--;
              failure ??= e;
              notify();
            },
          );
        }
        if (failure !== null) throw failure;
        let yielded = false;
        if (ordered) {
          for (let v = ready.get(emitted); v !== undefined; v = ready.get(emitted)) {
            ready.delete(emitted++);
            yielded = true;
            yield v;
          }
        } else {
          while (finished.length) {
            yielded = true;
            yield finished.shift()!;
          }
        }
        if (exhausted && inflight === 0 && buffered() === 0) return;
        if (!yielded) await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      abort.abort();
      await (source as { return?: () => unknown }).return?.();
    }
  }

  /** Waits for every submitted job, then ends the workers. */
  async close(): Promise<void> {
    if (this.outstanding > 0 && !this.broken) await new Promise<void>((resolve) => this.idle.push(resolve));
    this.closed = true;
    await Promise.all(this.workers.map((w) => w.close()));
  }

  /** Stops now: running jobs are killed (with their processes), queued ones rejected. */
  async destroy(): Promise<void> {
    this.closed = true;
    this.fail(new Error('the execution pool was destroyed'));
    await Promise.all(this.workers.map((w) => w.kill()));
  }

  private ensureWorkers(): void {
    while (this.workers.length < this.size) this.workers.push(this.spawn());
  }

  private spawn(): ExecWorker {
    const worker = new ExecWorker(this.settings);
    worker.ready.catch((e: Error) => this.fail(e));
    worker.onDeath = (lost, why) => this.onDeath(worker, lost, why);
    return worker;
  }

  private onDeath(worker: ExecWorker, lost: SubmittedJob[], why: string): void {
    if (
      worker.startError ||
      this.closed ||
      this.broken ||
      (worker.answered === 0 && this.deaths >= MAX_CONSECUTIVE_DEATHS)
    ) {
      const e = worker.startError ?? this.broken ?? new Error(`the execution worker died (${why})`);
      for (const t of lost) t.reject(e);
      return this.fail(e);
    }
    this.deaths = worker.answered > 0 ? 1 : this.deaths + 1;
    const running = lost.shift();
    running?.resolve({
      id: running.job.id,
      status: 'error',
      error: `the execution worker died while running this job (${why})`,
      seconds: 0,
    });
    this.waiting.unshift(...lost);
    const i = this.workers.indexOf(worker);
    if (i >= 0) {
      this.workers[i] = this.spawn();
      this.restarts++;
    }
    this.dispatch();
  }

  /** Rejects every queued job; later submits reject too. */
  private fail(e: Error): void {
    this.broken ??= e;
    for (const t of this.waiting.splice(0)) t.reject(this.broken);
    if (this.outstanding === 0) for (const f of this.idle.splice(0)) f();
  }

  private dispatch(): void {
    while (this.waiting.length) {
      let best: ExecWorker | null = null;
      for (const w of this.workers) if (w.alive && w.load < this.depth && (!best || w.load < best.load)) best = w;
      if (!best) return;
      const ticket = this.waiting.shift()!;
      if (ticket.signal?.aborted)
        ticket.resolve({ id: ticket.job.id, status: 'skipped', reason: 'cancelled', seconds: 0 });
      else best.send(ticket);
    }
  }
}

/** Runs `fn` with a pool that is always closed afterwards (destroyed if `fn` throws). */
export async function withExecPool<T>(options: ExecPoolOptions, fn: (pool: ExecPool) => Promise<T>): Promise<T> {
  const pool = new ExecPool(options);
  try {
    const out = await fn(pool);
    await pool.close();
    return out;
  } catch (e) {
    await pool.destroy();
    throw e;
  }
}
