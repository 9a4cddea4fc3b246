/**
 * The desktop app's API process: an Electron utilityProcess (main/api-process.ts) that owns
 * the corpus and the worker pool, so a big trace never freezes the window: the main process
 * only forwards the renderer's calls here and the answers' bytes back (main/api-client.ts).
 * Plain Node: the port is any object that carries messages (Electron's parentPort, or a test's).
 *
 * Calls run concurrently in the pool, each answered when done. A call that arrives while a
 * corpus is being opened waits for it; calls in flight on a corpus being replaced are
 * answered `unavailable`; a corpus that cannot be opened leaves the one before it served.
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
  /** The pool serving calls; replaced in message order by open and close. */
  let current: Promise<WorkerPool | null> = Promise.resolve(null);

  /** Runs `next` after what came before; `current` becomes what it returns (the old pool when it fails). */
  const replace = (id: number, next: (old: WorkerPool | null) => Promise<WorkerPool | null>) => {
    current = current.then(async (old) => {
      try {
        const pool = await next(old);
        if (pool !== old) await old?.close();
        port.postMessage({ type: 'done', id });
        return pool;
      } catch (e) {
        const error =
          e instanceof UserError
            ? { code: e.code, message: e.message }
            : { code: 'internal' as const, message: `cannot open the corpus: ${(e as Error).message}` };
        port.postMessage({ type: 'failed', id, error });
        return old;
      }
    });
  };

  port.onMessage((m) => {
    if (m.type === 'call') {
      void current.then(async (pool) => {
        const body = pool
          ? await pool.call(m.method, m.params)
          : encodeAnswer(m.method, { ok: false, error: { code: 'unavailable', message: NO_CORPUS } });
        port.postMessage({ type: 'answer', id: m.id, body });
      });
    } else if (m.type === 'open') {
      // The new corpus opens before the old one closes: a file that cannot be opened leaves the old one served.
      replace(m.id, () => startPool({ ...options, path: m.path }));
    } else if (m.type === 'close') {
      replace(m.id, async () => null);
    }
  });
}
