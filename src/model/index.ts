/**
 * The model-server client: OpenAI-compatible /v1/completions (vLLM, llama.cpp's server,
 * Ollama, …) through Node's own fetch. Plain Node: used by the CLI (`stepscope predict`) and
 * by the server or Electron main process ("Ask the model"), never by the renderer.
 * docs/model-servers.md is the user's guide.
 */
export { complete, type CallOptions, type Completion, type CompletionRequest, type ServerMemo } from './complete.js';
export { redactEndpoint, resolveEndpoint } from './endpoint.js';
export { ModelError, type ModelErrorCode } from './errors.js';
export { abortOnInterrupt, type Interrupt, type InterruptOptions } from './interrupt.js';
export { listModels } from './models.js';
export type { Usage } from './response.js';
export type { Backoff, RetryNotice } from './retry.js';
export {
  DEFAULT_CONCURRENCY,
  runCompletions,
  type Answer,
  type RunItem,
  type RunOptions,
  type RunProgress,
  type RunSummary,
  type Sink,
} from './run.js';
export { DEFAULT_API_KEY_ENV, DEFAULTS, MAX_TIMEOUT_MS, STOP_TOKENS, type ModelSettings } from './settings.js';
