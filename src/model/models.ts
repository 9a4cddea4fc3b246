/**
 * listModels(): the names a server serves (GET /v1/models), to check settings before a long
 * run or to offer a choice in the app. llama.cpp's server answers whatever `model` is sent,
 * so a name missing from this list is worth a warning, not a refusal.
 */
import type { CallOptions } from './complete.js';
import { endpointUrl, resolveEndpoint } from './endpoint.js';
import { ModelError, redactError } from './errors.js';
import { exchangeJson } from './http.js';
import { retryOptions, withRetry } from './retry.js';
import { apiKey, DEFAULT_API_KEY_ENV, DEFAULTS, type ModelSettings } from './settings.js';

export async function listModels(
  s: Omit<ModelSettings, 'model'>,
  o: Omit<CallOptions, 'memo' | 'limiter'> = {},
): Promise<string[]> {
  const url = endpointUrl(resolveEndpoint(s.endpoint), 'models');
  const key = apiKey({ ...s, model: '' }, o.env);
  try {
    const json = await withRetry(
      () =>
        exchangeJson({
          url,
          key,
          keyVar: s.apiKeyEnv ?? DEFAULT_API_KEY_ENV,
          timeoutMs: s.timeoutMs ?? DEFAULTS.timeoutMs,
          maxBytes: s.maxResponseBytes ?? DEFAULTS.maxResponseBytes,
          signal: o.signal,
        }),
      retryOptions(s, o),
    );
    const data = (json as { data?: unknown })?.data;
    if (!Array.isArray(data) || !data.every((m) => typeof (m as { id?: unknown })?.id === 'string')) {
      throw new ModelError(
        'bad-response',
        `the answer from ${url} has no "data" list of models with an "id": is this an OpenAI-compatible server?`,
      );
    }
    return data.map((m) => (m as { id: string }).id);
  } catch (e) {
    throw redactError(e, key);
  }
}
