/**
 * The API's handlers, one file per domain (traces.ts, trajectories.ts, …), assembled over one
 * corpus; both transports (HTTP server, Electron IPC) serve the result through dispatch(),
 * run by the workers of src/api/host/. Read methods get a ReadCorpus, so they cannot write;
 * a domain with write methods takes a Corpus for those (docs/architecture.md).
 */
import { CorpusError, openCorpus, type Corpus, type ReadCorpus } from '../../store/corpus.js';
import { methods, type Api, type Method, type ReadMethod } from '../contract/index.js';
import type { MethodTable } from './dispatch.js';
import { findHandlers } from './find.js';
import { predictionHandlers } from './predictions.js';
import { TraceCache } from './trace-cache.js';
import { traceHandlers } from './traces.js';
import { trajectoryHandlers } from './trajectories.js';

export { checkCall, dispatch, type MethodTable } from './dispatch.js';
export { DEFAULT_CACHE_BYTES, mergeChanges, TraceCache, type CacheChange } from './trace-cache.js';

/** Every method, as it reads a corpus; `cache` holds the traces they walk (default budget). */
export function createApi(corpus: ReadCorpus, cache = new TraceCache(corpus)): Api {
  const reads: Pick<Api, ReadMethod> = { ...traceHandlers(corpus, cache), ...trajectoryHandlers(corpus, cache), ...findHandlers(cache), ...predictionHandlers(corpus) };
  return reads;
}

/**
 * The methods whose handler holds a whole trace in the TraceCache (their params name it as
 * `traceId`): a worker pool sends every call on one trace to the worker that holds it.
 */
export const TRACE_METHODS: readonly Method[] = ['getSkeleton', 'walk', 'findInTrace'];

type Handler = (p: never) => unknown;

/**
 * What a worker of src/api/host/ serves: a method table, which of its methods hold a trace,
 * and the handlers. `apiModule` below is the contract's; a test swaps in its own (e.g. with a
 * write method) through the pool's options.
 */
export interface ApiModule {
  methods: MethodTable;
  traceMethods: readonly string[];
  /** The read methods' handlers over a read-only corpus, with the trace cache they share. */
  readHandlers(corpus: ReadCorpus, cache: TraceCache): Record<string, Handler>;
  /** The write methods' handlers over a writable corpus; needed only when a method writes. */
  writeHandlers?(corpus: Corpus): Record<string, Handler>;
}

/** The contract's methods: every one reads today, so no writable connection is ever opened. */
export const apiModule: ApiModule = { methods, traceMethods: TRACE_METHODS, readHandlers: createApi };

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
