// The Electron shell's locks, under plain Node (Electron cannot launch here): the app://
// protocol that serves the renderer with its CSP, the IPC sender check, the guards on every
// web contents, the session's permission handlers and the menu's DevTools. Electron's
// objects are fakes with the same methods and events.
import { EventEmitter } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSP, IPC_CHANNEL } from '../../src/contract/transport.js';
import { APP_PAGE, isAppPage } from '../../main/app-origin.js';
import { appResponse } from '../../main/app-protocol.js';
import { guardWebContents, lockSession } from '../../main/guards.js';
import { serveIpc } from '../../main/ipc.js';
import { menuTemplate } from '../../main/menu-template.js';
import { cleanTempDirs, tempDir } from '../store/fixtures.js';

let root: string;

beforeAll(() => {
  const dir = tempDir('stepscope-shell-');
  root = join(dir, 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>ui</title>');
  writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(root, '.hidden'), 'no');
  writeFileSync(join(dir, 'secret.txt'), 'outside the renderer folder');
});
afterAll(cleanTempDirs);

describe('app:// protocol', () => {
  it('serves the renderer with the one CSP as a header', async () => {
    const r = await appResponse(root, APP_PAGE);
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('<title>ui</title>');
    expect(r.headers.get('content-security-policy')).toBe(CSP);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const js = await appResponse(root, 'app://stepscope/assets/app.js');
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('content-security-policy')).toBe(CSP);
  });

  it('serves nothing outside the renderer folder, nothing hidden, no other host', async () => {
    for (const url of [
      'app://stepscope/../secret.txt',
      'app://stepscope/%2e%2e/secret.txt',
      'app://stepscope/..%2fsecret.txt',
      'app://stepscope/assets/..%2f..%2fsecret.txt',
      'app://stepscope/.hidden',
      'app://stepscope/nope.js',
      'app://other/index.html',
    ]) {
      const r = await appResponse(root, url);
      expect(r.status, url).toBe(404);
      expect(await r.text(), url).not.toContain('outside');
    }
    expect((await appResponse(root, 'app://stepscope/%e0%a4')).status).toBe(400);
  });

  it("the IPC answers only the renderer's page", () => {
    expect(isAppPage(APP_PAGE)).toBe(true);
    expect(isAppPage(`${APP_PAGE}#trace=3`)).toBe(true);
    for (const url of [
      'file:///app/out/renderer/index.html',
      'app://stepscope/other.html',
      'app://evil/index.html',
      'https://stepscope/index.html',
      'app://stepscope/index.html.evil',
      undefined,
    ]) {
      expect(isAppPage(url), String(url)).toBe(false);
    }
  });
});

describe('IPC bridge', () => {
  it("forwards calls from the renderer's page and refuses any other frame", async () => {
    let handler: ((e: unknown, method: unknown, params: unknown) => unknown) | null = null;
    const ipcMain = {
      handle: (channel: string, f: typeof handler) => (expect(channel).toBe(IPC_CHANNEL), (handler = f)),
    };
    const calls: unknown[] = [];
    serveIpc(ipcMain as never, {
      call: async (m, p) => (calls.push([m, p]), new TextEncoder().encode('{"ok":true,"value":1}')),
    });
    const from = (url: string) => ({ senderFrame: { url } });
    const decode = async (v: unknown) => JSON.parse(new TextDecoder().decode((await v) as Uint8Array));
    expect(await decode(handler!(from(APP_PAGE), 'listTraces', {}))).toEqual({ ok: true, value: 1 });
    expect(calls).toEqual([['listTraces', {}]]);
    for (const url of ['file:///x/index.html', 'app://evil/index.html']) {
      expect(await decode(handler!(from(url), 'listTraces', {}))).toEqual({
        ok: false,
        error: { code: 'forbidden', message: 'IPC refused: not the Stepscope renderer' },
      });
    }
    expect(calls).toHaveLength(1);
  });
});

/** A fake web contents: Electron's events, and the window-open handler it was given. */
class FakeContents extends EventEmitter {
  openHandler: ((d: { url: string }) => { action: string }) | null = null;
  setWindowOpenHandler(f: (d: { url: string }) => { action: string }) {
    this.openHandler = f;
  }
  /** Emits `event` with a preventable event object; whether it was prevented. */
  attempt(event: string, ...args: unknown[]): boolean {
    let prevented = false;
    this.emit(event, { preventDefault: () => (prevented = true), url: 'https://evil.example/' }, ...args);
    return prevented;
  }
}

describe('guards', () => {
  it('every web contents created may not navigate, redirect, open windows or attach webviews', () => {
    const app = new EventEmitter();
    guardWebContents(app as never);
    for (let k = 0; k < 2; k++) {
      const wc = new FakeContents();
      app.emit('web-contents-created', {}, wc);
      for (const event of ['will-navigate', 'will-frame-navigate', 'will-redirect', 'will-attach-webview'])
        expect(wc.attempt(event, 'https://evil.example/'), event).toBe(true);
      expect(wc.openHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    }
  });

  it('the session grants no permission and picks no device', async () => {
    const handlers: Record<string, (...a: any[]) => unknown> = {};
    const session = Object.assign(new EventEmitter(), {
      setPermissionRequestHandler: (f: never) => (handlers.request = f),
      setPermissionCheckHandler: (f: never) => (handlers.check = f),
      setDevicePermissionHandler: (f: never) => (handlers.device = f),
      setDisplayMediaRequestHandler: (f: never) => (handlers.display = f),
    });
    lockSession(session as never);
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'hid',
      'usb',
      'serial',
      'openExternal',
    ]) {
      const granted = await new Promise((resolve) => handlers.request({}, permission, resolve, {}));
      expect(granted, permission).toBe(false);
      expect(handlers.check({}, permission, 'app://stepscope', {}), permission).toBe(false);
    }
    expect(handlers.device({ deviceType: 'usb', origin: 'app://stepscope' })).toBe(false);
    expect(await new Promise((resolve) => handlers.display({}, resolve))).toBe(null);
    for (const [event, args] of [
      ['select-hid-device', [{}]],
      ['select-serial-port', [[{ portId: 'p1' }], {}]],
      ['select-usb-device', [{}]],
    ] as const) {
      let prevented = false;
      const picked = await new Promise((resolve) =>
        session.emit(event, { preventDefault: () => (prevented = true) }, ...args, resolve),
      );
      expect(prevented, event).toBe(true);
      expect([null, '', undefined], event).toContain(picked);
    }
  });

  it('DevTools are in the menu of development builds only', () => {
    const actions = { openDialog() {}, openPath() {}, recent: () => [], openPaper() {} };
    const roles = (dev: boolean) => JSON.stringify(menuTemplate(actions, dev)).match(/"role":"\w+"/g);
    expect(roles(true)).toContain('"role":"toggleDevTools"');
    expect(roles(false)).not.toContain('"role":"toggleDevTools"');
  });
});
