/**
 * The API run off the calling thread: a small pool of worker threads (worker.ts), each with
 * its own connection to the corpus, so loading a 1,000,000-event trace never holds up
 * another client's request. The thread that owns the pool (the HTTP server's, or the
 * Electron API process's) only validates params and moves bytes.
 *
 * Workers and routing:
 * - `trace` workers (2 by default) run the methods that hold a trace (TRACE_METHODS);
 *   every call on one trace goes to the worker that holds or is loading it (a small trace
 *   whose worker is busy loading another is read again by an idle one), else to an idle one;
 * - one `quick` worker runs every other read (listings, headers, event windows), so a short
 *   request always has a worker that is not loading a trace; when it is busy, an idle trace
 *   worker takes the call;
 * - a `job` worker, when the API has job methods (JOB_METHODS: a background export and its
 *   polls, a question to a model server), runs those alone and concurrently: a job is polled
 *   on the worker that holds it, and a slow model server holds up no other method;
 * - a `write` worker, with the only writable connection, exists only when the API has write
 *   methods, and runs those alone. Read workers open the corpus read-only.
 *
 * Trace and job workers run at a lower CPU priority (nice +10, Linux): on a machine short of
 * CPU, a load of seconds yields to the thread answering clients and to the quick worker.
 *
 * The trace cache's budget is the pool's: each worker's cache keeps to it, and the pool
 * keeps the sum over workers to it by asking the worker holding the least recently used
 * trace to drop it. A trace grows as walks read its windows; the pool learns what it holds at
 * the end of each call (two calls at once can overshoot by what they read until they finish).
 * A worker that dies (out of memory: its heap is capped) answers its calls `unavailable`;
 * the next call that needs one starts another.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UserError, type ErrorCode } from '../../common/errors.js';
import { apiModule as contractModule, checkCall, DEFAULT_CACHE_BYTES, type ApiModule } from '../handlers/index.js';
import { encodeAnswer } from './answer.js';
import type { ApiHost, FromWorker, WorkerConfig } from './protocol.js';
import { Slot, type Role } from './slot.js';

export interface PoolOptions {
  /** The corpus file. */
  path: string;
  /** better_sqlite3.node to load (the desktop app's build for Electron's ABI). */
  nativeBinding?: string;
  /** Budget of the traces held in memory, over all workers (default 1 GiB). */
  cacheBytes?: number;
  /** Workers that load traces (default 2). */
  traceWorkers?: number;
  /** The worker script (default: worker.js beside this module, compiled). */
  workerFile?: string;
  /** Serve another API than the contract's (tests): its module here, and its file for the workers. */
  api?: { module: ApiModule; file: string };
}

/** Where the compiled worker is: beside this module, or in dist/ when this runs from the TypeScript sources (tests). */
export function defaultWorkerFile(): string {
  const here = fileURLToPath(import.meta.url);
  return here.endsWith('.ts')
    ? join(dirname(here), '../../../dist/api/host/worker.js')
    : join(dirname(here), 'worker.js');
}

type Answer = Extract<FromWorker, { type: 'answer' }>;

/** A trace this small (about 35,000 events of short values) is read again faster than another trace's load ends. */
const SMALL_TRACE_BYTES = 16 * 2 ** 20;

interface Held {
  slot: Slot;
  bytes: number;
}

export class WorkerPool implements ApiHost {
  private readonly slots: Slot[] = [];
  /** Traces the workers hold, least recently used first. */
  private readonly held = new Map<number, Held>();
  /** Traces with calls in flight, and where. */
  private readonly inFlight = new Map<number, { slot: Slot; calls: number }>();
  private readonly mod: ApiModule;
  private readonly budget: number;
  private closed = false;

  private constructor(private readonly o: PoolOptions) {
    this.mod = o.api?.module ?? contractModule;
    this.budget = o.cacheBytes ?? DEFAULT_CACHE_BYTES;
  }

  /** Starts the workers; a corpus that cannot be opened is a UserError with the store's words. */
  static async start(o: PoolOptions): Promise<WorkerPool> {
    const pool = new WorkerPool(o);
    try {
      // The quick worker first: it upgrades an older corpus, once, before the others open it.
      await pool.spawn('quick', 0).ready;
      const roles: Role[] = Array(o.traceWorkers ?? 2).fill('trace');
      if (pool.mod.jobMethods?.length) roles.push('job');
      if (Object.values(pool.mod.methods).some((m) => m.access === 'write')) roles.push('write');
      await Promise.all(roles.map((r, i) => pool.spawn(r, i + 1).ready));
    } catch (e) {
      await pool.close();
      const failure = (e as { failure?: { code: ErrorCode; message: string } }).failure;
      throw failure ? new UserError(failure.message, failure.code) : e;
    }
    return pool;
  }

  async call(method: string, raw: unknown): Promise<Uint8Array> {
    const checked = checkCall(method, raw, this.mod.methods);
    if ('error' in checked) return encodeAnswer(method, { ok: false, error: checked.error });
    if (this.closed)
      return encodeAnswer(method, {
        ok: false,
        error: { code: 'unavailable', message: `${method}: the explorer is closing` },
      });
    const traceId = this.mod.traceMethods.includes(method)
      ? (checked.params as { traceId: number }).traceId
      : undefined;
    const slot = this.alive(
      checked.spec.access === 'write'
        ? this.byRole('write')[0]
        : this.mod.jobMethods?.includes(method)
          ? this.byRole('job')[0]
          : traceId !== undefined
            ? this.traceSlot(traceId)
            : this.quickSlot(),
    );
    if (traceId !== undefined) this.enter(traceId, slot);
    const answer = await slot.call(method, checked.params);
    if (traceId !== undefined) this.leave(traceId);
    this.noteCache(slot, answer, traceId);
    return answer.body;
  }

  /** The slot, or a new worker in its place when it has ended (it crashed or was killed). */
  private alive(slot: Slot): Slot {
    return slot.ended ? this.spawn(slot.role, this.slots.indexOf(slot)) : slot;
  }

  /**
   * A call answered in its bytes form when it has one (BYTES_METHODS): on the quick worker,
   * since it opens no trace, so it runs beside the walks of that trace on a trace worker; even
   * when the quick worker is busy (it is busy with the trace's header when the page asks for
   * both at once), since a trace worker runs at a lower priority and, on a busy machine, would
   * answer seconds later.
   */
  async callBytes(method: string, raw: unknown): Promise<{ body: Uint8Array; bytes: boolean }> {
    if (!this.mod.bytesMethods?.includes(method) || this.closed)
      return { body: await this.call(method, raw), bytes: false };
    const checked = checkCall(method, raw, this.mod.methods);
    if ('error' in checked) return { body: encodeAnswer(method, { ok: false, error: checked.error }), bytes: false };
    const slot = this.alive(this.byRole('quick')[0]);
    const answer = await slot.call(method, checked.params, true);
    return { body: answer.body, bytes: answer.bytes === true };
  }

  /** The traces held, least recently used first (for the bench and tests). */
  heldTraces(): { traceId: number; bytes: number; worker: number }[] {
    return [...this.held].map(([traceId, h]) => ({ traceId, bytes: h.bytes, worker: this.slots.indexOf(h.slot) }));
  }

  /** Each worker's role, in order (for tests: a write worker exists only for write methods). */
  roles(): Role[] {
    return this.slots.map((s) => s.role);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.close()));
  }

  private spawn(role: Role, at: number): Slot {
    const config: WorkerConfig = {
      path: this.o.path,
      nativeBinding: this.o.nativeBinding,
      access: role === 'write' ? 'write' : 'read',
      concurrent: role === 'job',
      background: role === 'trace' || role === 'job',
      cacheBytes: this.budget,
      apiModule: this.o.api?.file,
    };
    const slot = new Slot(role, this.o.workerFile ?? defaultWorkerFile(), config, (dead) => this.forget(dead));
    this.slots[at] = slot;
    return slot;
  }

  /** A worker ended: forget what it held (call() starts another in its place when one is needed). */
  private forget(dead: Slot): void {
    for (const [id, h] of this.held) if (h.slot === dead) this.held.delete(id);
    for (const [id, f] of this.inFlight) if (f.slot === dead) this.inFlight.delete(id);
  }

  private byRole(role: Role): Slot[] {
    return this.slots.filter((s) => s.role === role);
  }

  /**
   * The worker for a call on a trace: the one loading it, else the one holding it, unless that
   * one is busy with another trace and this one is small enough to read again elsewhere
   * sooner; else an idle one (the one holding least, so a big load goes where it drops least).
   */
  private traceSlot(traceId: number): Slot {
    const loading = this.inFlight.get(traceId)?.slot;
    if (loading) return loading;
    const held = this.held.get(traceId);
    const idle = this.byRole('trace').filter((s) => s.busy === 0);
    if (held && (held.slot.busy === 0 || held.bytes >= SMALL_TRACE_BYTES || idle.length === 0)) return held.slot;
    if (idle.length) return idle.reduce((best, s) => (this.bytesOn(s) < this.bytesOn(best) ? s : best));
    return leastBusy(this.byRole('trace'));
  }

  private bytesOn(slot: Slot): number {
    let n = 0;
    for (const h of this.held.values()) if (h.slot === slot) n += h.bytes;
    return n;
  }

  private quickSlot(): Slot {
    const [quick] = this.byRole('quick');
    if (quick.busy === 0) return quick;
    return this.byRole('trace').find((s) => s.busy === 0) ?? leastBusy([quick, ...this.byRole('trace')]);
  }

  private enter(traceId: number, slot: Slot): void {
    const f = this.inFlight.get(traceId);
    if (f) f.calls++;
    else this.inFlight.set(traceId, { slot, calls: 1 });
  }

  private leave(traceId: number): void {
    const f = this.inFlight.get(traceId);
    if (f && --f.calls === 0) this.inFlight.delete(traceId);
  }

  /** Records what the call loaded or dropped, marks its trace as just used, keeps the sum to the budget. */
  private noteCache(slot: Slot, a: Answer, traceId: number | undefined): void {
    for (const id of a.dropped ?? []) if (this.held.get(id)?.slot === slot) this.held.delete(id);
    if (a.loaded) {
      // Read again by another worker (see traceSlot): the first copy goes.
      const before = this.held.get(a.loaded.traceId);
      if (before && before.slot !== slot) before.slot.post({ type: 'drop', traceId: a.loaded.traceId });
      this.held.delete(a.loaded.traceId);
      this.held.set(a.loaded.traceId, { slot, bytes: a.loaded.bytes });
    } else if (traceId !== undefined) {
      const h = this.held.get(traceId);
      if (h) {
        this.held.delete(traceId);
        this.held.set(traceId, h);
      }
    }
    let sum = 0;
    for (const h of this.held.values()) sum += h.bytes;
    for (const [id, h] of this.held) {
      if (sum <= this.budget) break;
      if (id === traceId) continue;
      h.slot.post({ type: 'drop', traceId: id });
      this.held.delete(id);
      sum -= h.bytes;
    }
  }
}

function leastBusy(slots: Slot[]): Slot {
  return slots.reduce((best, s) => (s.busy < best.busy ? s : best));
}

/** Starts a pool over a corpus: the execution model of `stepscope serve` and the desktop app. */
export function startPool(o: PoolOptions): Promise<WorkerPool> {
  return WorkerPool.start(o);
}
