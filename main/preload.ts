/**
 * The renderer's only bridge to the main process: `window.stepscope.invoke(method, params)`
 * for the API contract's methods. Nothing else from Node or Electron is exposed. The answer
 * crosses as the JSON bytes the API process encoded (main only forwards them) and is parsed
 * here, in the renderer's process. Runs sandboxed, so it is bundled whole (electron.vite.config.ts).
 */
import { contextBridge, ipcRenderer } from 'electron';
import { METHODS } from '../src/contract/index.js';
import { fail, type ApiResult } from '../src/contract/result.js';
import { IPC_CHANNEL } from '../src/contract/transport.js';

const allowed = new Set<string>(METHODS);
const utf8 = new TextDecoder();

contextBridge.exposeInMainWorld('stepscope', {
  async invoke(method: string, params: unknown): Promise<ApiResult<unknown>> {
    if (typeof method !== 'string' || !allowed.has(method))
      return fail('bad-input', `unknown API method ${JSON.stringify(String(method))}`);
    const bytes = (await ipcRenderer.invoke(IPC_CHANNEL, method, params)) as Uint8Array;
    return JSON.parse(utf8.decode(bytes)) as ApiResult<unknown>;
  },
});
