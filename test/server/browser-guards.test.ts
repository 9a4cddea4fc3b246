/**
 * What stops a web page in the user's browser from reaching the explorer's web mode: the
 * Host check (DNS rebinding), the JSON-only API (cross-site forms) and the headers that
 * keep the UI out of other sites' frames. Each case is one a hostile page can actually send.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type Running } from '../../src/server/listen.js';
import { ensureBuilt } from '../cli/helpers.js';
import { cleanTempDirs, corpusFileOf } from '../store/fixtures.js';
import { send as sendTo, type Answer } from './http.js';
import { beforeAllOrFail } from './start-once.js';

let open: Running;

beforeAllOrFail(async () => {
  ensureBuilt();
  const { dir, db } = await corpusFileOf('stepscope-guards-', [{ name: 'sum_3' }]);
  const ui = join(dir, 'ui');
  mkdirSync(ui);
  writeFileSync(join(ui, 'index.html'), '<!doctype html><title>ui</title>');
  open = await startServer({ db, port: 0, uiDir: ui });
});
afterAll(async () => {
  await open?.close();
  cleanTempDirs();
});

const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
  sendTo(open.url, method, path, headers, body);

const port = () => new URL(open.url).port;
const apiCall = (headers: Record<string, string>) =>
  send('POST', '/api/listTraces', { 'Content-Type': 'application/json', ...headers }, '{}');

describe('Host header (DNS rebinding): without a token only a loopback name is answered', () => {
  it('refuses names that merely start or end like a loopback name', async () => {
    const hostile = [
      'localhost.evil.example',
      `localhost.evil.example:${port()}`,
      'localhost:80.evil.example',
      '127.0.0.1.evil.example',
      `127.0.0.1.nip.io:${port()}`,
      '[::1].evil.example',
      'evil-localhost',
      `evil.example:${port()}`,
      `localhost:${port()}x`,
    ];
    for (const host of hostile) {
      for (const path of ['/api/listTraces', '/']) {
        const r = path === '/' ? await send('GET', '/', { Host: host }) : await apiCall({ Host: host });
        expect(r.status, `${host} ${path}`).toBe(403);
        expect(JSON.parse(r.body), host).toEqual({
          ok: false,
          error: { code: 'forbidden', message: 'forbidden host' },
        });
      }
    }
  });

  it('answers loopback names, with or without a port, in any case', async () => {
    // All of 127.0.0.0/8 is loopback, whatever the number of digits in each part.
    for (const host of [
      'localhost',
      `localhost:${port()}`,
      'LocalHost',
      `127.0.0.1:${port()}`,
      '127.8.9.10',
      `127.10.200.30:${port()}`,
      `[::1]:${port()}`,
    ]) {
      const r = await apiCall({ Host: host });
      expect(r.status, host).toBe(200);
      expect(JSON.parse(r.body).value.total, host).toBe(1);
    }
  });
});

describe('Content-Type: the API takes application/json only', () => {
  it('refuses every type a cross-site form can send without a preflight, even with "application/json" inside', async () => {
    const formTypes = [
      'text/plain; x=application/json',
      'text/plain;application/json',
      'application/x-www-form-urlencoded; a=application/json',
      'multipart/form-data; boundary=application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
    ];
    for (const type of formTypes) {
      const r = await apiCall({ 'Content-Type': type });
      expect(r.status, type).toBe(415);
      expect(JSON.parse(r.body).error.code, type).toBe('bad-input');
    }
    const none = await send('POST', '/api/listTraces', {}, '{}');
    expect(none.status).toBe(415);
  });

  it('answers application/json, with parameters and in any case', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON']) {
      const r = await apiCall({ 'Content-Type': type });
      expect(r.status, type).toBe(200);
      expect(JSON.parse(r.body).ok, type).toBe(true);
    }
  });
});

describe('security headers on every answer', () => {
  /** The CSP header as directive -> sources. */
  const csp = (h: Answer['headers']) =>
    Object.fromEntries(
      String(h['content-security-policy'] ?? '')
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .filter((d) => d[0])
        .map(([name, ...sources]) => [name, sources.join(' ')]),
    );

  it('the UI, an API answer and a refusal all carry the policy, and no other site may frame them', async () => {
    const answers = {
      ui: await send('GET', '/', { Host: 'localhost' }),
      api: await apiCall({}),
      refusal: await apiCall({ Host: 'evil.example' }),
      missing: await send('GET', '/nope.js', {}),
    };
    for (const [what, r] of Object.entries(answers)) {
      // Framing by another site (clickjacking): refused by both the old and the new header.
      expect(r.headers['x-frame-options'], what).toBe('DENY');
      expect(csp(r.headers)['frame-ancestors'], what).toBe("'none'");
      expect(csp(r.headers), what).toEqual({
        'default-src': "'self'",
        'script-src': "'self'",
        'style-src': "'self' 'unsafe-inline'",
        'img-src': "'self' data:",
        'font-src': "'self'",
        'connect-src': "'self'",
        'object-src': "'none'",
        'base-uri': "'none'",
        'form-action': "'none'",
        'frame-ancestors': "'none'",
      });
      expect(r.headers['x-content-type-options'], what).toBe('nosniff');
      expect(r.headers['referrer-policy'], what).toBe('no-referrer');
      expect(r.headers['cross-origin-opener-policy'], what).toBe('same-origin');
      expect(r.headers['cross-origin-resource-policy'], what).toBe('same-origin');
      expect(r.headers['permissions-policy'], what).toBe('camera=(), microphone=(), geolocation=()');
    }
    expect(answers.ui.status).toBe(200);
    expect(answers.refusal.status).toBe(403);
  });
});
