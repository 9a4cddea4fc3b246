/**
 * The desktop app's API process: an Electron utilityProcess (main/api-process.ts) that owns
 * the corpus and the worker pool, so a big trace never freezes the window: the main process
 * only forwards the renderer's calls here and the answers' bytes back (main/api-client.ts).
 * Plain Node: the port is any object that carries messages (Electron's parentPort, or a test's).
 *
 * Requests are answered in the order of their ids' own lifecycles, not one at a time: calls
 * run concurrently in the pool. A call that arrives while a corpus is being opened waits
 * for it; calls in flight on the corpus being replaced are answered `unavailable`.
 */
import { UserError } from '../../common/errors.js';
import { encodeAnswer } from './answer.js';
import { startPool, type PoolOptions, type WorkerPool } from './pool.js';
import type { FromApiProcess, ToApiProcess } from './protocol.js';

export interface ApiProcessPort {
  postMessage(m: FromApiProcess): void;
  onMessage(listener: (m: ToApiProcess) => void): void;
}

const NO_CORPUS = 'no corpus is open (File › Open Corpus…)';

/** Serves the protocol on `port`; `options` are the pool's for every corpus opened (path aside). */
export function serveApiProcess(port: ApiProcessPort, options: Omit<PoolOptions, 'path'> = {}): void {
  let current: Promise<WorkerPool | null> = Promise.resolve(null);

  const replace = (next: (old: WorkerPool | null) => Promise<WorkerPool | null>) => {
    const prev = current;
    current = prev.catch(() => null).then(async (old) => {
      await old?.close();
      return next(old);
    });
    return current;
  };

  port.onMessage((m) => {
    if (m.type === 'call') {
      void current
        .catch(() => null)
        .then(async (pool) => {
          const body = pool ? await pool.call(m.method, m.params) : encodeAnswer(m.method, { ok: false, error: { code: 'unavailable', message: NO_CORPUS } });
          port.postMessage({ type: 'answer', id: m.id, body });
        });
    } else if (m.type === 'open') {
      replace(() => startPool({ ...options, path: m.path })).then(
        () => port.postMessage({ type: 'done', id: m.id }),
        (e) => {
          const error = e instanceof UserError ? { code: e.code, message: e.message } : { code: 'internal' as const, message: `cannot open ${m.path}: ${(e as Error).message}` };
          port.postMessage({ type: 'failed', id: m.id, error });
        },
      );
    } else if (m.type === 'close') {
      void replace(async () => null).then(() => port.postMessage({ type: 'done', id: m.id }));
    }
  });
}
