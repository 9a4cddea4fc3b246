/**
 * A worker thread of the pool (pool.ts): its own connection to the corpus (read-only, or
 * writable for the write methods only), its own trace cache, and the handlers, run through
 * dispatch(), one call at a time (the job worker: as they come). Answers each call with the JSON bytes of its ApiResult, transferred without a
 * copy, and tells the pool what its cache opened, grew or dropped.
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { UserError } from '../../common/errors.js';
import { apiModule, dispatch, mergeChanges, openForReading, openForWriting, TraceCache, type ApiModule, type CacheChange } from '../handlers/index.js';
import { encodeAnswer, encodeBytesAnswer } from './answer.js';
import type { FromWorker, ToWorker, WorkerConfig } from './protocol.js';

const config = workerData as WorkerConfig;
const port = parentPort!;
const send = (m: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

/**
 * Lowers this thread's CPU priority by 10 below the one it was started with (at most 19, the
 * lowest), so it stays below the thread answering clients even when the whole process was
 * started with `nice` (Linux only: elsewhere nothing, never the whole process).
 * Its id and its niceness are read from /proc/thread-self, as the kernel reports them: on the
 * CI's machines os.getPriority(tid) did not answer the thread's niceness, and the workers were
 * left at the answering thread's priority.
 */
function yieldCpu(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    // stat's fields after the command's closing parenthesis: the 17th is the niceness (proc(5)).
    const nice = Number(readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ')[16]);
    if (tid > 0 && tid !== process.pid && Number.isInteger(nice)) setPriority(tid, Math.min(19, nice + 10));
  } catch {
    // not Linux: the same priority as the rest
  }
}

async function start(): Promise<void> {
  if (config.background) yieldCpu();
  let handlers: Record<string, ((p: never) => unknown) | undefined>;
  let bytesHandlers: Record<string, ((p: never) => unknown) | undefined> = {};
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
      bytesHandlers = mod.bytesHandlers?.(corpus, cache) ?? {};
    }
  } catch (e) {
    const error = e instanceof UserError ? { code: e.code, message: e.message } : { code: 'internal' as const, message: `cannot start an API worker: ${(e as Error).message}` };
    return send({ type: 'failed', error });
  }
  const run = async (m: Extract<ToWorker, { type: 'call' }>) => {
    change = null;
    const { body, bytes } = m.bytes
      ? encodeBytesAnswer(m.method, await dispatch(bytesHandlers, m.method, m.params, mod.methods))
      : { body: encodeAnswer(m.method, await dispatch(handlers, m.method, m.params, mod.methods)), bytes: false };
    const c = change as CacheChange | null;
    // A body sharing its buffer with something else (a view into a bigger one) is copied, not transferred.
    const own = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : body.slice();
    send({ type: 'answer', id: m.id, body: own, bytes, loaded: c?.loaded, dropped: c?.dropped }, [own.buffer as ArrayBuffer]);
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
