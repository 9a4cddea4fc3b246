// complete() against the fake OpenAI-compatible server: what is sent, what comes back, and
// every failure a user meets (stalls, 500s, 429s, dropped connections, a server that is down).
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  complete,
  listModels,
  type CompletionRequest,
  type RetryNotice,
  type ServerMemo,
} from '../../src/model/index.js';
import { closedPort, deferred, quick, fakeServers, vectorPairs, vectorTexts, failure } from './helpers.js';

const serve = fakeServers();
const settings = (url: string, more: Partial<CompletionRequest> = {}): CompletionRequest => ({
  endpoint: url,
  model: 'fake-model',
  prompt: '',
  ...more,
});

const pairs = vectorPairs();
const one = pairs.find((p) => p.id === 'count-forward-step-into#3')!;

describe('answers', () => {
  it('returns each reference prompt’s target exactly, the server stopping at the stop tokens', async () => {
    const { url } = await serve({ continuations: vectorTexts() });
    expect(pairs.length).toBeGreaterThan(100);
    for (const p of pairs) {
      const c = await complete(settings(url, { prompt: p.prompt }));
      expect(c.texts, p.id).toEqual([p.target]);
    }
  });

  it('cuts at the first stop token itself when a server ignores `stop`', async () => {
    const { url } = await serve({ continuations: vectorTexts(), ignoreStop: true });
    for (const p of pairs.filter((_, i) => i % 7 === 0)) {
      expect((await complete(settings(url, { prompt: p.prompt }))).texts, p.id).toEqual([p.target]);
    }
  });

  it('sends the raw prompt, the stop tokens and the sampling parameters', async () => {
    const { url, requests } = await serve({ continuations: vectorTexts() });
    const c = await complete(
      settings(url, { prompt: one.prompt, temperature: 0.6, topP: 0.95, maxTokens: 300, seed: 7 }),
    );
    expect(c.texts).toEqual([one.target]);
    expect(c.requests).toBe(1);
    expect(c.model).toBe('fake-model');
    const body = requests[0].body;
    expect(body.prompt).toBe(one.prompt);
    expect(body).toMatchObject({
      model: 'fake-model',
      temperature: 0.6,
      top_p: 0.95,
      max_tokens: 300,
      seed: 7,
      stream: false,
    });
    expect(body.stop).toEqual(['<|action_sep|>', '<|trace_end|>']);
    expect(body.skip_special_tokens).toBe(false);
    expect(body).not.toHaveProperty('n');
    expect(requests[0].authorization).toBeUndefined();
  });

  it('defaults to greedy decoding and merges `extra` fields (null removes one)', async () => {
    const { url, requests } = await serve({ default: 'x' });
    await complete(settings(url, { extra: { skip_special_tokens: null, add_special_tokens: false } }));
    expect(requests[0].body).toMatchObject({ temperature: 0, top_p: 1, max_tokens: 512, add_special_tokens: false });
    expect(requests[0].body).not.toHaveProperty('skip_special_tokens');
  });

  it.each(['', '/', '/v1', '/v1/', '/v1/completions'])(
    'reaches /v1/completions from the endpoint %j',
    async (suffix) => {
      const { url, requests } = await serve({ default: 'ok' });
      expect((await complete(settings(url + suffix))).texts).toEqual(['ok']);
      expect(requests).toHaveLength(1);
    },
  );
});

describe('samples', () => {
  const answers = { [one.prompt]: ['A', 'B', 'C'] };

  it('asks for k samples with `n` in one request when the server takes it', async () => {
    const { url, requests } = await serve({ answers });
    const memo: ServerMemo = {};
    const c = await complete(settings(url, { prompt: one.prompt, samples: 3 }), { memo });
    expect(c.texts).toEqual(['A', 'B', 'C']);
    expect(requests.map((r) => r.body.n)).toEqual([3]);
    expect(memo.n).toBe('native');
  });

  it('asks for the missing samples separately when the server ignores `n`, and remembers', async () => {
    const { url, requests } = await serve({ answers, ignoreN: true });
    const memo: ServerMemo = {};
    const c = await complete(settings(url, { prompt: one.prompt, samples: 3, seed: 10 }), { memo });
    expect(c.texts).toEqual(['A', 'B', 'C']);
    expect(memo.n).toBe('separate');
    // Each separate request gets its own seed, so seeded samples differ.
    expect(requests.map((r) => r.body.seed).sort()).toEqual([10, 11, 12]);
    requests.length = 0;
    await complete(settings(url, { prompt: one.prompt, samples: 2 }), { memo });
    expect(requests.map((r) => r.body.n)).toEqual([undefined, undefined]);
  });

  it('falls back to separate requests when the server refuses `n` (llama.cpp)', async () => {
    const { url, requests } = await serve({ answers, refuseN: true });
    const memo: ServerMemo = {};
    const c = await complete(settings(url, { prompt: one.prompt, samples: 3 }), { memo });
    expect(c.texts).toEqual(['A', 'B', 'C']);
    expect(memo.n).toBe('separate');
    expect(requests.map((r) => r.body.n ?? 1)).toEqual([3, 1, 1, 1]);
  });

  it('reports the prompt’s own 400 when one sample is refused too', async () => {
    const { url, requests } = await serve({
      answers: { [one.prompt]: { fault: 'status', status: 400, body: { error: { message: 'prompt is too long' } } } },
    });
    const memo: ServerMemo = {};
    const e = await failure(complete(settings(url, { prompt: one.prompt, samples: 3 }), { memo }));
    expect(e.message).toMatch(/HTTP 400 .*: prompt is too long$/);
    expect(requests).toHaveLength(2); // n=3, then n=1; neither retried
    expect(memo.n).toBeUndefined();
  });
});

describe('retries', () => {
  const notices = () => {
    const seen: RetryNotice[] = [];
    return { seen, onRetry: (n: RetryNotice) => seen.push(n) };
  };

  it('times out a stalled request, retries, and succeeds', async () => {
    const { url, requests } = await serve({ continuations: vectorTexts(), faults: [{ fault: 'stall' }] });
    const { seen, onRetry } = notices();
    const c = await complete(settings(url, { prompt: one.prompt, timeoutMs: 300 }), { onRetry, backoff: quick });
    expect(c.texts).toEqual([one.target]);
    // Only the first request stalls; on a loaded machine a retry may time out too.
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(new Set(seen.map((n) => n.error.code))).toEqual(new Set(['timeout']));
    expect(seen[0].error.message).toMatch(/no answer from http:\/\/127\.0\.0\.1:\d+\/v1\/completions within 300 ms/);
    expect(requests).toHaveLength(seen.length + 1);
  });

  it('retries 500s until the server recovers', async () => {
    const { url } = await serve({ continuations: vectorTexts(), faults: [{ fault: 'status', status: 500, times: 2 }] });
    const { seen, onRetry } = notices();
    const c = await complete(settings(url, { prompt: one.prompt }), { onRetry, backoff: quick });
    expect(c.texts).toEqual([one.target]);
    expect(c.requests).toBe(3);
    expect(seen.map((n) => [n.attempt, n.of, n.error.status])).toEqual([
      [2, 5, 500],
      [3, 5, 500],
    ]);
  });

  it('waits as long as a 429 says in Retry-After', async () => {
    const { url } = await serve({ default: 'ok', faults: [{ fault: 'status', status: 429, retryAfter: 1 }] });
    const { seen, onRetry } = notices();
    expect((await complete(settings(url), { onRetry, backoff: quick })).texts).toEqual(['ok']);
    expect(seen).toHaveLength(1);
    expect(seen[0].delayMs).toBeGreaterThanOrEqual(1000);
    expect(seen[0].delayMs).toBeLessThanOrEqual(1100);
    expect(seen[0].error.message).toMatch(/HTTP 429 .*too many requests.*lower the concurrency/);
  });

  it('does not wait an hour for a Retry-After', async () => {
    const { url, requests } = await serve({
      default: 'ok',
      faults: [{ fault: 'status', status: 503, retryAfter: 3600 }],
    });
    const e = await failure(complete(settings(url), { backoff: quick }));
    expect(e.message).toMatch(/HTTP 503 .*asked to wait 3600 s, too long to wait/);
    expect(requests).toHaveLength(1);
  });

  it('retries a connection dropped mid-answer', async () => {
    const { url } = await serve({ continuations: vectorTexts(), faults: [{ fault: 'drop' }] });
    const { seen, onRetry } = notices();
    expect((await complete(settings(url, { prompt: one.prompt }), { onRetry, backoff: quick })).texts).toEqual([
      one.target,
    ]);
    expect(seen.map((n) => n.error.code)).toEqual(['dropped']);
    expect(seen[0].error.message).toMatch(
      /connection to http:\/\/127\.0\.0\.1:\d+\/v1\/completions closed before the answer was complete/,
    );
  });

  it('retries a connection reset before any answer', async () => {
    const { url } = await serve({ continuations: vectorTexts(), faults: [{ fault: 'reset' }] });
    const { seen, onRetry } = notices();
    expect((await complete(settings(url, { prompt: one.prompt }), { onRetry, backoff: quick })).texts).toEqual([
      one.target,
    ]);
    expect(seen.map((n) => n.error.code)).toEqual(['dropped']);
  });

  it('gives up after the configured retries and says so', async () => {
    const { url, requests } = await serve({ default: 'ok', faults: [{ fault: 'status', status: 502, times: 10 }] });
    const e = await failure(complete(settings(url, { retries: 2 }), { backoff: quick }));
    expect(e.code).toBe('http');
    expect(e.status).toBe(502);
    expect(e.message).toMatch(
      /^the server answered HTTP 502 for http:\/\/127\.0\.0\.1:\d+\/v1\/completions: fake server: HTTP 502 on purpose; gave up after 3 attempts$/,
    );
    expect(requests).toHaveLength(3);
  });

  it('reports a server that is down, after its retries, without hanging', async () => {
    const port = await closedPort();
    const { seen, onRetry } = notices();
    const e = await failure(
      complete(settings(`http://127.0.0.1:${port}`, { retries: 2 }), { onRetry, backoff: quick }),
    );
    expect(e.code).toBe('unreachable');
    expect(e.fatal).toBe(true);
    expect(e.message).toBe(
      `cannot reach http://127.0.0.1:${port}/v1/completions: connection refused (is the server running on 127.0.0.1:${port}?); gave up after 3 attempts`,
    );
    expect(seen).toHaveLength(2);
  });

  it.each([
    [400, 'fake server: HTTP 400 on purpose'],
    [413, 'fake server: HTTP 413 on purpose'],
    [422, 'fake server: HTTP 422 on purpose'],
  ])('does not retry HTTP %i', async (status, said) => {
    const { url, requests } = await serve({ default: 'ok', faults: [{ fault: 'status', status }] });
    const e = await failure(complete(settings(url), { backoff: quick }));
    expect(e.message).toContain(`HTTP ${status} for ${url}/v1/completions: ${said}`);
    expect(e.fatal).toBe(false);
    expect(requests).toHaveLength(1);
  });

  it('retries HTTP 408', async () => {
    const { url } = await serve({ default: 'ok', faults: [{ fault: 'status', status: 408 }] });
    expect((await complete(settings(url), { backoff: quick })).texts).toEqual(['ok']);
  });
});

describe('servers that are not what they seem', () => {
  it('asks whether a 404 comes from an OpenAI-compatible server', async () => {
    const { url } = await serve({ default: 'ok' });
    const e = await failure(complete(settings(`${url}/some/other/app`)));
    expect(e.message).toBe(
      `the server answered HTTP 404 for ${url}/some/other/app/v1/completions: is this an OpenAI-compatible server (vLLM, llama.cpp's llama-server, Ollama)? Check the endpoint`,
    );
    expect(e.fatal).toBe(true);
  });

  it('passes on the server’s word for an unknown model', async () => {
    const { url } = await serve({ default: 'ok', models: ['debugger-1.8b'] });
    const e = await failure(complete(settings(url, { model: 'debuger-1.8b' })));
    expect(e.message).toMatch(/HTTP 404 .*: The model `debuger-1\.8b` does not exist\.$/);
  });

  it.each([
    ['<html><body>Bad Gateway</body></html>', /is not JSON \(it starts with "<html><body>Bad Gateway/],
    ['{"result": "fine"}', /has no "choices" list: is this an OpenAI-compatible \/v1\/completions endpoint\?/],
    ['{"choices": []}', /has an empty "choices" list/],
    ['{"choices": [{"message": {"role": "assistant", "content": "hi"}}]}', /is a chat completion/],
    ['{"choices": [{"text": 42}]}', /has no text in choices\[0\]/],
    ['{"error": {"message": "CUDA out of memory"}}', /reported an error .*: CUDA out of memory/],
  ])('refuses a malformed answer: %s', async (body, message) => {
    const { url, requests } = await serve({ faults: [{ fault: 'raw', body }] });
    const e = await failure(complete(settings(url), { backoff: quick }));
    expect(e.code).toBe('bad-response');
    expect(e.message).toMatch(message);
    expect(requests).toHaveLength(1);
  });
});

describe('API key', () => {
  const KEY = 'sk-test-5ecret-value';

  it('is sent as a Bearer token from the named variable', async () => {
    const { url, requests } = await serve({ default: 'ok', apiKey: KEY });
    const c = await complete(settings(url, { apiKeyEnv: 'MY_SERVER_KEY' }), { env: { MY_SERVER_KEY: KEY } });
    expect(c.texts).toEqual(['ok']);
    expect(requests[0].authorization).toBe(`Bearer ${KEY}`);
  });

  it('comes from STEPSCOPE_API_KEY when no variable is named', async () => {
    const { url, requests } = await serve({ default: 'ok', apiKey: KEY });
    await complete(settings(url), { env: { STEPSCOPE_API_KEY: KEY } });
    expect(requests[0].authorization).toBe(`Bearer ${KEY}`);
  });

  it('never appears in an error, even when the server echoes it', async () => {
    const { url } = await serve({ default: 'ok', apiKey: 'the-right-key' });
    const e = await failure(complete(settings(url, { apiKeyEnv: 'MY_SERVER_KEY' }), { env: { MY_SERVER_KEY: KEY } }));
    expect(e.status).toBe(401);
    expect(e.message).not.toContain(KEY);
    expect(e.message).toMatch(/Incorrect API key provided: Bearer \*\*\* \(check the API key in MY_SERVER_KEY\)$/);
    expect(JSON.parse(JSON.stringify(e))).toEqual({
      name: 'ModelError',
      code: 'http',
      status: 401,
      message: e.message,
    });
  });

  it('says which variable to set when the server wants a key and none was sent', async () => {
    const { url } = await serve({ default: 'ok', apiKey: KEY });
    const e = await failure(complete(settings(url), { env: {} }));
    expect(e.message).toMatch(/HTTP 401 .*\(the server wants an API key: set STEPSCOPE_API_KEY\)$/);
  });

  it('refuses to start when the named variable is not set', async () => {
    const { url, requests } = await serve({ default: 'ok' });
    const e = await failure(complete(settings(url, { apiKeyEnv: 'MY_SERVER_KEY' }), { env: {} }));
    expect(e.code).toBe('config');
    expect(e.message).toBe("the environment variable MY_SERVER_KEY is not set: it should hold the server's API key");
    expect(requests).toHaveLength(0);
  });
});

describe('settings and cancelling', () => {
  it.each([
    [{ model: '' }, /no model name given/],
    [{ temperature: -1 }, /temperature must be a number ≥ 0, not -1/],
    [{ topP: 0 }, /top-p must be a number in \(0, 1\], not 0/],
    [{ maxTokens: 1.5 }, /max-tokens must be a whole number > 0/],
    [{ samples: 0 }, /samples must be a whole number ≥ 1, not 0/],
    [{ endpoint: 'ftp://x' }, /http:\/\/ or https:\/\//],
    [{ endpoint: 'http://127.0.0.1:6000' }, /fetch refuses port 6000 .*run the server on another port/],
  ])('refuses %j before sending anything', async (bad, message) => {
    const { url, requests } = await serve({ default: 'ok' });
    const e = await failure(complete(settings(url, bad as Partial<CompletionRequest>)));
    expect(e.code).toBe('config');
    expect(e.message).toMatch(message);
    expect(requests).toHaveLength(0);
  });

  it('cancels a request in flight at once when the caller aborts', async () => {
    const arrived = deferred();
    const server = await serve({ answer: () => (arrived.resolve(), new Promise<string>(() => {})) });
    const abort = new AbortController();
    const call = complete(settings(server.url, { timeoutMs: 600_000 }), { signal: abort.signal });
    await arrived.promise;
    abort.abort();
    const e = await failure(call);
    expect(e.code).toBe('aborted');
    expect(server.requests).toHaveLength(1);
  });

  it('leaves no listener on a long-lived signal after each call', async () => {
    const { url } = await serve({ default: 'ok', faults: [{ fault: 'status', status: 500 }] });
    const ctl = new AbortController();
    for (let i = 0; i < 5; i++) await complete(settings(url), { signal: ctl.signal, backoff: quick });
    expect(getEventListeners(ctl.signal, 'abort')).toHaveLength(0);
  });

  it('cancels a wait between retries', async () => {
    const server = await serve({ default: 'ok', faults: [{ fault: 'status', status: 500 }] });
    const abort = new AbortController();
    const call = complete(settings(server.url), {
      signal: abort.signal,
      backoff: { baseMs: 600_000, maxMs: 600_000 },
      onRetry: () => abort.abort(),
    });
    expect((await failure(call)).code).toBe('aborted');
    expect(server.requests).toHaveLength(1);
  });
});

describe('listModels', () => {
  it('names what the server serves, from any form of the endpoint', async () => {
    const { url } = await serve({ models: ['debugger-1.8b', 'debugger-32b'] });
    expect(await listModels({ endpoint: `${url}/v1/` })).toEqual(['debugger-1.8b', 'debugger-32b']);
  });

  it('explains an address that is not an OpenAI-compatible server', async () => {
    const { url } = await serve({});
    const e = await failure(listModels({ endpoint: `${url}/elsewhere` }));
    expect(e.message).toMatch(
      /HTTP 404 for http:\/\/127\.0\.0\.1:\d+\/elsewhere\/v1\/models: is this an OpenAI-compatible server/,
    );
  });
});
