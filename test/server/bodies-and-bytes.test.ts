/**
 * The server's own edges, against API hosts that echo what they were given (no worker pool):
 * request bodies sent in chunks without a Content-Length (so the check of the declared length
 * cannot see them: only the count of bytes read can), what becomes of the connection after a
 * refused body, and the bytes form (`Accept: application/octet-stream`) with a host that has
 * one and a host that has none.
 */
import { Agent, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApiHost } from '../../src/api/host/index.js';
import { createExplorerServer } from '../../src/server/server.js';
import { send } from './http.js';
import { beforeAllOrFail } from './start-once.js';

const MiB = 1024 * 1024;
const LIMIT = 8 * MiB;
const JSON_CALL = { Host: '127.0.0.1', 'Content-Type': 'application/json' };
const encode = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

/** Answers every call with the method and the params it got (the params' JSON length for long ones). */
const echo = (method: string, params: unknown) => {
  const text = JSON.stringify(params);
  return { ok: true, value: { method, params: text.length > 100 ? `${text.length} characters` : params } };
};
const withBytes: ApiHost = {
  call: async (method, params) => encode(echo(method, params)),
  // getSkeleton has a bytes form; any other method answers its JSON (src/api/host/protocol.ts).
  callBytes: async (method, params) =>
    method === 'getSkeleton'
      ? { body: new Uint8Array([0, 1, 2, 255]), bytes: true }
      : { body: encode(echo(method, params)), bytes: false },
  close: async () => {},
};
const withoutBytes: ApiHost = { call: withBytes.call, close: async () => {} };

let servers: Server[] = [];
let base: string;
let baseWithoutBytes: string;

async function listen(host: ApiHost): Promise<string> {
  const server = createExplorerServer({ host, staticDir: null });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

beforeAllOrFail(async () => {
  base = await listen(withBytes);
  baseWithoutBytes = await listen(withoutBytes);
});
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
  servers = [];
});

interface Streamed {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Bytes the client got to write before the request ended or the connection was cut. */
  sent: number;
}

/**
 * POSTs a body of `total` bytes, spaces then `last`, in chunks of 64 KiB with
 * `Transfer-Encoding: chunked` (no Content-Length), as a browser streams one. Stops writing
 * when the server answers (unless `deaf`: a client that goes on sending after the answer) or
 * cuts the connection. `keepAlive` asks to keep the connection.
 */
function stream(
  path: string,
  total: number,
  last: string,
  { keepAlive = false, deaf = false } = {},
): Promise<Streamed> {
  const u = new URL(base);
  const agent = new Agent({ keepAlive });
  const spaces = Buffer.alloc(64 * 1024, 0x20);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered: Omit<Streamed, 'sent'> | undefined;
    let done = false;
    let cut = false;
    const finish = () => {
      if (done || !answered || (deaf && !cut && sent < total)) return;
      done = true;
      agent.destroy();
      resolve({ ...answered, sent });
    };
    // Cut before any answer: status 0, so the test fails at once on what it got, not on its timeout.
    const lost = () => {
      if (done || answered) return;
      done = true;
      agent.destroy();
      resolve({ status: 0, headers: {}, body: '', sent });
    };
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path,
        method: 'POST',
        agent,
        headers: { ...JSON_CALL, 'Transfer-Encoding': 'chunked' },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => {
          answered = { status: res.statusCode ?? 0, headers: res.headers, body };
          finish();
        });
      },
    );
    // Writing into a connection the server cut after answering: the answer is what counts.
    req.on('error', (e) => {
      cut = true;
      if (answered) finish();
      else if (!deaf) reject(e);
    });
    req.on('close', () => {
      cut = true;
      finish();
      // An answer read before the cut ends its response on a later tick.
      setImmediate(lost);
    });
    const pump = () => {
      const blank = total - last.length;
      while ((deaf || !answered) && !req.destroyed && sent < blank) {
        const n = Math.min(spaces.length, blank - sent);
        sent += n;
        if (!req.write(spaces.subarray(0, n))) return void req.once('drain', pump);
      }
      if ((deaf || !answered) && !req.destroyed && !req.writableEnded) {
        sent += last.length;
        req.end(last);
      }
    };
    pump();
  });
}

describe('a body sent in chunks, without a Content-Length', () => {
  it('of exactly 8 MiB is read whole; one byte more is refused with 413 naming the limit', async () => {
    // The JSON ends at the last byte: a body cut short, or read from a later chunk on, would not parse.
    const at = await stream('/api/listTraces', LIMIT, '{"limit":1}');
    expect([at.status, JSON.parse(at.body)]).toEqual([
      200,
      { ok: true, value: { method: 'listTraces', params: { limit: 1 } } },
    ]);
    const over = await stream('/api/listTraces', LIMIT + 1, '{"limit":1}');
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body)).toEqual({
      ok: false,
      error: { code: 'bad-input', message: 'request body over the limit of 8 MiB' },
    });
    // The server goes on answering.
    expect(JSON.parse((await send(base, 'POST', '/api/listTraces', JSON_CALL, '{}')).body).ok).toBe(true);
  });

  it('from a client that goes on sending after the 413 is cut off once answered, long before 64 MiB', async () => {
    // The 413 says Connection: close. The server reads and drops what follows until the client
    // stops, so the client is not reset before it reads the answer (src/server/server.ts,
    // sendTooBig); one that does not stop cannot make it read the 1 GiB it sends, nor 64 MiB.
    const r = await stream('/api/listTraces', 1024 * MiB, '{}', { deaf: true });
    expect(r.status).toBe(413);
    expect(r.headers.connection).toBe('close');
    expect(r.sent).toBeGreaterThan(LIMIT);
    expect(r.sent).toBeLessThan(64 * MiB);
  });

  it('read whole but refused (not JSON) keeps the connection for the next call', async () => {
    const r = await stream('/api/listTraces', 100, '{"limit":', { keepAlive: true });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).error.message).toMatch(/^request body is not JSON: \S/);
    expect(r.headers.connection).toBe('keep-alive');
  });
});

describe('the bytes form (Accept: application/octet-stream)', () => {
  const call = (b: string, method: string, accept?: string) =>
    send(b, 'POST', `/api/${method}`, { ...JSON_CALL, ...(accept ? { Accept: accept } : {}) }, '{"traceId":1}');

  it("answers a method's raw bytes as application/octet-stream when the client asks for them", async () => {
    // fetch, as the explorer's tree worker reads them (node:http would decode the text).
    const r = await fetch(`${base}api/getSkeleton`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/octet-stream' },
      body: '{"traceId":1}',
    });
    expect([
      r.status,
      r.headers.get('content-type'),
      r.headers.get('content-length'),
      r.headers.get('cache-control'),
    ]).toEqual([200, 'application/octet-stream', '4', 'no-store']);
    expect([...new Uint8Array(await r.arrayBuffer())]).toEqual([0, 1, 2, 255]);
  });

  it('answers JSON for a method without a bytes form, a client preferring JSON, no Accept, or a host without bytes', async () => {
    const json = (method: string) => ({ ok: true, value: { method, params: { traceId: 1 } } });
    const cases: [string, string, string | undefined][] = [
      [base, 'getTrace', 'application/octet-stream'],
      // Listed after JSON, the bytes are only the client's second choice.
      [base, 'getSkeleton', 'application/json, application/octet-stream'],
      [base, 'getSkeleton', undefined],
      [baseWithoutBytes, 'getSkeleton', 'application/octet-stream'],
    ];
    for (const [b, method, accept] of cases) {
      const r = await call(b, method, accept);
      const what = `${b === base ? '' : 'host without bytes: '}${method}, Accept ${accept}`;
      expect([r.status, r.headers['content-type']], what).toEqual([200, 'application/json; charset=utf-8']);
      expect(JSON.parse(r.body), what).toEqual(json(method));
    }
  });
});
