// The one-line messages a user reads when a request fails (src/model/http-errors.ts) and
// how an answer's body is read (src/model/response.ts), called directly with the shapes
// real servers and Node's fetch produce: a refused or unknown host, TLS failures, vLLM/
// FastAPI, llama.cpp and Ollama error bodies, HTML error pages, answers out of order.
import { describe, expect, it } from 'vitest';
import { ModelError } from '../../src/model/index.js';
import { httpError, networkError, serverMessage } from '../../src/model/http-errors.js';
import { formatSeconds } from '../../src/model/http.js';
import { readCompletion } from '../../src/model/response.js';

const URL_ = 'http://gpu-box:8000/v1/completions';
/** What Node's fetch throws: TypeError('fetch failed') with the socket's error as `cause`. */
const fetchFailed = (cause?: object) => new TypeError('fetch failed', cause ? { cause } : undefined);

describe('a connection that failed', () => {
  it.each([
    ['ENOTFOUND', 'unreachable', 'cannot reach http://gpu-box:8000/v1/completions: host gpu-box not found'],
    ['EAI_AGAIN', 'unreachable', 'cannot reach http://gpu-box:8000/v1/completions: host gpu-box not found'],
    [
      'EHOSTUNREACH',
      'unreachable',
      'cannot reach http://gpu-box:8000/v1/completions: no network route to gpu-box:8000',
    ],
    ['ENETUNREACH', 'unreachable', 'cannot reach http://gpu-box:8000/v1/completions: no network route to gpu-box:8000'],
    [
      'UND_ERR_CONNECT_TIMEOUT',
      'unreachable',
      'cannot reach http://gpu-box:8000/v1/completions: the connection timed out',
    ],
    ['ETIMEDOUT', 'unreachable', 'cannot reach http://gpu-box:8000/v1/completions: the connection timed out'],
    [
      'UND_ERR_HEADERS_TIMEOUT',
      'timeout',
      'no answer from http://gpu-box:8000/v1/completions: the server stopped sending',
    ],
    [
      'UND_ERR_BODY_TIMEOUT',
      'timeout',
      'no answer from http://gpu-box:8000/v1/completions: the server stopped sending',
    ],
    [
      'ECONNRESET',
      'dropped',
      'the connection to http://gpu-box:8000/v1/completions closed before the answer was complete',
    ],
    ['EPIPE', 'dropped', 'the connection to http://gpu-box:8000/v1/completions closed before the answer was complete'],
  ])('%s: %s', (code, kind, message) => {
    const e = networkError(fetchFailed({ code, message: `${code} on purpose` }), URL_);
    expect([e.code, e.message]).toEqual([kind, message]);
  });

  it('finds the code of a connection tried on several addresses (an AggregateError)', () => {
    const e = networkError(fetchFailed({ errors: [{ code: 'ECONNREFUSED' }, { code: 'ECONNREFUSED' }] }), URL_);
    expect(e.message).toBe(
      'cannot reach http://gpu-box:8000/v1/completions: connection refused (is the server running on gpu-box:8000?)',
    );
  });

  it('names the TLS failure in the words of the TLS library', () => {
    const expired = networkError(fetchFailed({ code: 'CERT_HAS_EXPIRED', message: 'certificate has expired' }), URL_);
    expect([expired.code, expired.message]).toEqual([
      'unreachable',
      'cannot reach http://gpu-box:8000/v1/completions: TLS failed (certificate has expired)',
    ]);
    const self = networkError(fetchFailed({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }), URL_);
    expect(self.message).toBe(
      'cannot reach http://gpu-box:8000/v1/completions: TLS failed (DEPTH_ZERO_SELF_SIGNED_CERT)',
    );
  });

  it('reports a body cut off mid-answer ("terminated", no cause) as a dropped connection', () => {
    const e = networkError(new TypeError('terminated'), URL_);
    expect([e.code, e.message, e.retryable]).toEqual([
      'dropped',
      'the connection to http://gpu-box:8000/v1/completions closed before the answer was complete',
      true,
    ]);
  });

  it('passes on what it does not know: the cause’s words, else the error’s own', () => {
    const odd = networkError(fetchFailed({ code: 'EWEIRD', message: 'something odd happened' }), URL_);
    expect([odd.code, odd.message]).toEqual([
      'unreachable',
      'cannot reach http://gpu-box:8000/v1/completions: something odd happened',
    ]);
    expect(networkError(new Error('socket hang up'), URL_).message).toBe(
      'cannot reach http://gpu-box:8000/v1/completions: socket hang up',
    );
    expect(networkError('a bare string', URL_).message).toBe(
      'cannot reach http://gpu-box:8000/v1/completions: a bare string',
    );
  });
});

describe('the server’s own words in an error body', () => {
  it.each([
    [
      'OpenAI',
      '{"error": {"message": "This model\'s maximum context length is 4096 tokens", "type": "invalid_request_error"}}',
      "This model's maximum context length is 4096 tokens",
    ],
    [
      'Ollama / llama.cpp, a plain string',
      '{"error": "model \\"debugger\\" not found, try pulling it first"}',
      'model "debugger" not found, try pulling it first',
    ],
    ['a top-level message', '{"object": "error", "message": "bad seed"}', 'bad seed'],
    ['FastAPI detail', '{"detail": "Not Found"}', 'Not Found'],
    [
      'FastAPI validation list',
      '{"detail": [{"loc": ["body", "prompt"], "msg": "field required"}, {"loc": ["body", "n"], "type": "int"}]}',
      'field required; {"loc":["body","n"],"type":"int"}',
    ],
    ['JSON that says nothing', '{"status": "failed"}', ''],
    ['plain text', '  Internal   Server\n\tError \n', 'Internal Server Error'],
    ['plain text with a <', 'prompt length must be < 4096 tokens', 'prompt length must be < 4096 tokens'],
    ['an HTML page', '<html><body><h1>502 Bad Gateway</h1></body></html>', ''],
    ['an HTML page after a newline', '\n  <!DOCTYPE html><html>Bad Gateway</html>', ''],
  ])('%s', (_, body, said) => {
    expect(serverMessage(body)).toBe(said);
  });

  it('keeps 300 characters of a long explanation, and says it cut', () => {
    expect(serverMessage('x'.repeat(300))).toBe('x'.repeat(300));
    expect(serverMessage('x'.repeat(301))).toBe(`${'x'.repeat(300)}…`);
  });
});

describe('an HTTP status', () => {
  const auth = { variable: 'MY_KEY', sent: false };
  const http = (status: number, body: string, sent = false) =>
    httpError(URL_, status, body, undefined, { ...auth, sent }).message;
  const head = (status: number) => `the server answered HTTP ${status} for ${URL_}`;

  it('405 Method Not Allowed is a wrong endpoint, like 404', () => {
    expect(http(405, '{"detail": "Method Not Allowed"}')).toBe(
      `${head(405)}: is this an OpenAI-compatible server (vLLM, llama.cpp's llama-server, Ollama)? Check the endpoint`,
    );
  });

  it('401 and 403 say what to do about the key, with or without the server’s words', () => {
    expect(http(401, '')).toBe(`${head(401)} (the server wants an API key: set MY_KEY)`);
    expect(http(403, '{"error": "forbidden"}', true)).toBe(`${head(403)}: forbidden (check the API key in MY_KEY)`);
    expect(http(403, '', true)).toBe(`${head(403)} (check the API key in MY_KEY)`);
  });

  it('429 passes on the server’s words when it has some', () => {
    expect(http(429, '{"error": {"message": "rate limit reached for model"}}')).toBe(
      `${head(429)}: too many requests (rate limit reached for model); lower the concurrency`,
    );
    expect(http(429, '')).toBe(`${head(429)}: too many requests; lower the concurrency`);
  });

  it('other statuses: the server’s words, or just the status', () => {
    expect(http(500, '<html>Internal Server Error</html>')).toBe(head(500));
    expect(http(503, 'Service Unavailable')).toBe(`${head(503)}: Service Unavailable`);
  });
});

describe('a timeout, as the message says it', () => {
  it.each([
    [300, '300 ms'],
    [999, '999 ms'],
    [1000, '1 s'],
    [1500, '1.5 s'],
    [120_000, '120 s'],
  ])('%i ms → %s', (ms, said) => {
    expect(formatSeconds(ms)).toBe(said);
  });
});

describe('reading an answer', () => {
  const read = (json: unknown) => readCompletion(json, URL_);
  const refusal = (json: unknown): ModelError => {
    try {
      read(json);
    } catch (e) {
      expect(e).toBeInstanceOf(ModelError);
      expect((e as ModelError).code).toBe('bad-response');
      return e as ModelError;
    }
    throw new Error('expected the answer to be refused');
  };

  it.each([null, 'ok', 42, [{ text: 'a' }]])('refuses %j: not a JSON object', (json) => {
    expect(refusal(json).message).toBe(
      `the answer from ${URL_} is not a JSON object: is this an OpenAI-compatible /v1/completions endpoint?`,
    );
  });

  it('says so when the server reports an error without details', () => {
    expect(refusal({ error: {} }).message).toBe(`the server reported an error for ${URL_}: no details`);
  });

  it('refuses a choice that is null', () => {
    expect(refusal({ choices: [{ text: 'a' }, null] }).message).toMatch(/has no text in choices\[1\]/);
  });

  it('cuts a text that starts with a stop token to nothing', () => {
    expect(read({ choices: [{ text: '<|action_sep|>step' }] }).choices[0].text).toBe('');
    expect(read({ choices: [{ text: 'a<|trace_end|>b<|action_sep|>' }] }).choices[0].text).toBe('a');
  });

  it('puts the choices in their `index` order', () => {
    const answer = read({
      choices: [
        { index: 2, text: 'C' },
        { index: 0, text: 'A' },
        { index: 1, text: 'B' },
      ],
    });
    expect(answer.choices.map((c) => c.text)).toEqual(['A', 'B', 'C']);
  });

  it('keeps the server’s order when the indexes do not name each choice once', () => {
    const texts = (choices: object[]) => read({ choices }).choices.map((c) => c.text);
    expect(
      texts([
        { index: 1, text: 'A' },
        { index: 0, text: 'B' },
        { index: 1, text: 'C' },
      ]),
    ).toEqual(['A', 'B', 'C']);
    expect(texts([{ index: 1, text: 'A' }, { index: 0, text: 'B' }, { text: 'C' }])).toEqual(['A', 'B', 'C']);
    expect(
      texts([
        { index: '1', text: 'A' },
        { index: '0', text: 'B' },
      ]),
    ).toEqual(['A', 'B']);
  });

  it('reads the token counts only when both are numbers', () => {
    const usage = (u: unknown) => read({ choices: [{ text: 'a' }], usage: u }).usage;
    expect(usage({ prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 })).toEqual({
      promptTokens: 12,
      completionTokens: 3,
    });
    expect(usage({ prompt_tokens: 12 })).toBeNull();
    expect(usage({ completion_tokens: 3 })).toBeNull();
    expect(usage({ prompt_tokens: '12', completion_tokens: 3 })).toBeNull();
    expect(usage(undefined)).toBeNull();
  });

  it('gives null for a finish reason or model the server did not name as a string', () => {
    const answer = read({
      choices: [{ text: 'a' }, { text: 'b', finish_reason: 7 }, { text: 'c', finish_reason: 'length' }],
      model: 42,
    });
    expect(answer.choices.map((c) => c.finishReason)).toStrictEqual([null, null, 'length']);
    expect(answer.model).toBeNull();
    expect(read({ choices: [{ text: 'a' }] }).model).toBeNull();
  });
});
