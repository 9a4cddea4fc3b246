// What a model server cannot do to the client: send an answer too large to hold (refused at the
// limit, the connection cut, never retried), get the API key stored by echoing it back, hand over
// text that is not Unicode, or meet a timeout that Node's timers cannot count.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { complete, MAX_TIMEOUT_MS, redactEndpoint, type CompletionRequest } from '../../src/model/index.js';
import { failure, quick } from './helpers.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>) => void;

let servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  servers = [];
});

/** A one-route server: `handle` answers every request; `requests` counts them. */
async function server(handle: Handler): Promise<{ url: string; requests: () => number }> {
  let n = 0;
  const s = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      n++;
      handle(req, res, raw ? (JSON.parse(raw) as Record<string, unknown>) : {});
    });
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/v1`, requests: () => n };
}

const answer = (res: ServerResponse, text: string, extra: Record<string, unknown> = {}) => {
  const body = JSON.stringify({ choices: [{ index: 0, text, finish_reason: 'stop' }], model: 'm', ...extra });
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(body);
};

const ask = (url: string, more: Partial<CompletionRequest> = {}): CompletionRequest => ({
  endpoint: url,
  model: 'm',
  prompt: 'p',
  retries: 4,
  ...more,
});

describe('the size of an answer', () => {
  it('refuses an answer over the limit once, without retrying, and says the limit', async () => {
    const big = 'x'.repeat(20 * 2 ** 20);
    const srv = await server((_q, res) => answer(res, big));
    const e = await failure(complete(ask(srv.url), { backoff: quick }));
    expect(e.code).toBe('too-large');
    expect(e.message).toContain('over the limit of 16 MiB');
    expect(e.message).toContain('nothing of it was kept');
    expect(srv.requests()).toBe(1);
  });

  it('stops reading an endless answer (no Content-Length) at the limit and cuts the connection', async () => {
    let sent = 0;
    let closed = false;
    const srv = await server((_q, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"choices": [{"text": "');
      const chunk = 'y'.repeat(2 ** 20);
      const more = () => {
        // 200 MiB at most; the client must hang up long before.
        while (!closed && sent < 200 * 2 ** 20) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end('"}]}');
      };
      res.on('close', () => (closed = true));
      more();
    });
    const e = await failure(complete(ask(srv.url, { maxResponseBytes: 4 * 2 ** 20 }), { backoff: quick }));
    expect(e.code).toBe('too-large');
    expect(e.message).toContain('over the limit of 4 MiB');
    await new Promise((r) => setTimeout(r, 100));
    expect(closed).toBe(true);
    expect(sent).toBeLessThan(100 * 2 ** 20);
    expect(srv.requests()).toBe(1);
  });

  it('takes an answer within a raised limit whole', async () => {
    const text = 'z'.repeat(3000);
    const srv = await server((_q, res) => answer(res, text));
    expect((await failure(complete(ask(srv.url, { maxResponseBytes: 1024 })))).code).toBe('too-large');
    expect((await complete(ask(srv.url, { maxResponseBytes: 8192 }))).texts).toEqual([text]);
  });

  it('still reads the first line of a long error answer', async () => {
    const srv = await server((_q, res) => {
      res.writeHead(400, { 'Content-Type': 'text/plain' });
      res.end(`prompt too long ${'.'.repeat(2 ** 20)}`);
    });
    const e = await failure(complete(ask(srv.url, { maxResponseBytes: 1024 })));
    expect(e.code).toBe('http');
    expect(e.message).toMatch(/HTTP 400 .*: prompt too long/);
  });
});

describe('the API key in an answer', () => {
  it('is taken out of the completions and the model name a server echoes it into', async () => {
    const srv = await server((req, res) =>
      answer(res, `seen ${req.headers.authorization} here`, { model: `m ${req.headers.authorization}` }),
    );
    const c = await complete(ask(srv.url, { apiKeyEnv: 'K' }), { env: { K: 'sk-very-secret-1234' } });
    expect(c.texts).toEqual(['seen Bearer *** here']);
    expect(c.model).toBe('m Bearer ***');
  });

  it('a key too short to tell from text is left in the completion (it would change honest answers)', async () => {
    const srv = await server((_q, res) => answer(res, 'x = 1'));
    const c = await complete(ask(srv.url, { apiKeyEnv: 'K' }), { env: { K: '1' } });
    expect(c.texts).toEqual(['x = 1']);
  });
});

describe('text that is not Unicode', () => {
  it('spells a lone surrogate in a completion as the six characters \\ud800, a pair stays', async () => {
    const srv = await server((_q, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"choices": [{"text": "a\\ud800b \\ud83d\\ude00 \\udfff"}]}');
    });
    const c = await complete(ask(srv.url));
    expect(c.texts).toEqual(['a\\ud800b \u{1f600} \\udfff']);
    expect(/[\ud800-\udfff]/.test(c.texts[0].replace('\u{1f600}', ''))).toBe(false);
  });
});

describe('timeouts', () => {
  it("refuses a timeout Node's timers cannot count (it would fire at once), before anything is sent", async () => {
    const srv = await server((_q, res) => answer(res, 'ok'));
    const e = await failure(complete(ask(srv.url, { timeoutMs: MAX_TIMEOUT_MS + 1 })));
    expect(e.code).toBe('config');
    expect(e.message).toBe(
      `timeout must be a number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, not ${MAX_TIMEOUT_MS + 1}`,
    );
    expect(srv.requests()).toBe(0);
    // The longest one is taken, and does not fire early.
    expect((await complete(ask(srv.url, { timeoutMs: MAX_TIMEOUT_MS }))).texts).toEqual(['ok']);
  });
});

describe('the endpoint as stored', () => {
  it('masks credentials in query parameters and user information, keeps the rest as typed', () => {
    expect(redactEndpoint('http://h:8000/v1?api_key=SEKRIT&x=1')).toBe('http://h:8000/v1?api_key=***&x=1');
    expect(redactEndpoint('h:8000?token=abc')).toBe('h:8000?token=***');
    expect(redactEndpoint('https://u:p@ss@h/v1?sig=1&api-version=2024')).toBe(
      'https://***@h/v1?sig=***&api-version=2024',
    );
    for (const q of ['api-key', 'apikey', 'access_token', 'client_secret', 'password', 'X-Amz-Signature'])
      expect(redactEndpoint(`http://h/v1?${q}=s3cr3t`)).toBe(`http://h/v1?${q}=***`);
    expect(redactEndpoint('http://127.0.0.1:8000')).toBe('http://127.0.0.1:8000');
  });
});
