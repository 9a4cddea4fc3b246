/**
 * The main process's side of the API process (src/api/host/api-process.ts, forked as an
 * Electron utilityProcess by index.ts): opens corpora there and forwards calls, answering
 * each with the bytes the API process sent, which main never parses. If the API process
 * dies, waiting calls are answered `unavailable` and the next request starts a new one,
 * reopening the corpus that was open. No Electron import: tests give it a fake process.
 */
import { fail } from '../src/contract/result.js';
import { encodeAnswer } from '../src/api/host/answer.js';
import type { FromApiProcess, ToApiProcess } from '../src/api/host/protocol.js';
import { UserError } from '../src/common/errors.js';

/** What index.ts forks (Electron's UtilityProcess has these). */
export interface ApiProcess {
  postMessage(m: ToApiProcess): void;
  on(event: 'message', listener: (m: FromApiProcess) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  kill(): boolean;
}

interface Pending {
  /** The call's method, or null for an open or close. */
  method: string | null;
  resolve(v: Uint8Array | undefined): void;
  reject(e: Error): void;
}

export class ApiClient {
  private proc: ApiProcess | null = null;
  private path: string | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly fork: () => ApiProcess) {}

  /** Opens a corpus for every call that follows; rejects with the store's UserError (nothing changes then). */
  async open(path: string): Promise<void> {
    await this.request(null, (id) => ({ type: 'open', id, path }));
    this.path = path;
  }

  /** One API call: the JSON bytes of its ApiResult. Never rejects. */
  call(method: string, params: unknown): Promise<Uint8Array> {
    return this.request(method, (id) => ({ type: 'call', id, method, params })) as Promise<Uint8Array>;
  }

  /** Ends the API process (the app is quitting). */
  close(): void {
    const p = this.proc;
    this.proc = null;
    p?.kill();
  }

  private request(method: string | null, message: (id: number) => ToApiProcess): Promise<Uint8Array | undefined> {
    const proc = this.ensure();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { method, resolve, reject });
      proc.postMessage(message(id));
    });
  }

  private ensure(): ApiProcess {
    if (this.proc) return this.proc;
    const proc = this.fork();
    proc.on('message', (m) => this.received(m));
    proc.on('exit', (code) => this.exited(proc, code));
    this.proc = proc;
    // A new process after a crash: the corpus that was open opens again before any call runs.
    if (this.path) void this.request(null, (id) => ({ type: 'open', id, path: this.path! })).catch(() => {});
    return proc;
  }

  private received(m: FromApiProcess): void {
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (m.type === 'answer') p.resolve(m.body);
    else if (m.type === 'done') p.resolve(undefined);
    else if (p.method === null) p.reject(new UserError(m.error.message, m.error.code));
    else p.resolve(encodeAnswer(p.method, fail(m.error.code, m.error.message)));
  }

  private exited(proc: ApiProcess, code: number): void {
    if (this.proc !== proc) return;
    this.proc = null;
    const why = `the API process stopped (exit code ${code}); try again, a new one will start`;
    for (const p of this.pending.values()) {
      if (p.method === null) p.reject(new UserError(why, 'unavailable'));
      else p.resolve(encodeAnswer(p.method, fail('unavailable', `${p.method}: ${why}`)));
    }
    this.pending.clear();
  }
}
