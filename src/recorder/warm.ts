/**
 * The warm recorder: one long-lived `python3 -m stepscope_recorder counterfactual-serve` per
 * Python executable, kept by the process that records many counterfactuals (the API's write
 * worker, `evalset create --task counterfactual`), so that a counterfactual costs a fork of a
 * warm interpreter instead of two interpreter starts (python/stepscope_recorder/counterfactual.py,
 * serve: the protocol; a warm run that does not reproduce its origin is recorded again cold
 * there, before a refusal).
 *
 * - Started on first use (or by prestart), never synchronously: nothing here blocks the event
 *   loop. Requests are answered in order; while none is in flight the process does not keep
 *   Node alive (a CLI ends by itself), and it ends when this process does (its stdin closes).
 * - One that dies is forgotten; the request it held is rejected with WarmRecorderGone (the
 *   caller records that one the old way) and the next request starts a new one.
 * - The executable behind a pyenv shim: the shim costs an interpreter start of its own (a
 *   bash script and `pyenv exec`), so the first recorder's hello says which interpreter it
 *   runs (sys.executable) and the environment the shim gave it; from then on this process
 *   starts that interpreter directly, with that environment, for this executable
 *   (`resolvedPython`): a shim costs one start per session, not one per request.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { pythonExecutable, recorderEnv } from './python.js';

/** A counterfactual run as the recorder reports it (counterfactual.ts's result passes these on). */
export interface RecordedRun {
  seq: number;
  set: Record<string, string>;
  /**
   * The first seq at which the new trace's events differ from the origin's (`seq` itself when
   * an edited value changed; may equal the new trace's event count when it ends first); null
   * when every event is the same. Events before it are the same in both traces.
   */
  first_difference: number | null;
  exit: 'normal' | 'error' | 'never';
  reason: string | null;
  events: number;
}

/** What a counterfactual's recording answers (the recorder's JSON line). */
export interface RecorderAnswer extends RecordedRun {
  /** Warm recorder only: false when the warm run did not reproduce the origin and a cold one was kept. */
  warm?: boolean;
  /** Why the warm run was not kept (the refusal it would have been), or null. */
  fallback?: string | null;
}

/** A refusal or failure of one request: `kind` as CounterfactualError's. */
export class WarmRefusal extends Error {
  constructor(
    message: string,
    readonly kind: 'bad-input' | 'not-reproduced' | 'failed',
  ) {
    super(message);
    this.name = 'WarmRefusal';
  }
}

/** The warm recorder ended (or could not start) before it answered: record this request otherwise. */
export class WarmRecorderGone extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WarmRecorderGone';
  }
}

export interface WarmRequest {
  /** The origin trace file (one trace). */
  origin: string;
  /** Where the new trace is written (only when it is made). */
  out: string;
  seq: number;
  set: Record<string, string>;
}

/** An executable as found on PATH or named, and the interpreter it runs with the environment it gives it. */
export interface ResolvedPython {
  executable: string;
  /** Variables to set (a string) or remove (null) over this process's environment. */
  env: Record<string, string | null>;
}

const resolved = new Map<string, ResolvedPython>();

/** What `executable` was found to run, once a warm recorder of it said hello (undefined before). */
export function resolvedPython(executable = pythonExecutable()): ResolvedPython | undefined {
  return resolved.get(key(executable));
}

// A shim's choice depends on the folder (`.python-version`) and PYENV_VERSION: part of the key.
function key(executable: string): string {
  return `${executable}\0${process.cwd()}\0${process.env.PYENV_VERSION ?? ''}`;
}

/** The command and environment that start `executable` (resolved when known). */
export function pythonCommand(executable = pythonExecutable()): { command: string; env: NodeJS.ProcessEnv } {
  const env = recorderEnv();
  const r = resolved.get(key(executable));
  if (!r) return { command: executable, env };
  for (const [k, v] of Object.entries(r.env)) {
    if (v === null) delete env[k];
    else env[k] = v;
  }
  return { command: r.executable, env };
}

interface Pending {
  resolve(a: RecorderAnswer): void;
  reject(e: Error): void;
}

interface Hello {
  executable: string;
  python: string;
  env: Record<string, string>;
  fork_server: boolean;
}

/** One warm recorder process (see the module comment); get one with warmRecorder(). */
export class WarmRecorder {
  private proc: ChildProcessWithoutNullStreams | null = null;
  private hello: Promise<Hello> | null = null;
  private readonly queue: Pending[] = [];
  private buffer = '';
  private stderr = '';
  private closed = false;
  /** How many processes this recorder has started (tests: a dead one is replaced). */
  starts = 0;

  constructor(readonly executable: string) {}

  /** The process id while one runs (tests). */
  get pid(): number | undefined {
    return this.proc?.pid;
  }

  /** Starts the process if none runs; resolves when it has said hello. */
  start(): Promise<Hello> {
    if (this.closed) return Promise.reject(new WarmRecorderGone('the warm recorder is closed'));
    if (this.hello) return this.hello;
    const { command, env } = pythonCommand(this.executable);
    const given = { ...env };
    const proc = spawn(command, ['-m', 'stepscope_recorder', 'counterfactual-serve'], { env });
    this.proc = proc;
    this.starts++;
    this.buffer = '';
    this.stderr = '';
    let said: ((h: Hello) => void) | null = null;
    let failed: ((e: Error) => void) | null = null;
    const hello = new Promise<Hello>((resolve, reject) => {
      said = resolve;
      failed = reject;
    });
    hello.catch(() => {}); // a request awaiting it sees the failure
    this.hello = hello;
    proc.stdout.setEncoding('utf8').on('data', (d: string) => {
      this.buffer += d;
      for (let nl = this.buffer.indexOf('\n'); nl >= 0; nl = this.buffer.indexOf('\n')) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        if (said) {
          let h: Hello;
          try {
            h = JSON.parse(line) as Hello;
          } catch {
            // Not the recorder's hello (something else printed first): this process is no use.
            this.stderr += `\nsaid ${JSON.stringify(line.slice(0, 200))} instead of hello`;
            proc.kill('SIGKILL');
            return;
          }
          this.learn(h, given);
          said(h);
          said = null;
        } else this.answer(line);
      }
    });
    proc.stderr.setEncoding('utf8').on('data', (d: string) => (this.stderr = (this.stderr + d).slice(-4000)));
    proc.stdin.on('error', () => {}); // a write to a recorder that just died: its exit says so
    proc.on('error', (e) => this.ended(proc, `cannot start ${command}: ${e.message}`, failed));
    proc.on('exit', (code, signal) =>
      this.ended(proc, `the warm recorder ended (${signal ?? `status ${code}`}) ${this.lastLine()}`.trim(), failed),
    );
    this.idle();
    return hello;
  }

  /** Starts the process, and the fork server of `hashseed` in it, ahead of a first request. */
  prestart(hashseed = 0): void {
    this.start().then(
      () => this.write({ prestart: hashseed }),
      () => {},
    );
  }

  /** Records one counterfactual; rejects with WarmRefusal (answered) or WarmRecorderGone (not). */
  async request(r: WarmRequest): Promise<RecorderAnswer> {
    const set = Object.entries(r.set).map(([n, v]) => `${n}=${v}`);
    const answered = new Promise<RecorderAnswer>((resolve, reject) => this.queue.push({ resolve, reject }));
    this.busy();
    try {
      await this.start();
    } catch (e) {
      this.failAll(e as Error);
    }
    this.write({ origin: r.origin, out: r.out, seq: r.seq, set });
    return answered;
  }

  /** Ends the process (its fork servers with it); later requests are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.stdin.end();
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }

  private write(obj: unknown): void {
    this.proc?.stdin.write(`${JSON.stringify(obj)}\n`);
  }

  private learn(h: Hello, given: NodeJS.ProcessEnv): void {
    const k = key(this.executable);
    if (resolved.has(k)) return;
    const env: Record<string, string | null> = {};
    for (const [name, v] of Object.entries(h.env)) if (given[name] !== v) env[name] = v;
    for (const name of Object.keys(given)) if (!(name in h.env)) env[name] = null;
    resolved.set(k, { executable: h.executable, env });
  }

  private answer(line: string): void {
    const p = this.queue.shift();
    if (!this.queue.length) this.idle();
    if (!p) return;
    let a: { ok?: RecorderAnswer; error?: string; kind?: WarmRefusal['kind'] };
    try {
      a = JSON.parse(line) as typeof a;
    } catch {
      return p.reject(new WarmRefusal(`the recorder answered ${JSON.stringify(line)}`, 'failed'));
    }
    if (a.ok) p.resolve(a.ok);
    else p.reject(new WarmRefusal(a.error ?? 'the recorder refused without a reason', a.kind ?? 'failed'));
  }

  private ended(proc: ChildProcessWithoutNullStreams, why: string, failed: ((e: Error) => void) | null): void {
    if (this.proc !== proc) return;
    this.proc = null;
    this.hello = null;
    const e = new WarmRecorderGone(why);
    failed?.(e);
    this.failAll(e);
  }

  private failAll(e: Error): void {
    for (const p of this.queue.splice(0)) p.reject(e instanceof WarmRecorderGone ? e : new WarmRecorderGone(e.message));
  }

  private lastLine(): string {
    const l = this.stderr.trim().split('\n').pop() ?? '';
    return l ? `: ${l.replace(/^stepscope_recorder: /, '')}` : '';
  }

  // An idle recorder must not keep a CLI running; one with a request in flight must.
  private busy(): void {
    this.refs(true);
  }

  private idle(): void {
    this.refs(this.queue.length > 0);
  }

  private refs(on: boolean): void {
    const p = this.proc;
    if (!p) return;
    for (const h of [p, p.stdin, p.stdout, p.stderr] as unknown as { ref?(): void; unref?(): void }[])
      if (on) h.ref?.();
      else h.unref?.();
  }
}

const recorders = new Map<string, WarmRecorder>();

/** The warm recorder of `executable` (default: the configured one), made on first use. */
export function warmRecorder(executable = pythonExecutable()): WarmRecorder {
  let r = recorders.get(executable);
  if (!r) recorders.set(executable, (r = new WarmRecorder(executable)));
  return r;
}

/** Ends every warm recorder (the server closing, a batch done); new ones start on next use. */
export async function closeWarmRecorders(): Promise<void> {
  const all = [...recorders.values()];
  recorders.clear();
  await Promise.all(all.map((r) => r.close()));
}
