/**
 * What the web mode answers at its edges, as a browser or a script sees it: request bodies
 * (empty, not JSON, at and over the size limit), method names, the built UI's files (types,
 * caching, HEAD, folders, bad paths), a server without a UI, tokens that almost match,
 * and starting and stopping (ports in use, hosts, the URL to open).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_UI_DIR, startServer, ServeError, type Running } from '../../src/server/listen.js';
import { openCorpus } from '../../src/store/corpus.js';
import { ensureBuilt } from '../cli/helpers.js';
import { cleanTempDirs, tempDir, writeTraces } from '../store/fixtures.js';
import { send } from './http.js';
import { beforeAllOrFail } from './start-once.js';

let dir: string;
let db: string;
let open: Running;
let locked: Running;
let bare: Running;

beforeAllOrFail(async () => {
  // The API runs in worker threads from dist/: a mutation run's sandbox has none until a test builds it.
  ensureBuilt();
  dir = tempDir('stepscope-answers-');
  db = join(dir, 'c.db');
  const c = openCorpus(db, { create: true });
  await c.ingest(writeTraces(dir, 't.jsonl', [{ name: 'sum_3' }]));
  c.close();
  const ui = join(dir, 'ui');
  mkdirSync(join(ui, 'sub', 'deeper'), { recursive: true });
  writeFileSync(join(ui, 'index.html'), '<!doctype html><title>ui</title>');
  writeFileSync(join(ui, 'app.js'), 'console.log(1);\n');
  writeFileSync(join(ui, 'style.css'), 'body{}');
  writeFileSync(join(ui, 'blob.bin'), Buffer.from([1, 2, 3]));
  for (const ext of Object.keys(TYPES)) writeFileSync(join(ui, `f${ext}`), 'x');
  writeFileSync(join(ui, 'sub', 'index.html'), '<title>sub</title>');
  mkdirSync(join(ui, 'assets'));
  writeFileSync(join(ui, 'assets', 'Dashboard-TJrFMwzo.js'), 'export{};');
  writeFileSync(join(ui, 'assets', 'notes.js'), 'export{};');
  writeFileSync(join(ui, 'assets', 'Dashboard-TJrFMwzo.js.map'), '{}');
  mkdirSync(join(ui, 'sub', 'assets'));
  writeFileSync(join(ui, 'sub', 'assets', 'Dashboard-TJrFMwzo.js'), 'export{};');
  // Hidden files that exist (a build tool's leftovers): never served.
  writeFileSync(join(ui, '.env'), 'SECRET=1');
  writeFileSync(join(ui, 'sub', '.x'), 'x');
  open = await startServer({ db, port: 0, uiDir: ui });
  locked = await startServer({ db, port: 0, uiDir: ui, token: 'tok en&=1' });
  bare = await startServer({ db, port: 0, uiDir: join(dir, 'no-ui') });
});
afterAll(async () => {
  await Promise.all([open?.close(), locked?.close(), bare?.close()]);
  cleanTempDirs();
});

/**
 * What a browser needs for each kind of file the renderer build writes: with `nosniff`, a
 * script or style served under another type is refused, and the page stays blank.
 */
const TYPES: Record<string, string> = {
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

const JSON_TYPE = { 'Content-Type': 'application/json' };
const get = (s: Running, path: string, method = 'GET') => send(s.url, method, path, {});
const call = (s: Running, path: string, body: string, headers: Record<string, string> = {}) =>
  send(s.url, 'POST', path, { ...JSON_TYPE, ...headers }, body);
const parsed = (r: { body: string }) => JSON.parse(r.body);

describe('API request bodies and method names', () => {
  it('an empty body means no parameters', async () => {
    const r = await call(open, '/api/listTraces', '');
    expect(r.status).toBe(200);
    expect(parsed(r).value.rows.map((t: { name: string }) => t.name)).toEqual(['sum_3']);
  });

  it('a body that is not JSON is a bad-input answer naming the parse error', async () => {
    const r = await call(open, '/api/listTraces', '{"limit": 1');
    // A transport problem, answered 400 like the body's other refusals (issue 13).
    expect(r.status).toBe(400);
    const body = parsed(r);
    expect(body.ok).toBe(false);
    expect(body.error.code).toBe('bad-input');
    expect(body.error.message).toMatch(/^request body is not JSON: \S/);
  });

  it('a body of exactly 8 MiB is read; one byte more is refused with 413', async () => {
    const limit = 8 * 1024 * 1024;
    // The JSON ends at the last byte: a body cut short by one chunk would not parse.
    const at = await call(open, '/api/listTraces', ' '.repeat(limit - 2) + '{}');
    expect(at.status).toBe(200);
    expect(parsed(at).ok).toBe(true);
    // The client gets the 413 answer (not a reset connection) and the server keeps answering.
    const over = await call(open, '/api/listTraces', '{}' + ' '.repeat(limit - 1));
    expect(over.status).toBe(413);
    expect(parsed(over).error).toEqual({ code: 'bad-input', message: 'request body over the limit of 8 MiB' });
    expect(parsed(await call(open, '/api/listTraces', '{}')).value.total).toBe(1);
  });

  it('method names are percent-decoded; an unknown one is named in the refusal', async () => {
    expect(parsed(await call(open, '/api/list%54races', '{}')).value.total).toBe(1);
    const r = await call(open, '/api/noSuchMethod', '{}');
    expect(r.status).toBe(200);
    expect(parsed(r).error).toEqual({ code: 'bad-input', message: 'unknown API method "noSuchMethod"' });
  });

  it('a GET to the API, or a body not sent as JSON, is refused saying what the API takes', async () => {
    const r = await get(open, '/api/listTraces');
    expect(r.status).toBe(405);
    expect(parsed(r).error).toEqual({ code: 'bad-input', message: 'API calls use POST' });
    const form = await send(open.url, 'POST', '/api/listTraces', { 'Content-Type': 'text/plain' }, '{}');
    expect(form.status).toBe(415);
    expect(parsed(form).error).toEqual({ code: 'bad-input', message: 'API calls need Content-Type: application/json' });
  });

  it('API answers are JSON that is never cached', async () => {
    const r = await call(open, '/api/listTraces', '{}');
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(r.headers['cache-control']).toBe('no-store');
    expect(Number(r.headers['content-length'])).toBe(Buffer.byteLength(r.body));
  });
});

describe('the built UI as static files', () => {
  it('each file with its type; the page revalidated, assets cached for an hour', async () => {
    const cases: [string, string, string, string][] = [
      ['/', 'text/html; charset=utf-8', 'no-cache', '<!doctype html><title>ui</title>'],
      ['/index.html', 'text/html; charset=utf-8', 'no-cache', '<!doctype html><title>ui</title>'],
      ['/app.js', 'text/javascript; charset=utf-8', 'max-age=3600', 'console.log(1);\n'],
      ['/style.css', 'text/css; charset=utf-8', 'max-age=3600', 'body{}'],
      ['/blob.bin', 'application/octet-stream', 'max-age=3600', '\u0001\u0002\u0003'],
      ['/sub/', 'text/html; charset=utf-8', 'no-cache', '<title>sub</title>'],
    ];
    for (const [path, type, cache, body] of cases) {
      const r = await get(open, path);
      expect([r.status, r.headers['content-type'], r.headers['cache-control'], r.body], path).toEqual([
        200,
        type,
        cache,
        body,
      ]);
      expect(r.headers['content-length'], path).toBe(String(Buffer.byteLength(body)));
    }
  });

  it("the build's assets named by their content's hash are kept for good; other files are not", async () => {
    const kept = await get(open, '/assets/Dashboard-TJrFMwzo.js');
    expect([kept.status, kept.headers['content-type'], kept.headers['cache-control']]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      'public, max-age=31536000, immutable',
    ]);
    // Without a hash in the name, or outside assets/, a new build could change it under the same name;
    // a source map is named after its script's hash, not its own content's.
    for (const path of [
      '/assets/notes.js',
      '/app.js',
      '/assets/Dashboard-TJrFMwzo.js.map',
      '/sub/assets/Dashboard-TJrFMwzo.js',
    ]) {
      const r = await get(open, path);
      expect([r.status, r.headers['cache-control']], path).toEqual([200, 'max-age=3600']);
    }
  });

  it('fonts, images, module scripts and source maps each with the type a browser expects', async () => {
    for (const [ext, type] of Object.entries(TYPES)) {
      const r = await get(open, `/f${ext}`);
      expect([r.status, r.headers['content-type'], r.headers['cache-control']], ext).toEqual([
        200,
        type,
        'max-age=3600',
      ]);
    }
  });

  it('HEAD gives the headers without the body', async () => {
    const r = await get(open, '/app.js', 'HEAD');
    expect(r.status).toBe(200);
    expect(r.headers['content-length']).toBe('16');
    expect(r.body).toBe('');
  });

  it('a folder without a trailing slash, a folder with no index, a hidden or missing file: 404; a bad escape: 400', async () => {
    expect((await get(open, '/%E0%A4%A')).status).toBe(400);
    for (const path of ['/sub', '/sub/deeper/', '/.env', '/sub/.x', '/missing.js']) {
      const r = await get(open, path);
      expect([r.status, r.headers['content-type'], r.body], path).toEqual([
        404,
        'text/plain; charset=utf-8',
        'not found\n',
      ]);
    }
  });

  it('other methods than GET and HEAD are refused outside the API', async () => {
    for (const method of ['PUT', 'DELETE', 'POST']) {
      const r = await send(open.url, method, '/index.html', {}, 'x');
      expect(r.status, method).toBe(405);
      expect(parsed(r).error, method).toEqual({ code: 'bad-input', message: 'method not allowed' });
    }
  });

  it('without a built UI the API still answers and pages are a not-found naming why', async () => {
    expect(bare.uiBuilt).toBe(false);
    expect(open.uiBuilt).toBe(true);
    const r = await get(bare, '/');
    expect(r.status).toBe(404);
    expect(parsed(r).error).toEqual({ code: 'not-found', message: 'no UI built' });
    expect(parsed(await call(bare, '/api/listTraces', '{}')).value.total).toBe(1);
  });
});

describe('tokens', () => {
  const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });

  it("only the exact token opens the API; its length and case count, the scheme's case and spacing do not (RFC 9110)", async () => {
    for (const h of [{ Authorization: 'bearer tok en&=1' }, { Authorization: 'Bearer  tok en&=1' }])
      expect(parsed(await call(locked, '/api/listTraces', '{}', h)).ok, h.Authorization).toBe(true);
    for (const h of [
      bearer('tok en&=1x'),
      bearer('tok en&='),
      bearer('TOK EN&=1'),
      { Authorization: 'tok en&=1' },
      { Authorization: 'XBearer tok en&=1' },
      { Authorization: 'Token Bearer tok en&=1' },
    ]) {
      const r = await call(locked, '/api/listTraces', '{}', h);
      expect(r.status, h.Authorization).toBe(401);
      expect(parsed(r).error, h.Authorization).toEqual({ code: 'forbidden', message: 'missing or wrong token' });
    }
    expect(parsed(await call(locked, '/api/listTraces', '{}', bearer('tok en&=1'))).ok).toBe(true);
  });

  it('with a token, any Host name is answered (a remote browser reaches the server by its own name)', async () => {
    const r = await call(locked, '/api/listTraces', '{}', {
      ...bearer('tok en&=1'),
      Host: 'stepscope.lab.example:8080',
    });
    expect(r.status).toBe(200);
    expect(parsed(r).value.total).toBe(1);
  });

  it('the URL to open carries the token, encoded, in its fragment; without a token it is the plain URL', () => {
    expect(locked.openUrl).toBe(`${locked.url}#token=tok%20en%26%3D1`);
    expect(open.openUrl).toBe(open.url);
    expect(open.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });
});

describe('starting and stopping', () => {
  it('loopback hosts need no token; any other host does, and nothing is opened', async () => {
    const local = await startServer({ db, port: 0, host: 'localhost', uiDir: join(dir, 'no-ui') });
    expect(local.url).toMatch(/^http:\/\/localhost:\d+\/$/);
    await local.close();
    // An IPv6 address is bracketed in the URL, and the server answers there.
    const six = await startServer({ db, port: 0, host: '::1', uiDir: join(dir, 'no-ui') });
    expect(six.url).toMatch(/^http:\/\/\[::1\]:\d+\/$/);
    expect(parsed(await call(six, '/api/listTraces', '{}')).value.total).toBe(1);
    await six.close();
    // All of 127.0.0.0/8 is loopback.
    const range = await startServer({ db, port: 0, host: '127.10.200.30', uiDir: join(dir, 'no-ui') });
    expect(range.url).toMatch(/^http:\/\/127\.10\.200\.30:\d+\/$/);
    await range.close();
    for (const host of [
      '127.0.0.1.nip.io',
      'x127.0.0.1',
      '1127.0.0.1',
      'localhost.evil.example',
      '0.0.0.0',
      '::',
      '10.0.0.1',
    ]) {
      const err = await startServer({ db, port: 0, host }).catch((e: unknown) => e);
      expect(err, host).toBeInstanceOf(ServeError);
      expect((err as ServeError).code, host).toBe('forbidden');
      expect((err as Error).message, host).toBe(
        `refusing to listen on ${host} without --token-file, STEPSCOPE_TOKEN or --token: anyone on the network could read the corpus. Give a token, or use --host 127.0.0.1.`,
      );
    }
  });

  it('a port in use is refused as unavailable, naming the port', async () => {
    const port = Number(new URL(open.url).port);
    const err = await startServer({ db, port }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServeError);
    expect((err as ServeError).code).toBe('unavailable');
    expect((err as Error).message).toBe(
      `port ${port} on 127.0.0.1 is already in use; pick another with --port, or --port 0 for any free port.`,
    );
  });

  it('a port that cannot be listened on is refused as unavailable, naming host and port', async () => {
    const err = await startServer({ db, port: 70000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServeError);
    expect((err as ServeError).code).toBe('unavailable');
    expect((err as Error).message).toMatch(/^cannot listen on 127\.0\.0\.1:70000: \S/);
  });

  it('without a UI folder given, serves the build `npm run build` writes (out/renderer of the checkout)', () => {
    expect(DEFAULT_UI_DIR).toBe(resolve(import.meta.dirname, '../../out/renderer'));
  });

  it('after close, the port no longer answers', async () => {
    const s = await startServer({ db, port: 0, uiDir: join(dir, 'no-ui') });
    expect((await call(s, '/api/listTraces', '{}')).status).toBe(200);
    await s.close();
    await expect(call(s, '/api/listTraces', '{}')).rejects.toThrow(/ECONNREFUSED/);
  });
});
