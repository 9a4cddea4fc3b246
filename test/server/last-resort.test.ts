/**
 * The server's last resort: an API host breaks its contract (`call` rejects, or resolves to
 * something that is not bytes). A browser must still get an answer it can read, or a closed
 * connection, never a request left hanging; and the server must go on serving.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApiHost } from '../../src/api/host/index.js';
import { createExplorerServer } from '../../src/server/server.js';
import { send } from './http.js';
import { beforeAllOrFail } from './start-once.js';

const JSON_CALL = { Host: '127.0.0.1', 'Content-Type': 'application/json' };
let server: Server;
let base: string;

/** A host whose `fail` method rejects and whose `garbled` method resolves to a non-byte value. */
const brokenHost: ApiHost = {
  call: async (method) => {
    if (method === 'fail') throw new Error('the pool is gone');
    if (method === 'garbled') return { byteLength: 4 } as unknown as Uint8Array;
    return new TextEncoder().encode('{"ok":true,"value":1}');
  },
  close: async () => {},
};

beforeAllOrFail(async () => {
  server = createExplorerServer({ host: brokenHost, staticDir: null });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  // A request a mutant left open must not keep the file from finishing.
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('an exception that escapes the API host', () => {
  it('is answered 500 with the failure shape, the message and the security headers', async () => {
    const a = await send(base, 'POST', '/api/fail', JSON_CALL, '{}');
    expect(a.status).toBe(500);
    expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(a.headers['x-frame-options']).toBe('DENY');
    expect(JSON.parse(a.body)).toEqual({
      ok: false,
      error: { code: 'internal', message: 'internal error: the pool is gone' },
    });
  });

  it('after its headers went out, closes the connection instead of leaving the request open', async () => {
    await expect(send(base, 'POST', '/api/garbled', JSON_CALL, '{}')).rejects.toThrow(/socket hang up|ECONNRESET/);
  });

  it('leaves the server answering the next calls', async () => {
    await send(base, 'POST', '/api/fail', JSON_CALL, '{}');
    await send(base, 'POST', '/api/garbled', JSON_CALL, '{}').catch(() => undefined);
    const a = await send(base, 'POST', '/api/ok', JSON_CALL, '{}');
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body)).toEqual({ ok: true, value: 1 });
  });
});
