/**
 * The application menu: File (Open Corpus…, Open Recent, Quit), View (DevTools in development
 * builds only), Help. The template is built without Electron (tests check it); buildMenu
 * makes the Menu.
 */
import { Menu, shell } from 'electron';
import { menuTemplate, type MenuActions } from './menu-template.js';

export function buildMenu(a: Omit<MenuActions, 'openPaper'>, dev: boolean): Menu {
  // A fixed https URL, never one from the renderer or a corpus.
  const openPaper = () => void shell.openExternal('https://arxiv.org/abs/2603.09951');
  return Menu.buildFromTemplate(menuTemplate({ ...a, openPaper }, dev));
}
