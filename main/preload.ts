/**
 * The renderer's only bridge to the main process: `window.stepscope.invoke(method, params)`
 * for the API contract's methods. Nothing else from Node or Electron is exposed. Runs
 * sandboxed, so it is bundled whole (electron.vite.config.ts).
 */
import { contextBridge, ipcRenderer } from 'electron';
import { METHODS } from '../src/api/contract/index.js';
import { fail } from '../src/api/contract/result.js';
import { IPC_CHANNEL } from '../src/api/contract/transport.js';

const allowed = new Set<string>(METHODS);

contextBridge.exposeInMainWorld('stepscope', {
  invoke(method: string, params: unknown) {
    if (typeof method !== 'string' || !allowed.has(method)) {
      return Promise.resolve(fail('bad-input', `unknown API method ${JSON.stringify(String(method))}`));
    }
    return ipcRenderer.invoke(IPC_CHANNEL, method, params);
  },
});
