// What the web mode answers to requests that are wrong at the HTTP level: each gets a status
// and the API's failure shape ({ok: false, error: {code, message}}), never a reset connection
// or a 500, and a body is never silently altered.
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type Running } from '../../src/server/listen.js';
import { ensureBuilt } from '../cli/helpers.js';
import { cleanTempDirs, corpusFileOf } from '../store/fixtures.js';
import { beforeAllOrFail } from './start-once.js';

let open: Running;
let locked: Running;

beforeAllOrFail(async () => {
  ensureBuilt();
  const { dir, db } = await corpusFileOf('stepscope-transport-', [{ name: 'sum_3' }]);
  open = await startServer({ db, port: 0, uiDir: join(dir, 'no-ui') });
  locked = await startServer({ db, port: 0, uiDir: join(dir, 'no-ui'), token: 'sekrit-token-1' });
});
afterAll(async () => {
  await open?.close();
  await locked?.close();
  cleanTempDirs();
});

/** One raw request (node:http, so nothing is re-encoded on the way); status and parsed body. */
function raw(
  base: string,
  path: string,
  body: Buffer | string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path,
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: text.startsWith('{') ? JSON.parse(text) : text });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('requests wrong at the HTTP level', () => {
  it('a malformed percent-encoding in the path is a 400 naming the problem, not a 500', async () => {
    for (const path of ['/api/list%E0%A4Traces', '/api/%', '/api/%zz', '/index%ff.html']) {
      const r = await raw(open.url, path, '{}');
      expect(r.status, path).toBe(400);
      expect(r.body.error.code, path).toBe('bad-input');
      expect(r.body.error.message, path).toMatch(/percent-encoding/);
    }
  });

  it('a body over 8 MiB is answered 413 with the limit, the connection is not reset', async () => {
    const big = Buffer.alloc(8 * 1024 * 1024 + 10, 0x20);
    const r = await raw(open.url, '/api/listTraces', big);
    expect(r.status).toBe(413);
    expect(r.body.error.message).toMatch(/over the limit of 8 MiB/);
    // fetch, as the UI sends it, sees the same answer.
    const f = await fetch(`${open.url}api/listTraces`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: big,
    });
    expect(f.status).toBe(413);
    // A Content-Length over the limit is refused before the body is read.
    const declared = await new Promise<number>((resolve, reject) => {
      const u = new URL(open.url);
      const req = request(
        {
          host: u.hostname,
          port: u.port,
          path: '/api/listTraces',
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Content-Length': String(1 << 30) },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.write('{');
    });
    expect(declared).toBe(413);
  });

  it('a body that is not valid UTF-8 is refused with 400, not silently replaced', async () => {
    // {"name": "<0xff>"}: with replacement it would search for U+FFFD and answer 200.
    const body = Buffer.concat([Buffer.from('{"name": "'), Buffer.from([0xff]), Buffer.from('"}')]);
    const r = await raw(open.url, '/api/listTraces', body);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ ok: false, error: { code: 'bad-input', message: 'request body is not valid UTF-8' } });
    // A lone surrogate escaped in JSON is valid UTF-8 and valid JSON: it reaches the API.
    expect((await raw(open.url, '/api/listTraces', '{"name": "\\ud800"}')).body.ok).toBe(true);
  });

  it("a body that is not JSON is a 400 with the parser's words", async () => {
    const r = await raw(open.url, '/api/listTraces', '{"name": ');
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/^request body is not JSON: /);
  });

  it('accepts the Bearer scheme in any case, as RFC 9110 says schemes are case-insensitive', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      const r = await raw(locked.url, '/api/listTraces', '{}', { Authorization: `${scheme} sekrit-token-1` });
      expect(r.status, scheme).toBe(200);
      expect(r.body.ok, scheme).toBe(true);
    }
    for (const header of [
      'Basic sekrit-token-1',
      'Bearer',
      'Bearer sekrit-token-2',
      'Bearersekrit-token-1',
      'sekrit-token-1',
    ]) {
      expect((await raw(locked.url, '/api/listTraces', '{}', { Authorization: header })).status, header).toBe(401);
    }
  });
});
