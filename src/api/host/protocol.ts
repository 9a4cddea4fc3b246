/**
 * The messages of the API's execution model, as they cross threads and processes:
 * - a pool (pool.ts) and its worker threads (worker.ts);
 * - the Electron main process (main/api-client.ts) and the API process it forks
 *   (api-process.ts, run as an Electron utilityProcess).
 * Every answer to a call is the JSON bytes of an ApiResult (answer.ts), never a thrown error.
 */
import type { ApiFailure } from '../../contract/result.js';

/** What a worker is started with (its workerData). */
export interface WorkerConfig {
  path: string;
  nativeBinding?: string;
  /** read: a read-only connection, for the read methods; write: a writable one, for the write methods only. */
  access: 'read' | 'write';
  /** Run calls as they come, not one at a time (the job worker: its calls wait on jobs and servers, not on the CPU). */
  concurrent?: boolean;
  /** Run at a lower CPU priority (loads and exports, seconds long): the request loop and the quick worker go first. */
  background?: boolean;
  /** The trace cache's budget (the whole pool's: the pool keeps the sum over workers to it). */
  cacheBytes: number;
  /** A module exporting `apiModule` to serve instead of the contract's (tests). */
  apiModule?: string;
}

/** A call with `bytes`: answer the value of a BYTES_METHODS method as raw bytes (src/api/handlers/index.ts). */
export type ToWorker =
  { type: 'call'; id: number; method: string; params: unknown; bytes?: boolean } | { type: 'drop'; traceId: number };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'failed'; error: ApiFailure }
  | {
      type: 'answer';
      id: number;
      body: Uint8Array;
      /** The body is the value's raw bytes (a call with `bytes` that succeeded), not the JSON of an ApiResult. */
      bytes?: boolean;
      /**
       * A trace this call opened or grew in the worker's cache (and what it holds now), traces it dropped to make room.
       */
      loaded?: { traceId: number; bytes: number };
      dropped?: number[];
    };

/** Electron main -> API process. */
export type ToApiProcess =
  | { type: 'open'; id: number; path: string }
  | { type: 'call'; id: number; method: string; params: unknown }
  | { type: 'close'; id: number };

/** API process -> Electron main: each names the request it answers (`done`: an open or close that worked). */
export type FromApiProcess =
  | { type: 'done'; id: number }
  | { type: 'answer'; id: number; body: Uint8Array }
  | { type: 'failed'; id: number; error: ApiFailure };

/** The one thing a transport needs from the execution model. */
export interface ApiHost {
  /** Runs one call; resolves to the JSON bytes of its ApiResult, and never rejects. */
  call(method: string, params: unknown): Promise<Uint8Array>;
  /**
   * Runs one call asking for the bytes form (BYTES_METHODS): `bytes` true when the body is the
   * value's raw bytes, false when it is the JSON of an ApiResult (a failure, or a method
   * without a bytes form). Never rejects.
   */
  callBytes?(method: string, params: unknown): Promise<{ body: Uint8Array; bytes: boolean }>;
  close(): Promise<void>;
}
