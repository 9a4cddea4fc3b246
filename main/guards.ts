/**
 * App-wide locks on everything web the app creates: every web contents (the window, and any
 * other a bug or a compromised renderer might make) may not navigate, be redirected, open a
 * window or attach a <webview>; the session grants no permission and no device. Takes
 * Electron's objects as arguments (types only here), so tests drive it with fakes.
 */
import type { App, Session, WebContents } from 'electron';

/** Locks every web contents as it is created (install before the first window). */
export function guardWebContents(app: Pick<App, 'on'>): void {
  app.on('web-contents-created', (_e, contents) => lockContents(contents));
}

export function lockContents(contents: WebContents): void {
  // The renderer is one page that never navigates: main loads it, nothing else may.
  contents.on('will-navigate', (e) => e.preventDefault());
  contents.on('will-frame-navigate', (e) => e.preventDefault());
  contents.on('will-redirect', (e) => e.preventDefault());
  contents.on('will-attach-webview', (e) => e.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

/** Refuses every permission, permission check and device chooser on `session`. */
export function lockSession(session: Session): void {
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.setDisplayMediaRequestHandler((_request, callback) => callback(null));
  session.on('select-hid-device', (e, _details, callback) => {
    e.preventDefault();
    callback(null);
  });
  session.on('select-serial-port', (e, _ports, _wc, callback) => {
    e.preventDefault();
    callback('');
  });
  session.on('select-usb-device', (e, _details, callback) => {
    e.preventDefault();
    callback();
  });
}
