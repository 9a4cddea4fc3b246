/**
 * complete(): one prompt's completions from an OpenAI-compatible /v1/completions server.
 * k samples are asked for with `n` in one request; a server that refuses `n` (HTTP 400/422)
 * or ignores it (fewer choices) gets the missing samples as separate requests instead, and
 * a shared ServerMemo remembers which way works so later prompts go straight to it.
 */
import { endpointUrl, resolveEndpoint } from './endpoint.js';
import { ModelError, redact, redactError } from './errors.js';
import { exchangeJson } from './http.js';
import type { Limiter } from './limiter.js';
import { readCompletion, type CompletionAnswer, type Usage } from './response.js';
import { retryOptions, withRetry, type Backoff, type RetryNotice } from './retry.js';
import {
  apiKey,
  checkSettings,
  completionBody,
  DEFAULT_API_KEY_ENV,
  DEFAULTS,
  type ModelSettings,
} from './settings.js';

export interface CompletionRequest extends ModelSettings {
  /** Sent as is: the raw prompt, no chat template. */
  prompt: string;
  /** How many completions (samples) to return. Default 1. */
  samples?: number;
}

export interface Completion {
  /** One per sample, in order, each cut before the first stop token. */
  texts: string[];
  /** Per sample: 'stop', 'length' (hit max tokens), … or null when the server did not say. */
  finishReasons: (string | null)[];
  /** The model name the server reported, if any. */
  model: string | null;
  /** Token counts summed over the requests, when the server reports them. */
  usage: Usage | null;
  /** HTTP requests made, retries included. */
  requests: number;
}

/** How a server takes `n`, learned from its answers; share one per server across calls. */
export interface ServerMemo {
  n?: 'native' | 'separate';
}

export interface CallOptions {
  /** Aborting cancels the request in flight and any wait: rejects with code 'aborted'. */
  signal?: AbortSignal;
  /** Told before each retry (what failed, how long the wait is). */
  onRetry?: (notice: RetryNotice) => void;
  memo?: ServerMemo;
  /** Bounds the HTTP requests in flight (shared by a run). */
  limiter?: Limiter;
  backoff?: Partial<Backoff>;
  /** Where the API key variable is looked up. Default process.env. */
  env?: NodeJS.ProcessEnv;
}

export async function complete(req: CompletionRequest, o: CallOptions = {}): Promise<Completion> {
  checkSettings(req);
  const k = req.samples ?? 1;
  if (!Number.isInteger(k) || k < 1) throw new ModelError('config', `samples must be a whole number ≥ 1, not ${k}`);
  if (typeof req.prompt !== 'string') throw new ModelError('config', 'the prompt must be a string');
  const url = endpointUrl(resolveEndpoint(req.endpoint), 'completions');
  const key = apiKey(req, o.env);
  const keyVar = req.apiKeyEnv ?? DEFAULT_API_KEY_ENV;
  const memo = o.memo ?? {};
  let requests = 0;

  // One request for n samples, retried; each attempt holds a slot of the limiter, waits do not.
  const ask = (n: number, seed: number | undefined): Promise<CompletionAnswer> => {
    const body = completionBody(req, req.prompt, n, seed);
    const attempt = async () => {
      requests++;
      return readCompletion(
        await exchangeJson({
          url,
          body,
          key,
          keyVar,
          timeoutMs: req.timeoutMs ?? DEFAULTS.timeoutMs,
          maxBytes: req.maxResponseBytes ?? DEFAULTS.maxResponseBytes,
          signal: o.signal,
        }),
        url,
      );
    };
    return withRetry(() => (o.limiter ? o.limiter.run(attempt) : attempt()), retryOptions(req, o));
  };
  // Separate requests vary the seed so that seeded samples differ.
  const seedOf = (i: number) => (req.seed === undefined ? undefined : req.seed + i);
  const separately = (from: number, count: number) =>
    Promise.all(Array.from({ length: count }, (_, i) => ask(1, seedOf(from + i))));

  try {
    let parts: CompletionAnswer[];
    if (k === 1) parts = [await ask(1, req.seed)];
    else if (memo.n === 'separate') parts = await separately(0, k);
    else {
      let first: CompletionAnswer;
      try {
        first = await ask(k, req.seed);
      } catch (e) {
        const refused = e instanceof ModelError && e.code === 'http' && (e.status === 400 || e.status === 422);
        if (!refused || memo.n === 'native') throw e;
        // If one sample is refused too, the prompt is at fault, not `n`: that error is the one to show.
        first = await ask(1, req.seed);
      }
      const got = first.choices.length;
      memo.n = got >= k ? 'native' : 'separate';
      parts = got >= k ? [first] : [first, ...(await separately(got, k - got))];
    }
    const choices = parts.flatMap((p) => p.choices).slice(0, k);
    const usages = parts.map((p) => p.usage);
    // A server that echoes the Authorization header into its answer must not get the key stored.
    const clean = <T extends string | null>(t: T): T => (t === null ? t : (redactAnswer(t, key) as T));
    return {
      texts: choices.map((c) => clean(c.text)),
      finishReasons: choices.map((c) => clean(c.finishReason)),
      model: clean(parts.find((p) => p.model !== null)?.model ?? null),
      usage: usages.every((u) => u !== null)
        ? {
            promptTokens: sum(usages.map((u) => u!.promptTokens)),
            completionTokens: sum(usages.map((u) => u!.completionTokens)),
          }
        : null,
      requests,
    };
  } catch (e) {
    throw redactError(e, key);
  }
}

/**
 * Keys shorter than this are not taken out of answers: so short a string also turns up in honest
 * completions, and replacing it would change what the model said (and its verdict).
 */
export const MIN_REDACTED_KEY = 8;

/** `text` with every occurrence of the API key replaced by `***` (see MIN_REDACTED_KEY). */
export function redactAnswer(text: string, key: string | undefined): string {
  return key && key.length >= MIN_REDACTED_KEY ? redact(text, key) : text;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
