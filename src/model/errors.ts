/**
 * Errors from talking to a model server. `message` is one line a user can act on and is
 * shown as is (CLI, app, API answers); it never contains the API key (see redact()).
 */

export type ModelErrorCode =
  | 'config' // bad endpoint, settings or missing key variable: nothing was sent
  | 'unreachable' // no connection: refused, unknown host, network down, TLS failure
  | 'dropped' // the connection closed before the whole answer arrived
  | 'timeout' // no complete answer within the per-request timeout
  | 'http' // the server answered with a non-2xx status (see `status`)
  | 'bad-response' // a 2xx answer that is not an OpenAI-compatible completion
  | 'too-large' // an answer over the size limit: not read further, not retried, nothing kept
  | 'aborted'; // the caller cancelled (Ctrl+C, closed view)

export class ModelError extends Error {
  constructor(
    readonly code: ModelErrorCode,
    message: string,
    /** HTTP status, for code 'http'. */
    readonly status?: number,
    /** Milliseconds the server asked to wait (Retry-After), when it said. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ModelError';
  }

  /** What crosses a process boundary (API answers, IPC): the code and the one-line message. */
  toJSON(): { name: string; code: ModelErrorCode; message: string; status?: number } {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      ...(this.status === undefined ? {} : { status: this.status }),
    };
  }

  /** Worth trying again after a pause: the same request may succeed. */
  get retryable(): boolean {
    if (this.code === 'http') return this.status === 408 || this.status === 429 || (this.status ?? 0) >= 500;
    return this.code === 'unreachable' || this.code === 'dropped' || this.code === 'timeout';
  }

  /**
   * About the server or the settings rather than one prompt: every other request would
   * fail the same way, so a run stops instead of failing item after item.
   */
  get fatal(): boolean {
    if (this.code === 'http') return [401, 403, 404, 405].includes(this.status ?? 0);
    return this.code === 'config' || this.code === 'unreachable';
  }
}

/** Replaces every occurrence of `secret` in `text` (no-op when there is no secret). */
export function redact(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join('***') : text;
}

/** `e` with `secret` taken out of its message (a server may echo request headers in an error). */
export function redactError(e: unknown, secret: string | undefined): unknown {
  if (!(e instanceof ModelError) || !secret || !e.message.includes(secret)) return e;
  return new ModelError(e.code, redact(e.message, secret), e.status, e.retryAfterMs);
}
