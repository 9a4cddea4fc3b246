/** The application menu's template (menu.ts builds it); no Electron import, so tests can read it. */
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  openDialog(): void;
  openPath(path: string): void;
  recent(): string[];
  /** Opens the paper's page in the system browser (the only link the app opens). */
  openPaper(): void;
}

/** `dev`: a development build (not packaged), the only kind with DevTools. */
export function menuTemplate(a: MenuActions, dev: boolean): MenuItemConstructorOptions[] {
  const recent = a.recent();
  return [
    {
      label: 'File',
      submenu: [
        { label: 'Open Corpus…', accelerator: 'CmdOrCtrl+O', click: () => a.openDialog() },
        {
          label: 'Open Recent',
          submenu: recent.length
            ? recent.map((p) => ({ label: p, click: () => a.openPath(p) }))
            : [{ label: 'No recent corpora', enabled: false }],
        },
        { type: 'separator' },
        { role: 'quit' },
      ],
    },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        ...(dev ? [{ role: 'toggleDevTools' } as const] : []),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { role: 'togglefullscreen' },
      ],
    },
    {
      label: 'Help',
      submenu: [
        {
          // The whole list is the renderer's key table (renderer/src/lib/keys.ts), shown by `?`.
          label: 'Keys: ? lists every key · F11 into · F10 over · Shift+F11 out · F5 continue · F8 next failure',
          enabled: false,
        },
        { label: 'Neural debugger paper (arXiv 2603.09951)', click: () => a.openPaper() },
      ],
    },
  ];
}
