/**
 * A worker thread of the pool (pool.ts): its own connection to the corpus (read-only, or
 * writable for the write methods only), its own trace cache, and the handlers, run through
 * dispatch(), one call at a time (the job worker: as they come). Answers each call with the JSON bytes of its ApiResult, transferred without a
 * copy, and tells the pool what its cache opened, grew or dropped.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { UserError } from '../../common/errors.js';
import { apiModule, dispatch, mergeChanges, openForReading, openForWriting, TraceCache, type ApiModule, type CacheChange } from '../handlers/index.js';
import { encodeAnswer } from './answer.js';
import type { FromWorker, ToWorker, WorkerConfig } from './protocol.js';

const config = workerData as WorkerConfig;
const port = parentPort!;
const send = (m: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

async function start(): Promise<void> {
  let handlers: Record<string, ((p: never) => unknown) | undefined>;
  let cache: TraceCache | null = null;
  let change: CacheChange | null = null;
  let mod: ApiModule;
  try {
    mod = config.apiModule ? ((await import(pathToFileURL(config.apiModule).href)) as { apiModule: ApiModule }).apiModule : apiModule;
    if (config.access === 'write') {
      if (!mod.writeHandlers) throw new Error('a write worker started for an API without write methods');
      handlers = mod.writeHandlers(openForWriting(config.path, config));
    } else {
      const corpus = openForReading(config.path, config);
      cache = new TraceCache(corpus, config.cacheBytes);
      // A call may open a trace, then grow it window by window, dropping others: one change for the pool.
      cache.onChange = (c) => (change = mergeChanges(change, c));
      handlers = mod.readHandlers(corpus, cache);
    }
  } catch (e) {
    const error = e instanceof UserError ? { code: e.code, message: e.message } : { code: 'internal' as const, message: `cannot start an API worker: ${(e as Error).message}` };
    return send({ type: 'failed', error });
  }
  const run = async (m: Extract<ToWorker, { type: 'call' }>) => {
    change = null;
    const body = encodeAnswer(m.method, await dispatch(handlers, m.method, m.params, mod.methods));
    const c = change as CacheChange | null;
    send({ type: 'answer', id: m.id, body, loaded: c?.loaded, dropped: c?.dropped }, [body.buffer as ArrayBuffer]);
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

void start();
