/**
 * The one IPC channel (IPC_CHANNEL): invoke(method, params) -> ApiResult. Only frames loaded
 * from our own renderer file may call it; the method name and params are validated by
 * dispatch() against the API contract, exactly as the HTTP server does.
 */
import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { pathToFileURL } from 'node:url';
import type { Api } from '../src/api/contract/index.js';
import { fail } from '../src/api/contract/result.js';
import { IPC_CHANNEL } from '../src/api/contract/transport.js';
import { dispatch } from '../src/api/handlers/index.js';

export function serveIpc(getApi: () => Api | null, rendererFile: string): void {
  const allowed = pathToFileURL(rendererFile).href;
  ipcMain.handle(IPC_CHANNEL, async (e: IpcMainInvokeEvent, method: unknown, params: unknown) => {
    const from = e.senderFrame?.url.split('#')[0];
    if (from !== allowed) return fail('forbidden', 'IPC refused: not the Stepscope renderer');
    const api = getApi();
    if (!api) return fail('unavailable', 'no corpus is open (File › Open Corpus…)');
    return dispatch(api, method, params);
  });
}
