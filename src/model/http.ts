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
  /** Largest answer body read, in bytes; a longer one is a ModelError 'too-large' (see readCapped). */
  maxBytes: number;
  signal?: AbortSignal;
}

/** How much of an error answer (non-2xx) is read: enough for the server's one-line explanation. */
const ERROR_BODY_BYTES = 64 * 1024;

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
      text = await readCapped(res, res.ok ? x.maxBytes : ERROR_BODY_BYTES, ctl, x.url);
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

/**
 * The body as text, at most `max` bytes: a declared or actual length over it stops the reading
 * and the connection (`ctl` aborts), so a runaway answer never fills memory. An error answer
 * (max is then ERROR_BODY_BYTES) is cut there instead, as only its first line is shown.
 */
async function readCapped(res: Response, max: number, ctl: AbortController, url: string): Promise<string> {
  const tooLarge = () => {
    ctl.abort();
    return new ModelError(
      'too-large',
      `the answer from ${url} is over the limit of ${formatBytes(max)}: it was not read further and nothing of it ` +
        'was kept (raise the limit, e.g. predict --max-response-mb, if the answers are really that long)',
    );
  };
  const declared = Number(res.headers.get('content-length'));
  if (res.ok && declared > max) throw tooLarge();
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > max) {
      if (res.ok) throw tooLarge();
      chunks.push(value.subarray(0, max - size));
      void reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A byte count as a user reads it: `16 MiB`, `512 KiB`, `100 bytes`. */
export function formatBytes(n: number): string {
  if (n >= 2 ** 20) return `${+(n / 2 ** 20).toFixed(1)} MiB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${n} bytes`;
}

/** A timeout as a user reads it: `300 ms`, `1 s`, `1.5 s` (exported for its test). */
export function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${+(ms / 1000).toFixed(1)} s` : `${ms} ms`;
}
