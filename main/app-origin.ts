/**
 * Where the desktop app's renderer comes from: the app:// scheme (app-protocol.ts), one host,
 * one page. The IPC bridge (ipc.ts) answers only that page. No Electron import: tested
 * under plain Node.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'stepscope';
export const APP_PAGE = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** Whether `url` is the renderer's page (its #fragment aside). */
export function isAppPage(url: string | undefined): boolean {
  return url !== undefined && url.split('#')[0] === APP_PAGE;
}
