/**
 * runCompletions(): many prompts against one server, at most `concurrency` HTTP requests in
 * flight, each answer handed to `sink` as soon as it arrives.
 *
 * Resumption is the caller's: the sink commits each answer at once (one SQLite transaction),
 * and the next run leaves out the items already answered. Stopping (the signal aborts, a
 * fatal error, too many failures in a row) aborts the requests in flight and starts no new
 * ones, but every answer that has arrived still reaches the sink before the promise
 * resolves: nothing answered is lost. The promise resolves with a summary for every model
 * error; it rejects only when the sink (or the item source) throws, once the requests in
 * flight have settled.
 */
import { complete, type Completion, type ServerMemo } from './complete.js';
import { endpointUrl, resolveEndpoint } from './endpoint.js';
import { ModelError } from './errors.js';
import { Limiter } from './limiter.js';
import type { Backoff, RetryNotice } from './retry.js';
import { apiKey, checkSettings, type ModelSettings } from './settings.js';

export interface RunItem {
  /** The caller's key for the item (an eval-set item id). */
  id: string;
  prompt: string;
}

export type Sink<T extends RunItem, A = Completion> = (item: T, answer: A) => void | Promise<void>;

/** What an answer must tell the run's counts: each sample's (or step's) finish reason. */
export interface Answer {
  finishReasons: (string | null)[];
}

export interface RunProgress {
  /** Items in the run, when known (an array, or `total` given). */
  total: number | null;
  /** answered + failed. */
  done: number;
  answered: number;
  failed: number;
  /** Items whose request is under way. */
  inFlight: number;
  retries: number;
  /** Samples that stopped at max tokens (finish reason 'length'). */
  truncated: number;
  elapsedMs: number;
  /** Answered items per second since the start. */
  perSecond: number;
  /** The latest failure, for a status line. */
  lastError: ModelError | null;
}

export interface RunSummary extends Omit<RunProgress, 'inFlight' | 'lastError'> {
  /** 'complete': every item was tried; 'aborted': the caller's signal; 'stopped': see `error`. */
  outcome: 'complete' | 'aborted' | 'stopped';
  /** Why the run stopped early ('stopped' only). */
  error: ModelError | null;
  /** Items not answered: failed, cut off in flight, or never started (null when total is unknown). */
  unanswered: number | null;
  /** Every item that failed, and why (the run went on without it). */
  failures: { id: string; error: ModelError }[];
  /** How the server took `n` for samples > 1 (null when not learned). */
  samplesMode: 'native' | 'separate' | null;
}

export interface RunOptions<T extends RunItem, A extends Answer = Completion> {
  /**
   * An item's answer made of several requests in turn (a rollout: each prompt depends on the answer before), each
   * through `ask`, which retries and is bounded by the run's limiter like a plain item's request. Default: one
   * completion of `item.prompt`. An error of `ask` fails the item as a plain request's would.
   */
  perform?: (item: T, ask: (prompt: string) => Promise<Completion>) => Promise<A>;
  settings: ModelSettings;
  /** Completions per item. Default 1. */
  samples?: number;
  /** HTTP requests in flight at most. Default 8. */
  concurrency?: number;
  /** Abort to stop the run (Ctrl+C): see abortOnInterrupt(). */
  signal?: AbortSignal;
  /** Items in `items` when it is not an array, for progress. */
  total?: number;
  onProgress?: (p: RunProgress) => void;
  onRetry?: (item: T, notice: RetryNotice) => void;
  /** Told when an item fails for good (it stays unanswered; the run goes on unless fatal). */
  onFailure?: (item: T, error: ModelError) => void;
  /** The run stops after this many items failed in a row. Default 10. */
  maxFailuresInARow?: number;
  backoff?: Partial<Backoff>;
  env?: NodeJS.ProcessEnv;
}

export const DEFAULT_CONCURRENCY = 8;

export async function runCompletions<T extends RunItem, A extends Answer = Completion>(
  items: Iterable<T> | AsyncIterable<T>,
  o: RunOptions<T, A>,
  sink: Sink<T, A>,
): Promise<RunSummary> {
  const started = performance.now();
  const concurrency = o.concurrency ?? DEFAULT_CONCURRENCY;
  const maxInARow = o.maxFailuresInARow ?? 10;
  const s = {
    total: Array.isArray(items) ? items.length : (o.total ?? null),
    answered: 0,
    failed: 0,
    inFlight: 0,
    retries: 0,
    truncated: 0,
    inARow: 0,
    lastError: null as ModelError | null,
  };
  const failures: RunSummary['failures'] = [];
  const memo: ServerMemo = {};
  // Aborted by the caller's signal or by the run itself (a fatal error, the sink failing).
  const stop = new AbortController();
  const signal = stop.signal;
  const follow = () => stop.abort();
  let stopError: ModelError | null = null;
  // The sink's error (or the item source's): the run stops and rethrows it once all settled.
  let crash: { e: unknown } | null = null;

  const progress = (): RunProgress => {
    const elapsedMs = performance.now() - started;
    const { total, answered, failed, inFlight, retries, truncated, lastError } = s;
    return {
      total,
      done: answered + failed,
      answered,
      failed,
      inFlight,
      retries,
      truncated,
      elapsedMs,
      perSecond: elapsedMs > 0 ? (answered * 1000) / elapsedMs : 0,
      lastError,
    };
  };
  const summary = (): RunSummary => {
    const { inFlight: _, lastError: __, ...p } = progress();
    return {
      ...p,
      outcome: stopError ? 'stopped' : o.signal?.aborted ? 'aborted' : 'complete',
      error: stopError,
      unanswered: s.total === null ? null : s.total - s.answered,
      failures,
      samplesMode: memo.n ?? null,
    };
  };
  const halt = (e: ModelError) => {
    stopError ??= e;
    stop.abort();
  };

  try {
    checkSettings(o.settings);
    endpointUrl(resolveEndpoint(o.settings.endpoint), 'completions');
    apiKey(o.settings, o.env);
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new ModelError('config', `concurrency must be a whole number ≥ 1, not ${concurrency}`);
  } catch (e) {
    if (!(e instanceof ModelError)) throw e;
    halt(e);
    return summary();
  }

  if (o.signal?.aborted) return summary();
  o.signal?.addEventListener('abort', follow, { once: true });
  const limiter = new Limiter(concurrency);
  const source =
    Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : (items as Iterable<T>)[Symbol.iterator]();
  let pulled: Promise<T | undefined> = Promise.resolve(undefined);
  let exhausted = false;
  // One next() at a time, and none once stopping: items are pulled only when a worker is free.
  const next = (): Promise<T | undefined> =>
    (pulled = pulled.then(async (): Promise<T | undefined> => {
      if (exhausted || signal.aborted) return undefined;
      const r = await source.next();
      if (r.done) exhausted = true;
      return r.done ? undefined : (r.value as T);
    }));

  const worker = async () => {
    for (let item = await next(); item !== undefined; item = await next()) {
      s.inFlight++;
      let answer: A;
      const it = item;
      const ask = (prompt: string) =>
        complete(
          { ...o.settings, prompt, samples: o.samples },
          { signal, limiter, memo, backoff: o.backoff, env: o.env, onRetry: (n) => retried(it, n) },
        );
      try {
        answer = o.perform ? await o.perform(item, ask) : ((await ask(item.prompt)) as unknown as A);
      } catch (e) {
        if (!(e instanceof ModelError)) throw e;
        if (e.code !== 'aborted') failed(item, e);
        continue;
      } finally {
        s.inFlight--;
      }
      if (crash) return;
      await sink(item, answer); // a throw ends the run: see below
      s.answered++;
      s.inARow = 0;
      s.truncated += answer.finishReasons.filter((r) => r === 'length').length;
      o.onProgress?.(progress());
    }
  };
  const retried = (item: T, n: RetryNotice) => {
    s.retries++;
    o.onRetry?.(item, n);
    o.onProgress?.(progress());
  };
  const failed = (item: T, e: ModelError) => {
    s.failed++;
    s.inARow++;
    s.lastError = e;
    failures.push({ id: item.id, error: e });
    o.onFailure?.(item, e);
    if (e.fatal) halt(e);
    else if (s.inARow >= maxInARow)
      halt(new ModelError(e.code, `stopped after ${s.inARow} failures in a row; the last: ${e.message}`, e.status));
    o.onProgress?.(progress());
  };

  const guarded = () =>
    worker().catch((e: unknown) => {
      crash ??= { e };
      stop.abort();
    });
  await Promise.all(Array.from({ length: concurrency }, guarded));
  o.signal?.removeEventListener('abort', follow);
  if (!exhausted) await source.return?.();
  if (crash) throw (crash as { e: unknown }).e;
  return summary();
}
