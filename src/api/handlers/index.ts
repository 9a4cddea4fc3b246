/**
 * The API's handlers, one file per domain (traces.ts, trajectories.ts, …), assembled over one
 * corpus; both transports (HTTP server, Electron IPC) serve the result through dispatch(),
 * run by the workers of src/api/host/. Read methods get a ReadCorpus, so they cannot write;
 * a domain with write methods takes a Corpus for those (docs/architecture.md).
 */
import { CorpusError, openCorpus, type Corpus, type ReadCorpus } from '../../store/corpus.js';
import { methods, type Api, type Method, type ReadMethod, type WriteMethod } from '../../contract/index.js';
import type { MethodTable } from './dispatch.js';
import { annotationReadHandlers, annotationWriteHandlers } from './annotations.js';
import { askHandlers } from './ask.js';
import { counterfactualReadHandlers, counterfactualWriteHandlers } from './counterfactuals.js';
import { dashboardHandlers } from './dashboard.js';
import { exportHandlers } from './export.js';
import { findHandlers } from './find.js';
import { predictionHandlers } from './predictions.js';
import { rolloutHandlers } from './rollouts.js';
import { TraceCache } from './trace-cache.js';
import { traceBytesHandlers, traceHandlers } from './traces.js';
import { trajectoryHandlers } from './trajectories.js';

export { checkCall, dispatch, type MethodTable } from './dispatch.js';
export { DEFAULT_CACHE_BYTES, mergeChanges, TraceCache, type CacheChange } from './trace-cache.js';

/** Every read method over a corpus; `cache` holds the traces they walk (default budget). */
export function createApi(corpus: ReadCorpus, cache = new TraceCache(corpus)): Pick<Api, ReadMethod> {
  return {
    ...traceHandlers(corpus, cache),
    ...trajectoryHandlers(corpus, cache),
    ...findHandlers(cache),
    ...predictionHandlers(corpus),
    ...rolloutHandlers(corpus),
    ...dashboardHandlers(corpus),
    ...exportHandlers(corpus),
    ...askHandlers(corpus),
    ...annotationReadHandlers(corpus),
    ...counterfactualReadHandlers(corpus),
  };
}

/** Every write method, over a writable corpus (a corpus opened read-only refuses them with `read-only`). */
export function createWriteApi(corpus: Corpus): Pick<Api, WriteMethod> {
  return { ...annotationWriteHandlers(corpus), ...counterfactualWriteHandlers(corpus) };
}

/**
 * The methods whose handler holds a whole trace in the TraceCache (their params name it as
 * `traceId`): a worker pool sends every call on one trace to the worker that holds it.
 */
export const TRACE_METHODS: readonly Method[] = ['getSkeleton', 'walk', 'findInTrace'];

/**
 * The methods whose work outlives the call or waits on another server: an export started in
 * the background and the polls of its progress (the job lives where it was started), and a
 * question to a model server (which may take a minute). A pool runs them on one worker of
 * their own, concurrently, so a poll reaches its job and a slow server holds up nothing else.
 */
export const JOB_METHODS: readonly Method[] = ['startExport', 'exportProgress', 'askModel'];

/**
 * The methods with a second form of answer, raw bytes (application/octet-stream), for a client
 * that asks for it (the web mode's `Accept` header): same params, same errors (as JSON), the
 * value as bytes instead of JSON. A pool runs them on its quick worker: they open no trace.
 */
export const BYTES_METHODS: readonly Method[] = ['getSkeleton'];

/** The bytes form of BYTES_METHODS, over a read-only corpus. */
export function createBytesApi(corpus: ReadCorpus, cache: TraceCache): Record<string, Handler> {
  return traceBytesHandlers(corpus, cache);
}

type Handler = (p: never) => unknown;

/**
 * What a worker of src/api/host/ serves: a method table, which of its methods hold a trace,
 * and the handlers. `apiModule` below is the contract's; a test swaps in its own (e.g. with a
 * write method) through the pool's options.
 */
export interface ApiModule {
  methods: MethodTable;
  traceMethods: readonly string[];
  /** Read methods run on the pool's job worker (see JOB_METHODS); none when absent. */
  jobMethods?: readonly string[];
  /** The read methods' handlers over a read-only corpus, with the trace cache they share. */
  readHandlers(corpus: ReadCorpus, cache: TraceCache): Record<string, Handler>;
  /** The write methods' handlers over a writable corpus; needed only when a method writes. */
  writeHandlers?(corpus: Corpus): Record<string, Handler>;
  /** Methods answered as bytes on request (see BYTES_METHODS), and their handlers (each returns a Uint8Array). */
  bytesMethods?: readonly string[];
  bytesHandlers?(corpus: ReadCorpus, cache: TraceCache): Record<string, Handler>;
}

/** The contract's methods: the annotation domain's writes go to the one writable connection. */
export const apiModule: ApiModule = {
  methods,
  traceMethods: TRACE_METHODS,
  jobMethods: JOB_METHODS,
  readHandlers: createApi,
  writeHandlers: createWriteApi,
  bytesMethods: BYTES_METHODS,
  bytesHandlers: createBytesApi,
};

/**
 * Opens a corpus read-only to serve it. An older corpus (a schema this version must upgrade)
 * is upgraded once first, through a short writable open that is closed before serving.
 * `nativeBinding`: see OpenOptions.
 */
export function openForReading(path: string, opts: { nativeBinding?: string } = {}): ReadCorpus {
  try {
    return openCorpus(path, { readonly: true, nativeBinding: opts.nativeBinding });
  } catch (e) {
    if (!(e instanceof CorpusError && e.kind === 'needs-upgrade')) throw e;
    openCorpus(path, { nativeBinding: opts.nativeBinding }).close();
    return openCorpus(path, { readonly: true, nativeBinding: opts.nativeBinding });
  }
}

/** Opens a corpus writable, for the write methods only (upgrading it when needed). */
export function openForWriting(path: string, opts: { nativeBinding?: string } = {}): Corpus {
  return openCorpus(path, { nativeBinding: opts.nativeBinding });
}
