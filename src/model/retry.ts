/**
 * Trying a request again: exponential backoff with jitter, or exactly what the server asked
 * for in Retry-After. Only ModelErrors marked retryable are retried.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { ModelError } from './errors.js';
import { DEFAULTS, type ModelSettings } from './settings.js';

export interface Backoff {
  /** Wait before the first retry, doubled for each further one (then jittered). */
  baseMs: number;
  /** Cap on the computed wait. */
  maxMs: number;
  /** A server asking for a longer Retry-After than this is not retried. */
  maxRetryAfterMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 1000, maxMs: 30_000, maxRetryAfterMs: 120_000 };

/** Wait before retry number `retry` (1 = the first retry): uniform in [cap/2, cap]. */
export function backoffDelay(retry: number, b: Backoff, random: () => number = Math.random): number {
  const cap = Math.min(b.maxMs, b.baseMs * 2 ** (retry - 1));
  return cap / 2 + (random() * cap) / 2;
}

const HTTP_DATE = /^(?=.*\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b)(?=.*\b\d\d:\d\d:\d\d\b)/;

/** Retry-After in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || !value.trim()) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  // An HTTP date (RFC 9110 §5.6.7: IMF-fixdate, or the obsolete RFC 850 and asctime forms)
  // always names the month and gives hh:mm:ss. Date.parse alone reads far more: "-5" or
  // "in 5" as dates in 2001, already past, so the retry would not wait at all.
  if (!HTTP_DATE.test(v)) return undefined;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** What a caller is told before each wait (to show "retrying in 2 s"). */
export interface RetryNotice {
  /** The attempt about to be made (2 = the first retry) … */
  attempt: number;
  /** … out of this many at most. */
  of: number;
  delayMs: number;
  /** Why the previous attempt failed. */
  error: ModelError;
}

export interface RetryOptions {
  retries: number;
  backoff: Backoff;
  signal?: AbortSignal;
  onRetry?: (n: RetryNotice) => void;
  random?: () => number;
}

/** The retry policy of a call: the settings' retry count, the caller's backoff over the default. */
export function retryOptions(
  s: Pick<ModelSettings, 'retries'>,
  o: { backoff?: Partial<Backoff>; signal?: AbortSignal; onRetry?: (n: RetryNotice) => void },
): RetryOptions {
  return {
    retries: s.retries ?? DEFAULTS.retries,
    backoff: { ...DEFAULT_BACKOFF, ...o.backoff },
    signal: o.signal,
    onRetry: o.onRetry,
  };
}

export async function withRetry<T>(attempt: () => Promise<T>, o: RetryOptions): Promise<T> {
  const random = o.random ?? Math.random;
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (e) {
      if (!(e instanceof ModelError) || !e.retryable) throw e;
      const tries = `${n} attempt${n > 1 ? 's' : ''}`;
      if (n > o.retries) throw n > 1 ? new ModelError(e.code, `${e.message}; gave up after ${tries}`, e.status) : e;
      let wait = backoffDelay(n, o.backoff, random);
      if (e.retryAfterMs !== undefined) {
        if (e.retryAfterMs > o.backoff.maxRetryAfterMs) {
          throw new ModelError(
            e.code,
            `${e.message}; it asked to wait ${Math.round(e.retryAfterMs / 1000)} s, too long to wait`,
            e.status,
          );
        }
        // Honour the server's wait; a little jitter keeps concurrent requests from returning at once.
        wait = e.retryAfterMs * (1 + 0.1 * random());
      }
      o.onRetry?.({ attempt: n + 1, of: o.retries + 1, delayMs: wait, error: e });
      await sleep(wait, o.signal);
    }
  }
}

/** Resolves after `ms`, or rejects with ModelError 'aborted' as soon as `signal` aborts. */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, { signal });
  } catch {
    throw new ModelError('aborted', 'cancelled');
  }
}
