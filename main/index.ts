/**
 * Electron main process: a thin, locked-down shell. It owns windows, menus and dialogs and
 * nothing else: the corpus and the API run in the API process (api-process.ts, an Electron
 * utilityProcess with its own worker threads), so a big trace never freezes the window;
 * main forwards the renderer's calls there (ipc.ts, api-client.ts).
 *
 * Locks: the renderer is served from app://stepscope (app-protocol.ts, with the CSP header),
 * sandboxed with context isolation and no Node, and reaches the API only through the
 * preload's `invoke`; every web contents may not navigate, redirect, open windows or attach
 * webviews, and the session grants no permission or device (guards.ts). DevTools exist in
 * development builds only (not packaged). Electron's fuses are flipped at packaging time
 * (scripts/fuses.mjs).
 *
 * Which corpus opens: `--db PATH` on the command line (npm start passes the workspace
 * corpus), else the most recent one, else none (File › Open Corpus…).
 *
 * better-sqlite3 in node_modules is built for plain Node's ABI and does not load here:
 * `--sqlite-binding PATH` (npm start passes it; see scripts/electron-native.mjs) names a
 * better_sqlite3.node built for Electron's, which the API process uses for every corpus.
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, session, utilityProcess } from 'electron';
import { join } from 'node:path';
import { ApiClient } from './api-client.js';
import { APP_PAGE, APP_SCHEME } from './app-origin.js';
import { appResponse } from './app-protocol.js';
import { guardWebContents, lockSession } from './guards.js';
import { serveIpc } from './ipc.js';
import { buildMenu } from './menu.js';
import { RecentCorpora } from './recent.js';

const rendererDir = join(import.meta.dirname, '../renderer');
const preloadFile = join(import.meta.dirname, '../preload/index.cjs');
const apiProcessFile = join(import.meta.dirname, 'api-process.js');
const dev = !app.isPackaged;

let win: BrowserWindow | null = null;
let recent: RecentCorpora;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const sqliteBinding = arg('--sqlite-binding');

const api = new ApiClient(() =>
  utilityProcess.fork(apiProcessFile, sqliteBinding ? ['--sqlite-binding', sqliteBinding] : [], {
    serviceName: 'Stepscope API',
    stdio: 'inherit',
  }),
);

async function openPath(path: string): Promise<void> {
  try {
    await api.open(path);
  } catch (e) {
    dialog.showErrorBox('Cannot open corpus', (e as Error).message);
    return;
  }
  recent.add(path);
  Menu.setApplicationMenu(buildMenu(menuActions, dev));
  win?.setTitle(`Stepscope — ${path}`);
  win?.webContents.reload();
}

async function openDialog(): Promise<void> {
  const r = await dialog.showOpenDialog({
    title: 'Open Corpus',
    properties: ['openFile'],
    filters: [
      { name: 'Stepscope corpus', extensions: ['db', 'sqlite'] },
      { name: 'All files', extensions: ['*'] },
    ],
  });
  if (!r.canceled && r.filePaths[0]) await openPath(r.filePaths[0]);
}

const menuActions = {
  openDialog: () => void openDialog(),
  openPath: (p: string) => void openPath(p),
  recent: () => recent.list(),
};

function createWindow(): void {
  win = new BrowserWindow({
    width: 1440,
    height: 900,
    title: 'Stepscope',
    webPreferences: {
      // The preload is the renderer's only bridge: one `invoke` over the API contract's method
      // names, nothing else exposed (main/preload.ts). Reviewed for Electronegativity's
      // PRELOAD_JS_CHECK, which flags every preload for review.
      preload: /* eng-disable PRELOAD_JS_CHECK @preserve */ preloadFile,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      devTools: dev,
      navigateOnDragDrop: false,
      spellcheck: false,
      // A middle click must not open a link in a new window.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  void win.loadURL(APP_PAGE);
}

// The renderer's own scheme: standard (relative URLs, an origin), secure (like https).
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);
app.enableSandbox();
guardWebContents(app);

app.whenReady().then(() => {
  recent = new RecentCorpora(app.getPath('userData'));
  lockSession(session.defaultSession);
  session.defaultSession.protocol.handle(APP_SCHEME, (request) => appResponse(rendererDir, request.url));
  serveIpc(ipcMain, api);
  Menu.setApplicationMenu(buildMenu(menuActions, dev));
  createWindow();
  const first = arg('--db') ?? recent.list()[0];
  if (first) void openPath(first);
});

app.on('window-all-closed', () => {
  api.close();
  app.quit();
});
