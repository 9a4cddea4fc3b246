/**
 * The one IPC channel (IPC_CHANNEL): invoke(method, params) -> the JSON bytes of an
 * ApiResult, which the preload parses. Only our renderer's page (app://stepscope/index.html)
 * may call it; everything else, validating the method and params included, happens in the
 * API process (api-client.ts), exactly as the HTTP server's workers do. No Electron import
 * at run time: tests pass a fake ipcMain.
 */
import type { IpcMain } from 'electron';
import { fail } from '../src/contract/result.js';
import { IPC_CHANNEL } from '../src/contract/transport.js';
import { encodeAnswer } from '../src/api/host/answer.js';
import type { ApiClient } from './api-client.js';
import { isAppPage } from './app-origin.js';

export function serveIpc(ipcMain: Pick<IpcMain, 'handle'>, client: Pick<ApiClient, 'call'>): void {
  ipcMain.handle(IPC_CHANNEL, (e, method: unknown, params: unknown) => {
    const name = String(method).slice(0, 100);
    if (!isAppPage(e.senderFrame?.url))
      return encodeAnswer(name, fail('forbidden', 'IPC refused: not the Stepscope renderer'));
    return client.call(name, params);
  });
}
