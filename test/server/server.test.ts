// The web mode's HTTP server: access rules, headers, static files, and the start fallback.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startServer, ServeError, type Running } from '../../src/server/listen.js';
import { openCorpus } from '../../src/store/corpus.js';
import { ensureBuilt } from '../cli/helpers.js';
import { cleanTempDirs, tempDir, writeTraces } from '../store/fixtures.js';
import { beforeAllOrFail } from './start-once.js';
import { answerOf } from '../api/call.js';

const repo = resolve(import.meta.dirname, '../..');
let dir: string;
let db: string;
let ui: string;
let open: Running;
let locked: Running;

beforeAllOrFail(async () => {
  // The API runs in worker threads from dist/: a mutation run's sandbox has none until a test builds it.
  ensureBuilt();
  dir = tempDir('stepscope-server-');
  db = join(dir, 'c.db');
  const c = openCorpus(db, { create: true });
  await c.ingest(writeTraces(dir, 't.jsonl', [{ name: 'sum_3' }]));
  c.close();
  ui = join(dir, 'ui');
  mkdirSync(ui);
  writeFileSync(join(ui, 'index.html'), '<!doctype html><title>ui</title>');
  writeFileSync(join(dir, 'secret.txt'), 'outside the UI folder');
  open = await startServer({ db, port: 0, uiDir: ui });
  locked = await startServer({ db, port: 0, uiDir: ui, token: 'sekrit-token-1' });
});
afterAll(async () => {
  await open?.close();
  await locked?.close();
  cleanTempDirs();
});

const post = (base: string, method: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}api/${method}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
/** The answer to a call of `method`, typed from the contract. */
const call = async <M extends string>(base: string, method: M, body: unknown, headers: Record<string, string> = {}) =>
  answerOf<M>(await post(base, method, body, headers));

describe('access', () => {
  it('answers API calls on loopback without a token', async () => {
    const r = await call(open.url, 'listTraces', {});
    expect(r.ok && r.value.total).toBe(1);
  });

  it('refuses a foreign Host header when there is no token (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((res, rej) => {
      const u = new URL(open.url);
      const req = request(
        {
          host: u.hostname,
          port: u.port,
          path: '/api/listTraces',
          method: 'POST',
          headers: { Host: 'evil.example', 'Content-Type': 'application/json' },
        },
        (r) => res(r.statusCode ?? 0),
      );
      req.on('error', rej);
      req.end('{}');
    });
    expect(status).toBe(403);
  });

  it('with a token, every API call needs it', async () => {
    expect((await post(locked.url, 'listTraces', {})).status).toBe(401);
    expect((await post(locked.url, 'listTraces', {}, { Authorization: 'Bearer wrong-token-99' })).status).toBe(401);
    const r = await call(locked.url, 'listTraces', {}, { Authorization: 'Bearer sekrit-token-1' });
    expect(r.ok).toBe(true);
    expect(locked.openUrl).toBe(`${locked.url}#token=sekrit-token-1`);
  });

  it('refuses to listen on a non-loopback host without a token, and opens nothing', async () => {
    await expect(startServer({ db, port: 0, host: '0.0.0.0' })).rejects.toThrow(ServeError);
    await expect(startServer({ db, port: 0, host: '0.0.0.0' })).rejects.toThrow(/without --token/);
  });

  it('needs JSON: a form post (cross-site) is refused', async () => {
    const r = await fetch(`${open.url}api/listTraces`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    });
    expect(r.status).toBe(415);
    expect((await fetch(`${open.url}api/listTraces`)).status).toBe(405);
  });
});

describe('static files and headers', () => {
  it('serves the UI with a CSP and security headers', async () => {
    const r = await fetch(open.url);
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('<title>ui</title>');
    const csp = r.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('never serves a file outside the UI folder', async () => {
    for (const path of ['../secret.txt', '%2e%2e/secret.txt', '..%2fsecret.txt', '.hidden', 'nope.js']) {
      const r = await fetch(`${open.url}${path}`);
      expect(r.status, path).toBe(404);
    }
  });
});

// npm start runs the compiled app (dist/), which never contains a mutant: mutation runs
// (scripts/mutation.mjs sets STEPSCOPE_MUTATION_TESTS) leave it out.
describe.skipIf(process.env.STEPSCOPE_MUTATION_TESTS !== undefined)('npm start', () => {
  /** Runs npm start on the fixture corpus until it prints the web UI's URL; returns it and the output. */
  async function startWeb(
    env: NodeJS.ProcessEnv,
  ): Promise<{ url: string; out: string; child: ReturnType<typeof spawn> }> {
    const child = spawn(process.execPath, [join(repo, 'scripts/start.mjs'), '--db', db, '--port', '0', '--no-build'], {
      cwd: repo,
      env,
    });
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (out += b));
    try {
      const url = await new Promise<string>((res, rej) => {
        const t = setTimeout(() => rej(new Error(`no URL printed:\n${out}`)), 55_000);
        child.on(
          'exit',
          (code) => (clearTimeout(t), rej(new Error(`npm start exited (${code}) before printing a URL:\n${out}`))),
        );
        child.stdout.on('data', () => {
          const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
          if (m) {
            clearTimeout(t);
            res(m[1]);
          }
        });
      });
      return { url, out, child };
    } catch (e) {
      child.kill('SIGTERM');
      throw e;
    }
  }
  const whyLines = (out: string) => out.split('\n').filter((l) => l.startsWith('start: cannot open the desktop app'));

  it('where Electron cannot start, says why in one line and serves the web UI instead', async () => {
    const env = { ...process.env };
    delete env.DISPLAY;
    delete env.WAYLAND_DISPLAY;
    const { url, out, child } = await startWeb(env);
    try {
      expect(whyLines(out)).toHaveLength(1);
      const r = await call(url, 'listTraces', {});
      expect(r.ok && r.value.rows[0].name).toBe('sum_3');
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('where better-sqlite3 cannot be built for Electron, says why in one line and serves the web UI instead', async () => {
    // An Electron binary and a display are there, so start.mjs gets as far as the native build;
    // the fake binary fails loudly if it is ever launched.
    const fake = join(dir, 'fake-electron');
    mkdirSync(fake, { recursive: true });
    writeFileSync(join(fake, 'electron'), '#!/bin/sh\necho "fake electron launched" >&2\nexit 3\n', { mode: 0o755 });
    const gyp = join(dir, 'failing-node-gyp.mjs');
    writeFileSync(
      gyp,
      "console.error('gyp ERR! stack Error: This is most likely not a problem with node-gyp or the package itself and');\nconsole.error('gyp ERR! stack is related to network connectivity.');\nprocess.exit(1);\n",
    );
    const cache = join(dir, 'electron-native');
    const env = {
      ...process.env,
      DISPLAY: ':99',
      ELECTRON_OVERRIDE_DIST_PATH: fake,
      STEPSCOPE_NODE_GYP: gyp,
      STEPSCOPE_ELECTRON_NATIVE_DIR: cache,
    };
    const { url, out, child } = await startWeb(env);
    try {
      expect(whyLines(out)).toEqual([
        "start: cannot open the desktop app: cannot build better-sqlite3 for Electron 45.5.0: could not download Electron's headers from https://electronjs.org/headers (no network access?); serving the web UI instead.",
      ]);
      expect(out).not.toContain('fake electron launched');
      expect(existsSync(join(cache, '45.5.0', 'better_sqlite3.node'))).toBe(false);
      const r = await call(url, 'listTraces', {});
      expect(r.ok && r.value.rows[0].name).toBe('sum_3');
    } finally {
      child.kill('SIGTERM');
    }
  });
});
