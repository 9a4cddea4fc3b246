/**
 * Electron main process: a thin, locked-down shell around the same API the web mode serves.
 * The renderer is sandboxed with context isolation and no Node; it reaches the corpus only
 * through the preload's `invoke`, validated here (ipc.ts). Navigation, new windows and
 * permission requests are all refused.
 *
 * Which corpus opens: `--db PATH` on the command line (npm start passes the workspace
 * corpus), else the most recent one, else none (File › Open Corpus…).
 *
 * better-sqlite3 in node_modules is built for plain Node's ABI and does not load here:
 * `--sqlite-binding PATH` (npm start passes it; see scripts/electron-native.mjs) names a
 * better_sqlite3.node built for Electron's, used for every corpus this process opens.
 */
import { app, BrowserWindow, dialog, Menu, session } from 'electron';
import { join } from 'node:path';
import { CSP } from '../src/api/contract/transport.js';
import { openApi, type OpenApi } from '../src/api/handlers/index.js';
import { serveIpc } from './ipc.js';
import { buildMenu } from './menu.js';
import { RecentCorpora } from './recent.js';

const rendererFile = join(import.meta.dirname, '../renderer/index.html');
const preloadFile = join(import.meta.dirname, '../preload/index.cjs');

let served: OpenApi | null = null;
let win: BrowserWindow | null = null;
let recent: RecentCorpora;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const sqliteBinding = arg('--sqlite-binding');

function openPath(path: string): void {
  try {
    const next = openApi(path, { nativeBinding: sqliteBinding });
    served?.close();
    served = next;
    recent.add(path);
    Menu.setApplicationMenu(buildMenu(menuActions));
    win?.setTitle(`Stepscope — ${path}`);
    win?.webContents.reload();
  } catch (e) {
    dialog.showErrorBox('Cannot open corpus', (e as Error).message);
  }
}

async function openDialog(): Promise<void> {
  const r = await dialog.showOpenDialog({ title: 'Open Corpus', properties: ['openFile'], filters: [{ name: 'Stepscope corpus', extensions: ['db', 'sqlite'] }, { name: 'All files', extensions: ['*'] }] });
  if (!r.canceled && r.filePaths[0]) openPath(r.filePaths[0]);
}

const menuActions = { openDialog: () => void openDialog(), openPath, recent: () => recent.list() };

function createWindow(): void {
  win = new BrowserWindow({
    width: 1440,
    height: 900,
    title: 'Stepscope',
    webPreferences: { preload: preloadFile, contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, spellcheck: false },
  });
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  win.webContents.on('will-navigate', (e) => e.preventDefault());
  void win.loadFile(rendererFile);
}

app.enableSandbox();
app.whenReady().then(() => {
  recent = new RecentCorpora(app.getPath('userData'));
  // The renderer is a file:// page: the CSP also rides on its <meta>, this covers any response.
  session.defaultSession.webRequest.onHeadersReceived((d, cb) => cb({ responseHeaders: { ...d.responseHeaders, 'Content-Security-Policy': [CSP] } }));
  session.defaultSession.setPermissionRequestHandler((_wc, _perm, cb) => cb(false));
  serveIpc(() => served?.api ?? null, rendererFile);
  Menu.setApplicationMenu(buildMenu(menuActions));
  createWindow();
  const first = arg('--db') ?? recent.list()[0];
  if (first) openPath(first);
});

app.on('window-all-closed', () => {
  served?.close();
  app.quit();
});
