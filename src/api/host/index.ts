/**
 * The API's execution model: who computes an answer, where, and how big it may be. The
 * transports (src/server/, the Electron shell in main/) reach the API only through here.
 */
export { encodeAnswer, MAX_ANSWER_BYTES } from './answer.js';
export { serveApiProcess, type ApiProcessPort } from './api-process.js';
export { defaultWorkerFile, startPool, WorkerPool, type PoolOptions } from './pool.js';
export type { ApiHost, FromApiProcess, ToApiProcess } from './protocol.js';
