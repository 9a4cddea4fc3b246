// complete() and listModels() against the fake server: what goes on the wire (headers, seeds,
// samples), what comes back (usage, the model name, extra choices), when a request is tried
// again or not, and cancelling at every moment.
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
  complete,
  listModels,
  type CompletionRequest,
  type RetryNotice,
  type ServerMemo,
} from '../../src/model/index.js';
import { deferred, fakeServers, quick, failure } from './helpers.js';

const serve = fakeServers();
const settings = (url: string, more: Partial<CompletionRequest> = {}): CompletionRequest => ({
  endpoint: url,
  model: 'fake-model',
  prompt: 'p',
  ...more,
});

describe('on the wire', () => {
  it('sends JSON and asks for JSON (FastAPI servers refuse a body without its content type)', async () => {
    const { url, requests } = await serve({ default: 'ok' });
    await complete(settings(url));
    expect([requests[0].contentType, requests[0].accept]).toEqual(['application/json', 'application/json']);
  });

  it('sends no seed at all with separate samples when none is set', async () => {
    const { url, requests } = await serve({ answers: { p: ['A', 'B', 'C'] }, ignoreN: true });
    expect((await complete(settings(url, { samples: 3 }))).texts).toEqual(['A', 'B', 'C']);
    expect(requests).toHaveLength(3);
    for (const r of requests) expect(r.body).not.toHaveProperty('seed');
  });

  it('refuses a prompt that is not a string before sending anything', async () => {
    const { url, requests } = await serve({ default: 'ok' });
    const e = await failure(complete(settings(url, { prompt: 42 as unknown as string })));
    expect([e.code, e.message]).toEqual(['config', 'the prompt must be a string']);
    expect(requests).toHaveLength(0);
  });

  it('quotes the start of an answer that is not JSON, trimmed and on one line', async () => {
    const { url } = await serve({
      faults: [
        {
          fault: 'raw',
          status: 200,
          body: '\n\n  Service   temporarily\tunavailable, please try again in a few minutes',
        },
      ],
    });
    const e = await failure(complete(settings(url)));
    expect(e.message).toBe(
      `the answer from ${url}/v1/completions is not JSON (it starts with "Service temporarily unavailable, pleas"): is this an OpenAI-compatible server?`,
    );
  });
});

describe('samples', () => {
  it('falls back to separate requests when the server refuses `n` with 422 (FastAPI validation)', async () => {
    const { url, requests } = await serve({
      answers: { p: ['A', 'B', 'C'] },
      faults: [{ fault: 'status', status: 422, body: { detail: [{ msg: 'n must be 1' }] } }],
    });
    const memo: ServerMemo = {};
    expect((await complete(settings(url, { samples: 3 }), { memo })).texts).toEqual(['A', 'B', 'C']);
    expect(requests.map((r) => r.body.n ?? 1)).toEqual([3, 1, 1, 1]);
    expect(memo.n).toBe('separate');
  });

  it('does not ask again one by one when the failure is not a refusal of `n`', async () => {
    const { url, requests } = await serve({
      default: 'x',
      faults: [
        {
          fault: 'status',
          status: 404,
          times: 5,
          body: { error: { message: 'The model `fake-model` does not exist.' } },
        },
      ],
    });
    const e = await failure(complete(settings(url, { samples: 3 })));
    expect(e.status).toBe(404);
    expect(requests).toHaveLength(1);
  });

  it('takes a 400 for the prompt’s fault once the server is known to take `n`', async () => {
    const { url, requests } = await serve({
      default: 'x',
      faults: [{ fault: 'status', status: 400, body: { error: { message: 'prompt is too long' } } }],
    });
    const e = await failure(complete(settings(url, { samples: 3 }), { memo: { n: 'native' } }));
    expect(e.message).toMatch(/HTTP 400 .*: prompt is too long$/);
    expect(requests).toHaveLength(1);
  });

  it('keeps k texts when the server sends more choices than asked', async () => {
    const four = JSON.stringify({
      choices: ['A', 'B', 'C', 'D'].map((text, index) => ({ index, text, finish_reason: 'stop' })),
    });
    const { url } = await serve({ faults: [{ fault: 'raw', body: four }] });
    const c = await complete(settings(url, { samples: 3 }));
    expect(c.texts).toEqual(['A', 'B', 'C']);
    expect(c.finishReasons).toEqual(['stop', 'stop', 'stop']);
  });

  it('sums the token counts over separate requests', async () => {
    const { url } = await serve({ answers: { abcdefgh: ['A', 'BB', 'CCCCC'] }, ignoreN: true });
    const c = await complete(settings(url, { prompt: 'abcdefgh', samples: 3 }));
    // The fake counts a token per 4 characters, rounded up: 2 per prompt; 1 + 1 + 2 completed.
    expect(c.usage).toEqual({ promptTokens: 6, completionTokens: 4 });
    expect(c.requests).toBe(3);
  });

  it('reports the model a later request named, and no usage when one request gave none', async () => {
    const bare = JSON.stringify({ choices: [{ index: 0, text: 'A' }] });
    const { url } = await serve({ answers: { p: ['B'] }, faults: [{ fault: 'raw', body: bare }] });
    const c = await complete(settings(url, { samples: 2 }));
    expect(c.texts).toEqual(['A', 'B']);
    expect(c.model).toBe('fake-model');
    expect(c.usage).toBeNull();
  });
});

describe('retries', () => {
  it('announces each wait as the backoff computes it', async () => {
    const { url } = await serve({ default: 'ok', faults: [{ fault: 'status', status: 500, times: 2 }] });
    const seen: RetryNotice[] = [];
    await complete(settings(url), { backoff: quick, onRetry: (n) => seen.push(n) });
    // quick: 1 ms doubled per retry, capped at 4, then drawn from [half, full].
    expect(seen).toHaveLength(2);
    expect(seen[0].delayMs).toBeGreaterThanOrEqual(0.5);
    expect(seen[0].delayMs).toBeLessThanOrEqual(1);
    expect(seen[1].delayMs).toBeGreaterThanOrEqual(1);
    expect(seen[1].delayMs).toBeLessThanOrEqual(2);
  });

  it('says nothing of giving up when no retry was allowed', async () => {
    const { url, requests } = await serve({ default: 'ok', faults: [{ fault: 'status', status: 500 }] });
    const e = await failure(complete(settings(url, { retries: 0 })));
    expect(e.message).toBe(`the server answered HTTP 500 for ${url}/v1/completions: fake server: HTTP 500 on purpose`);
    expect(requests).toHaveLength(1);
  });

  it('retries at once after a Retry-After of 0, whatever the longest wait allowed', async () => {
    const { url } = await serve({ default: 'ok', faults: [{ fault: 'status', status: 429, retryAfter: 0 }] });
    const c = await complete(settings(url), { backoff: { ...quick, maxRetryAfterMs: 0 } });
    expect([c.texts, c.requests]).toEqual([['ok'], 2]);
  });

  it('really waits before trying again', async () => {
    const { url, requests } = await serve({ default: 'ok', faults: [{ fault: 'status', status: 500 }] });
    const ctl = new AbortController();
    const waiting = deferred();
    const call = complete(settings(url), {
      signal: ctl.signal,
      backoff: { baseMs: 600_000, maxMs: 600_000 },
      onRetry: () => waiting.resolve(),
    });
    await waiting.promise;
    // A call that skipped the wait would have its answer long before this.
    expect(await Promise.race([call.then(() => 'answered'), delay(300).then(() => 'waiting')])).toBe('waiting');
    expect(requests).toHaveLength(1);
    ctl.abort();
    const e = await failure(call);
    expect([e.code, e.message]).toEqual(['aborted', 'cancelled']);
  });
});

describe('cancelling', () => {
  it('sends nothing when the signal is already aborted', async () => {
    const { url, requests } = await serve({ default: 'ok' });
    const e = await failure(complete(settings(url), { signal: AbortSignal.abort() }));
    expect(e.code).toBe('aborted');
    expect(requests).toHaveLength(0);
  });

  it('reports an abort in flight as cancelled even with no retries left', async () => {
    const arrived = deferred();
    const { url } = await serve({ answer: () => (arrived.resolve(), new Promise<string>(() => {})) });
    const ctl = new AbortController();
    const call = complete(settings(url, { retries: 0, timeoutMs: 600_000 }), { signal: ctl.signal });
    await arrived.promise;
    ctl.abort();
    const e = await failure(call);
    expect([e.code, e.message]).toEqual(['aborted', 'cancelled']);
  });
});

describe('listModels', () => {
  const KEY = 'sk-models-key';

  it('sends the key from the named variable', async () => {
    const { url } = await serve({ apiKey: KEY, models: ['debugger-1.8b'] });
    expect(
      await listModels(
        { endpoint: url, apiKeyEnv: 'MY_SERVER_KEY' },
        { env: { MY_SERVER_KEY: KEY, STEPSCOPE_API_KEY: 'wrong' } },
      ),
    ).toEqual(['debugger-1.8b']);
  });

  it('names STEPSCOPE_API_KEY when the server wants a key and none was set', async () => {
    const { url } = await serve({ apiKey: KEY });
    const e = await failure(listModels({ endpoint: url }, { env: {} }));
    expect(e.message).toBe(
      `the server answered HTTP 401 for ${url}/v1/models: Incorrect API key provided: none (the server wants an API key: set STEPSCOPE_API_KEY)`,
    );
  });

  it.each([
    null,
    {},
    { data: 'debugger' },
    { data: [{ id: 'a' }, { name: 'b' }] },
    { data: [null] },
    { models: [{ name: 'llama3' }] },
  ])('refuses a list that is not OpenAI’s: %j', async (answer) => {
    const { url } = await serve({ modelsAnswer: answer });
    const e = await failure(listModels({ endpoint: url }));
    expect([e.code, e.message]).toEqual([
      'bad-response',
      `the answer from ${url}/v1/models has no "data" list of models with an "id": is this an OpenAI-compatible server?`,
    ]);
  });
});
