/**
 * One HTTP exchange with the server through Node's own fetch, bounded by a timeout that
 * covers the whole answer (headers and body), cancellable by the caller. Every failure is
 * a ModelError; the caller's abort always wins over a timeout in the same instant.
 */
import { ModelError } from './errors.js';
import { httpError, networkError } from './http-errors.js';
import { parseRetryAfter } from './retry.js';

export interface Exchange {
  url: string;
  /** JSON body: POST when present, GET otherwise. */
  body?: unknown;
  key?: string;
  /** The variable the key comes from (or would), named in 401/403 messages. */
  keyVar: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

export async function exchangeJson(x: Exchange): Promise<unknown> {
  // One controller per exchange, fed by the timer and by the caller's signal. (Not
  // AbortSignal.any: on Node 20 it leaks when one input, like a run's signal, lives long.)
  const ctl = new AbortController();
  let timedOut = false;
  const timeout = setTimeout(() => {
    timedOut = true;
    ctl.abort();
  }, x.timeoutMs);
  const cancel = () => ctl.abort();
  if (x.signal?.aborted) ctl.abort();
  else x.signal?.addEventListener('abort', cancel, { once: true });
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (x.body !== undefined) headers['Content-Type'] = 'application/json';
  if (x.key) headers.Authorization = `Bearer ${x.key}`;
  const why = (e: unknown): ModelError => {
    if (x.signal?.aborted) return new ModelError('aborted', 'cancelled');
    if (timedOut)
      return new ModelError(
        'timeout',
        `no answer from ${x.url} within ${formatSeconds(x.timeoutMs)} (the request timed out)`,
      );
    return e instanceof ModelError ? e : networkError(e, x.url);
  };
  try {
    let res: Response;
    let text: string;
    try {
      res = await fetch(x.url, {
        method: x.body === undefined ? 'GET' : 'POST',
        headers,
        body: x.body === undefined ? undefined : JSON.stringify(x.body),
        signal: ctl.signal,
      });
      text = await res.text();
    } catch (e) {
      throw why(e);
    }
    if (!res.ok)
      throw httpError(x.url, res.status, text, parseRetryAfter(res.headers.get('retry-after')), {
        variable: x.keyVar,
        sent: Boolean(x.key),
      });
    try {
      return JSON.parse(text);
    } catch {
      const start = text.trim().slice(0, 40).replace(/\s+/g, ' ');
      throw new ModelError(
        'bad-response',
        `the answer from ${x.url} is not JSON (it starts with ${JSON.stringify(start)}): is this an OpenAI-compatible server?`,
      );
    }
  } finally {
    clearTimeout(timeout);
    x.signal?.removeEventListener('abort', cancel);
  }
}

/** A timeout as a user reads it: `300 ms`, `1 s`, `1.5 s` (exported for its test). */
export function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${+(ms / 1000).toFixed(1)} s` : `${ms} ms`;
}
