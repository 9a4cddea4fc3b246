/**
 * Entry of the API process, an Electron utilityProcess forked by index.ts: it owns the
 * corpus and the worker pool (src/api/host/api-process.ts), so loading a big trace never
 * freezes the window. Messages come and go on Electron's parentPort.
 *
 * `--sqlite-binding PATH`: a better_sqlite3.node built for Electron's ABI (see index.ts).
 */
import { join } from 'node:path';
import { serveApiProcess } from '../src/api/host/api-process.js';

const i = process.argv.indexOf('--sqlite-binding');
const port = process.parentPort;

serveApiProcess(
  { postMessage: (m) => port.postMessage(m), onMessage: (listener) => port.on('message', (e) => listener(e.data)) },
  // The worker is bundled beside this file (electron.vite.config.ts).
  { nativeBinding: i >= 0 ? process.argv[i + 1] : undefined, workerFile: join(import.meta.dirname, 'api-worker.js') },
);
