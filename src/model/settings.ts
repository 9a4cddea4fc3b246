/**
 * What a caller configures once per server: plain JSON, so the app can keep it in its
 * settings and `stepscope predict` can build it from flags. docs/model-servers.md lists
 * what each field becomes on the wire.
 */
import { ACTION, TRACE_END } from '../semantics/tokens.js';
import { ModelError } from './errors.js';

export interface ModelSettings {
  /** The server: `http://host:port` or `http://host:port/v1` (see resolveEndpoint). */
  endpoint: string;
  /** The `model` field (vLLM: the served model name; Ollama: the model tag). */
  model: string;
  /** Default 0 (greedy, the paper's next-state protocol). */
  temperature?: number;
  /** Default 1. */
  topP?: number;
  /** Default 512. A completion that reaches it ends with finishReason 'length'. */
  maxTokens?: number;
  /** Sent as `seed` when given; separate requests for samples use seed + sample index. */
  seed?: number;
  /**
   * Name of the environment variable holding the API key, read at each call and sent as
   * `Authorization: Bearer …`; never stored. When not given, STEPSCOPE_API_KEY is used
   * if it is set; when given, the variable must be set.
   */
  apiKeyEnv?: string;
  /** Per HTTP request, until the whole answer has arrived. Default 120,000 ms; at most MAX_TIMEOUT_MS. */
  timeoutMs?: number;
  /**
   * Largest answer read, in bytes. Default 16 MiB. A longer answer fails its request at once
   * (ModelError 'too-large', not retried) and nothing of it is kept; it also bounds what one
   * completion can be, so no completion larger than this is ever stored.
   */
  maxResponseBytes?: number;
  /** Further attempts after a retryable failure. Default 4. */
  retries?: number;
  /**
   * Extra body fields, merged over the defaults; a null value removes a field (for
   * example `{"skip_special_tokens": null}` for a server that refuses unknown fields).
   */
  extra?: Record<string, unknown>;
}

export const DEFAULT_API_KEY_ENV = 'STEPSCOPE_API_KEY';

/** Where a completion ends: the next action, or the end of the trajectory (§6). */
export const STOP_TOKENS: readonly string[] = [ACTION, TRACE_END];

export const DEFAULTS = {
  temperature: 0,
  topP: 1,
  maxTokens: 512,
  timeoutMs: 120_000,
  maxResponseBytes: 16 * 2 ** 20,
  retries: 4,
} as const;

/** Node's timers hold a signed 32-bit count of milliseconds: a longer one fires at once. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Fields every request carries besides the OpenAI ones. vLLM drops special tokens from
 * the text by default, which would erase the state's separators and keep the stop
 * strings from ever matching; other servers ignore fields they do not know.
 */
const SERVER_EXTRAS: Record<string, unknown> = { skip_special_tokens: false, spaces_between_special_tokens: false };

/** The JSON body of one /v1/completions request asking for `n` samples. */
export function completionBody(s: ModelSettings, prompt: string, n: number, seed?: number): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: s.model,
    prompt,
    max_tokens: s.maxTokens ?? DEFAULTS.maxTokens,
    temperature: s.temperature ?? DEFAULTS.temperature,
    top_p: s.topP ?? DEFAULTS.topP,
    stop: [...STOP_TOKENS],
    stream: false,
    ...SERVER_EXTRAS,
  };
  if (n > 1) body.n = n;
  if (seed !== undefined) body.seed = seed;
  for (const [k, v] of Object.entries(s.extra ?? {})) {
    if (v === null) delete body[k];
    else body[k] = v;
  }
  return body;
}

/** Checks the settings a user typed, before anything is sent. */
export function checkSettings(s: ModelSettings): void {
  const bad = (what: string) => {
    throw new ModelError('config', what);
  };
  if (typeof s.model !== 'string' || !s.model.trim())
    bad('no model name given: name the model the server serves (GET /v1/models lists them)');
  const num = (v: number | undefined, name: string, ok: (x: number) => boolean, expect: string) => {
    if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v) && ok(v)))
      bad(`${name} must be ${expect}, not ${v}`);
  };
  num(s.temperature, 'temperature', (x) => x >= 0, 'a number ≥ 0');
  num(s.topP, 'top-p', (x) => x > 0 && x <= 1, 'a number in (0, 1]');
  num(s.maxTokens, 'max-tokens', (x) => Number.isInteger(x) && x > 0, 'a whole number > 0');
  num(
    s.timeoutMs,
    'timeout',
    (x) => x >= 1 && x <= MAX_TIMEOUT_MS,
    `a number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`,
  );
  num(s.maxResponseBytes, 'the answer size limit', (x) => Number.isInteger(x) && x > 0, 'a whole number of bytes > 0');
  num(s.retries, 'retries', (x) => Number.isInteger(x) && x >= 0, 'a whole number ≥ 0');
  num(s.seed, 'seed', Number.isInteger, 'a whole number');
}

/** The API key for this call, or undefined when none is configured. */
export function apiKey(s: ModelSettings, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (s.apiKeyEnv === undefined) return env[DEFAULT_API_KEY_ENV] || undefined;
  const key = env[s.apiKeyEnv];
  if (!key) {
    throw new ModelError(
      'config',
      `the environment variable ${s.apiKeyEnv} is not set: it should hold the server's API key`,
    );
  }
  return key;
}
