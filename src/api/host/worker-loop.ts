/**
 * What a worker thread of the pool does (worker.ts is the thread's entry, pool.ts starts it):
 * opens its own connection to the corpus (read-only, or writable for the write methods only)
 * and its own trace cache, then runs the handlers through dispatch(), one call at a time (the
 * job worker: as they come). Answers each call with the JSON bytes of its ApiResult,
 * transferred without a copy, and tells the pool what its cache opened, grew or dropped.
 *
 * Plain code over a message port, so it also runs in the calling thread (tests: Stryker sees
 * no code that runs in another thread).
 */
import { pathToFileURL } from 'node:url';
import { UserError } from '../../common/errors.js';
import {
  apiModule,
  dispatch,
  mergeChanges,
  openForReading,
  openForWriting,
  TraceCache,
  type ApiModule,
  type CacheChange,
} from '../handlers/index.js';
import { encodeAnswer, encodeBytesAnswer } from './answer.js';
import type { FromWorker, ToWorker, WorkerConfig } from './protocol.js';

/** The side of the channel a worker talks through (worker_threads' parentPort, or a MessagePort). */
export interface WorkerPort {
  postMessage(m: FromWorker, transfer: ArrayBuffer[]): void;
  on(event: 'message', listener: (m: ToWorker) => void): unknown;
}

type Handlers = Record<string, ((p: never) => unknown) | undefined>;

/** Starts serving: posts `ready`, or `failed` with the store's words when the corpus cannot be opened. */
export async function serveWorker(config: WorkerConfig, port: WorkerPort): Promise<void> {
  const send = (m: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
  let handlers: Handlers;
  let bytesHandlers: Handlers = {};
  let cache: TraceCache | null = null;
  let change: CacheChange | null = null;
  let mod: ApiModule;
  try {
    mod = config.apiModule
      ? ((await import(pathToFileURL(config.apiModule).href)) as { apiModule: ApiModule }).apiModule
      : apiModule;
    if (config.access === 'write') {
      if (!mod.writeHandlers) throw new Error('a write worker started for an API without write methods');
      handlers = mod.writeHandlers(openForWriting(config.path, config));
    } else {
      const corpus = openForReading(config.path, config);
      cache = new TraceCache(corpus, config.cacheBytes);
      // A call may open a trace, then grow it window by window, dropping others: one change for the pool.
      cache.onChange = (c) => (change = mergeChanges(change, c));
      handlers = mod.readHandlers(corpus, cache);
      bytesHandlers = mod.bytesHandlers?.(corpus, cache) ?? {};
    }
  } catch (e) {
    const error =
      e instanceof UserError
        ? { code: e.code, message: e.message }
        : { code: 'internal' as const, message: `cannot start an API worker: ${(e as Error).message}` };
    return send({ type: 'failed', error });
  }
  const run = async (m: Extract<ToWorker, { type: 'call' }>) => {
    change = null;
    const { body, bytes } = m.bytes
      ? encodeBytesAnswer(m.method, await dispatch(bytesHandlers, m.method, m.params, mod.methods))
      : { body: encodeAnswer(m.method, await dispatch(handlers, m.method, m.params, mod.methods)), bytes: false };
    const c = change as CacheChange | null;
    // A body sharing its buffer with something else (a view into a bigger one: shorter than
    // its buffer) is copied, not transferred.
    const own = body.byteLength === body.buffer.byteLength ? body : body.slice();
    send({ type: 'answer', id: m.id, body: own, bytes, loaded: c?.loaded, dropped: c?.dropped }, [
      own.buffer as ArrayBuffer,
    ]);
  };
  // One call at a time, in arrival order (a handler that awaited would otherwise interleave,
  // and the cache's change would be another call's); the job worker's calls hold no trace.
  let queue = Promise.resolve();
  port.on('message', (m: ToWorker) => {
    if (m.type === 'drop') return cache?.drop(m.traceId);
    if (config.concurrent) void run(m);
    else queue = queue.then(() => run(m));
  });
  send({ type: 'ready' });
}
