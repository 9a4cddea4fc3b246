/**
 * One-line messages for what went wrong on the wire: a failed connection (from fetch's
 * error and its `cause`) or a non-2xx answer (from the status and the server's own words).
 */
import { ModelError } from './errors.js';

const REFUSED = new Set(['ECONNREFUSED']);
const NO_HOST = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME']);
const NO_ROUTE = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EHOSTDOWN']);
const CONNECT_TIMEOUT = new Set(['UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);
const SLOW = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function causeOf(e: unknown): { code?: string; message?: string } {
  const cause = (e as { cause?: { code?: string; message?: string; errors?: { code?: string }[] } })?.cause;
  if (!cause) return {};
  return { code: cause.code ?? cause.errors?.[0]?.code, message: cause.message };
}

/** A fetch that threw (no caller abort, no timeout of ours): why, in the user's terms. */
export function networkError(e: unknown, url: string): ModelError {
  const { code, message } = causeOf(e);
  const host = new URL(url).host;
  if (message === 'bad port') {
    const port = new URL(url).port;
    return new ModelError(
      'config',
      `cannot use ${url}: fetch refuses port ${port} (a port reserved for other protocols); run the server on another port`,
    );
  }
  if (code && REFUSED.has(code))
    return new ModelError('unreachable', `cannot reach ${url}: connection refused (is the server running on ${host}?)`);
  if (code && NO_HOST.has(code))
    return new ModelError('unreachable', `cannot reach ${url}: host ${new URL(url).hostname} not found`);
  if (code && NO_ROUTE.has(code))
    return new ModelError('unreachable', `cannot reach ${url}: no network route to ${host}`);
  if (code && CONNECT_TIMEOUT.has(code))
    return new ModelError('unreachable', `cannot reach ${url}: the connection timed out`);
  if (code && SLOW.has(code)) return new ModelError('timeout', `no answer from ${url}: the server stopped sending`);
  if (code && /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED)/.test(code)) {
    return new ModelError('unreachable', `cannot reach ${url}: TLS failed (${message ?? code})`);
  }
  if (
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'UND_ERR_SOCKET' ||
    (e as Error)?.message === 'terminated'
  ) {
    return new ModelError('dropped', `the connection to ${url} closed before the answer was complete`);
  }
  return new ModelError('unreachable', `cannot reach ${url}: ${message ?? (e as Error)?.message ?? String(e)}`);
}

/** The server's own explanation in an error body (OpenAI, vLLM/FastAPI, llama.cpp, Ollama shapes). */
export function serverMessage(text: string): string {
  let said: unknown;
  try {
    const j = JSON.parse(text) as Record<string, unknown>;
    const err = j.error as Record<string, unknown> | string | undefined;
    said = typeof err === 'string' ? err : (err?.message ?? j.message ?? j.detail);
    if (Array.isArray(said)) said = said.map((d) => (d as { msg?: string })?.msg ?? JSON.stringify(d)).join('; ');
  } catch {
    said = /^\s*</.test(text) ? '' : text; // an HTML error page says nothing useful in one line
  }
  const line = String(said ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

const GENERIC = /^(not found|method not allowed|page not found|404 page not found)?$/i;

/** A non-2xx answer. `auth` says which variable the key came from (or would), for 401/403 advice. */
export function httpError(
  url: string,
  status: number,
  text: string,
  retryAfterMs: number | undefined,
  auth: { variable: string; sent: boolean },
): ModelError {
  const said = serverMessage(text);
  const head = `the server answered HTTP ${status} for ${url}`;
  let message: string;
  if (status === 404 || status === 405) {
    message = GENERIC.test(said)
      ? `${head}: is this an OpenAI-compatible server (vLLM, llama.cpp's llama-server, Ollama)? Check the endpoint`
      : `${head}: ${said}`;
  } else if (status === 401 || status === 403) {
    const advice = auth.sent
      ? `check the API key in ${auth.variable}`
      : `the server wants an API key: set ${auth.variable}`;
    message = `${head}${said ? `: ${said}` : ''} (${advice})`;
  } else if (status === 429) {
    message = `${head}: too many requests${said ? ` (${said})` : ''}; lower the concurrency`;
  } else {
    message = said ? `${head}: ${said}` : head;
  }
  return new ModelError('http', message, status, retryAfterMs);
}
