/**
 * What both transports of the API, and the shells around the renderer, agree on. Pure:
 * imported by the Electron main process and preload, the HTTP server and the renderer's
 * build (which writes CSP_META into index.html).
 */

/** The one IPC channel: invoke(method, params) -> ApiResult (main/ipc.ts, main/preload.ts). */
export const IPC_CHANNEL = 'stepscope:invoke';

/**
 * The content security policy of every page of the explorer: only our own scripts (no inline
 * script, no eval); inline styles are allowed because CodeMirror and D3 set style attributes
 * (Electronegativity's CSP check rates that LOW; renderer/index.html says so where it points).
 */
const DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
];

/** As an HTTP header (web mode, and the desktop app's app:// protocol: main/app-protocol.ts). */
export const CSP = DIRECTIVES.join('; ');

/** As a <meta> tag: the same policy minus frame-ancestors, which browsers ignore there. */
export const CSP_META = DIRECTIVES.filter((d) => !d.startsWith('frame-ancestors')).join('; ');
