/** The application menu: File (Open Corpus…, Open Recent, Quit), View, Help. */
import { Menu, shell, type MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  openDialog(): void;
  openPath(path: string): void;
  recent(): string[];
}

export function buildMenu(a: MenuActions): Menu {
  const recent = a.recent();
  const template: MenuItemConstructorOptions[] = [
    {
      label: 'File',
      submenu: [
        { label: 'Open Corpus…', accelerator: 'CmdOrCtrl+O', click: () => a.openDialog() },
        {
          label: 'Open Recent',
          submenu: recent.length ? recent.map((p) => ({ label: p, click: () => a.openPath(p) })) : [{ label: 'No recent corpora', enabled: false }],
        },
        { type: 'separator' },
        { role: 'quit' },
      ],
    },
    { label: 'View', submenu: [{ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' }, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { role: 'togglefullscreen' }] },
    {
      label: 'Help',
      submenu: [
        { label: 'Keys: F11 step into · F10 step over · Shift+F11 step out · F5 continue · Alt+… inverse', enabled: false },
        { label: 'Neural debugger paper (arXiv 2603.09951)', click: () => void shell.openExternal('https://arxiv.org/abs/2603.09951') },
      ],
    },
  ];
  return Menu.buildFromTemplate(template);
}
