/**
 * The API's handlers, one file per domain (traces.ts, trajectories.ts, …), assembled over one
 * corpus; both transports (HTTP server, Electron IPC) serve the result through dispatch().
 * Read methods get a ReadCorpus, so they cannot write; a domain with write methods takes
 * a Corpus for those (docs/architecture.md).
 */
import { Corpus, openCorpus, type ReadCorpus } from '../../store/corpus.js';
import { UserError } from '../../common/errors.js';
import type { Api, ReadMethod, WriteMethod } from '../contract/index.js';
import { annotationReadHandlers, annotationWriteHandlers } from './annotations.js';
import { dashboardHandlers } from './dashboard.js';
import { exportHandlers } from './export.js';
import { askHandlers } from './ask.js';
import { findHandlers } from './find.js';
import { predictionHandlers } from './predictions.js';
import { TraceCache } from './trace-cache.js';
import { traceHandlers } from './traces.js';
import { trajectoryHandlers } from './trajectories.js';

export { dispatch } from './dispatch.js';

/**
 * Every method over a corpus: reads get it as a ReadCorpus; writes as a Corpus (a corpus
 * opened read-only refuses them with \`read-only\` before anything starts).
 */
export function createApi(corpus: ReadCorpus): Api {
  const cache = new TraceCache(corpus);
  const reads: Pick<Api, ReadMethod> = {
    ...traceHandlers(corpus, cache), ...trajectoryHandlers(corpus, cache), ...findHandlers(cache), ...predictionHandlers(corpus), ...dashboardHandlers(corpus), ...exportHandlers(corpus),
    ...askHandlers(corpus), ...annotationReadHandlers(corpus),
  };
  // openCorpus always makes a Corpus; only a hand-made ReadCorpus has no write methods at all.
  if (!(corpus instanceof Corpus)) throw new UserError('the API needs a corpus opened by openCorpus', 'internal');
  const writes: Pick<Api, WriteMethod> = annotationWriteHandlers(corpus);
  return { ...reads, ...writes };
}

export interface OpenApi {
  api: Api;
  /** The corpus file it serves. */
  path: string;
  close(): void;
}

/**
 * Opens a corpus (upgrading an older schema) and the API over it: how the server and the
 * desktop app reach a corpus without touching the store. `nativeBinding`: see OpenOptions.
 */
export function openApi(path: string, opts: { nativeBinding?: string } = {}): OpenApi {
  const corpus = openCorpus(path, { nativeBinding: opts.nativeBinding });
  return { api: createApi(corpus), path, close: () => corpus.close() };
}
