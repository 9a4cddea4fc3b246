/**
 * The one IPC channel: `stepscope:invoke` (method, params) -> ApiResult. Only frames loaded
 * from our own renderer file may call it; the method name and params are validated by
 * dispatch() against the API contract, exactly as the HTTP server does.
 */
import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { pathToFileURL } from 'node:url';
import type { Api } from '../src/api/contract.js';
import { dispatch } from '../src/api/dispatch.js';

export const CHANNEL = 'stepscope:invoke';

export function serveIpc(getApi: () => Api | null, rendererFile: string): void {
  const allowed = pathToFileURL(rendererFile).href;
  ipcMain.handle(CHANNEL, async (e: IpcMainInvokeEvent, method: unknown, params: unknown) => {
    const from = e.senderFrame?.url.split('#')[0];
    if (from !== allowed) return { ok: false, error: { message: 'IPC refused: not the Stepscope renderer' } };
    const api = getApi();
    if (!api) return { ok: false, error: { message: 'no corpus is open (File › Open Corpus…)' } };
    return dispatch(api, method, params);
  });
}
