/**
 * One worker thread of the pool and the calls in flight on it. Knows nothing of routing:
 * it starts a worker, sends calls, and turns the worker's end (a crash, running out of
 * memory, the pool closing) into an `unavailable` answer for each call still waiting, so a
 * call always gets an answer.
 */
import { Worker } from 'node:worker_threads';
import type { ApiFailure } from '../../contract/result.js';
import { encodeAnswer } from './answer.js';
import type { FromWorker, ToWorker, WorkerConfig } from './protocol.js';

export type Role = 'quick' | 'trace' | 'job' | 'write';

type Answer = Extract<FromWorker, { type: 'answer' }>;

interface Pending {
  method: string;
  resolve(a: Answer): void;
}

export class Slot {
  readonly ready: Promise<void>;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private error: Error | null = null;
  /** Why it could not start (the store's words: no such file, not a corpus, …). */
  private failure: ApiFailure | null = null;
  private nextId = 1;
  private closing = false;
  /** Why the worker ended, once it has. */
  ended: string | null = null;

  constructor(
    readonly role: Role,
    file: string,
    config: WorkerConfig,
    /** Called once when the worker has ended for any reason but close(); the pool starts another when next needed. */
    onEnd: (slot: Slot) => void,
  ) {
    // A runaway load ends this worker with ERR_WORKER_OUT_OF_MEMORY, not the whole process.
    const heapMb = Math.ceil((2 * config.cacheBytes) / 2 ** 20) + 512;
    this.worker = new Worker(file, { workerData: config, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
    this.ready = new Promise((resolve, reject) => {
      this.worker.on('message', (m: FromWorker) => {
        if (m.type === 'ready') resolve();
        else if (m.type === 'failed') {
          this.failure = m.error;
          reject(Object.assign(new Error(m.error.message), { failure: m.error }));
        } else this.answered(m);
      });
      this.worker.on('error', (e) => (this.error = e));
      this.worker.on('exit', (code) => {
        this.ended = this.why(code, heapMb);
        reject(new Error(`the API worker could not start: ${this.ended}`));
        for (const [id, p] of this.pending) p.resolve(this.endAnswer(id, p.method));
        this.pending.clear();
        if (!this.closing) onEnd(this);
      });
    });
    this.ready.catch(() => {}); // the pool awaits it; a late failure only ends the slot
  }

  /** Calls in flight. */
  get busy(): number {
    return this.pending.size;
  }

  call(method: string, params: unknown, bytes = false): Promise<Answer> {
    const id = this.nextId++;
    if (this.ended) return Promise.resolve(this.endAnswer(id, method));
    return new Promise((resolve) => {
      this.pending.set(id, { method, resolve });
      this.post({ type: 'call', id, method, params, ...(bytes ? { bytes } : {}) });
    });
  }

  post(m: ToWorker): void {
    this.worker.postMessage(m);
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.worker.terminate();
  }

  private answered(m: Answer): void {
    const p = this.pending.get(m.id);
    this.pending.delete(m.id);
    p?.resolve(m);
  }

  private why(code: number, heapMb: number): string {
    const e = this.error as (Error & { code?: string }) | null;
    if (e?.code === 'ERR_WORKER_OUT_OF_MEMORY') return `it ran out of memory (its limit is ${heapMb} MiB)`;
    if (this.closing) return 'the explorer is closing';
    return e ? `it failed: ${e.message}` : `it exited with code ${code}`;
  }

  private endAnswer(id: number, method: string): Answer {
    const why = this.ended ?? '';
    const message = this.closing
      ? `${method}: ${why}`
      : `${method}: the worker running it stopped (${why}); try again, a new one will start.`;
    const error: ApiFailure = this.failure ?? { code: 'unavailable', message };
    return { type: 'answer', id, body: encodeAnswer(method, { ok: false, error }) };
  }
}
