/**
 * One execution worker process (`python3 -m stepscope_recorder.execute`) under one hash
 * seed. Jobs are written as JSON lines; the worker answers in order, so the in-flight list
 * is a FIFO and its head is the job running now. Used by ExecPool, which restarts workers.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pythonDir, pythonExecutable } from '../recorder/python.js';
import { STATUSES, type Job, type Status, type Verdict, type WorkerHello } from './types.js';

export interface WorkerSettings {
  hashseed: number;
  timeout: number;
  memoryMb: number;
  python?: string;
}

/** A job handed to a worker, with the callbacks of its submitter (its `ticket` in the pool and the worker). */
export interface SubmittedJob {
  job: Job;
  resolve(v: Verdict): void;
  reject(e: Error): void;
  /** Checked when the ticket would be sent: an aborted one is not. */
  signal?: AbortSignal;
}

const STDERR_KEEP = 4096;

/**
 * Variables a worker inherits: where programs and files are, and the locale. Nothing else
 * (API keys, tokens, the user's settings) reaches the code under test; each run then
 * starts from a smaller set still (python/stepscope_recorder/sandbox.py, KEEP_ENV).
 */
const INHERITED = ['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TMPDIR', 'HOME'];

export function workerEnv(hashseed: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of INHERITED) if (process.env[name] !== undefined) env[name] = process.env[name];
  // The user's own PYTHONPATH (installed packages) after ours; the checks rely on `assert`,
  // so PYTHONOPTIMIZE, a startup file or a breakpoint hook are simply not passed on.
  const user = process.env.PYTHONPATH;
  env.PYTHONPATH = user ? `${pythonDir}:${user}` : pythonDir;
  env.PYTHONHASHSEED = String(hashseed);
  env.PYTHONDONTWRITEBYTECODE = '1';
  env.PYTHONIOENCODING = 'utf-8';
  return env;
}

/** Statuses a worker may give; anything else (a forged `pending`, a typo) is an error verdict. */
const GIVEN: ReadonlySet<string> = new Set(STATUSES);

/** The verdict a worker's line says, checked field by field: never a status or a detail of the wrong kind. */
export function readVerdict(msg: Record<string, unknown>, id: string): Verdict {
  const status = msg.status;
  const seconds = typeof msg.seconds === 'number' && Number.isFinite(msg.seconds) ? msg.seconds : 0;
  const text = (k: string) => (typeof msg[k] === 'string' ? (msg[k] as string) : undefined);
  const bad = (why: string): Verdict => ({
    id,
    status: 'error',
    error: `the execution worker sent an unreadable verdict (${why})`,
    seconds,
  });
  if (typeof status !== 'string' || !GIVEN.has(status)) return bad(`status ${JSON.stringify(status)?.slice(0, 40)}`);
  for (const k of ['error', 'reason', 'got'])
    if (msg[k] !== undefined && typeof msg[k] !== 'string') return bad(`${k} is not text`);
  const v: Verdict = { id, status: status as Status, seconds };
  const error = text('error');
  const reason = text('reason');
  const got = text('got');
  if (error !== undefined) v.error = error;
  if (reason !== undefined) v.reason = reason;
  if (got !== undefined) v.got = got;
  return v;
}

/** Removes the run folders a worker that was killed could not remove itself (`stepscope-exec-PID-*`). */
export function removeRunFolders(pid: number, base = process.env.TMPDIR || tmpdir()): void {
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return;
  }
  for (const name of names)
    if (name.startsWith(`stepscope-exec-${pid}-`))
      try {
        rmSync(join(base, name), { recursive: true, force: true });
      } catch {
        // read-only folders left by a run: the next worker's sweep removes them (sandbox.py)
      }
}

export class ExecWorker {
  /** Resolves with the hello line; rejects if the worker cannot start or has the wrong seed. */
  readonly ready: Promise<WorkerHello>;
  /** Called once when the process ends without close(): `lost` are the jobs not answered. */
  onDeath: (lost: SubmittedJob[], why: string) => void = () => {};
  private readonly proc: ChildProcessWithoutNullStreams;
  private readonly inflight: SubmittedJob[] = [];
  private hello: WorkerHello | null = null;
  /** Verdicts this worker has given. */
  answered = 0;
  /** Set when the process ended before its hello line (it never ran a job). */
  startError: Error | null = null;
  private pieces: string[] = [];
  private stderr = '';
  private closing = false;
  private exited = false;
  private readonly exit: Promise<void>;
  private settleReady!: { resolve(h: WorkerHello): void; reject(e: Error): void };

  constructor(private readonly settings: WorkerSettings) {
    const python = settings.python ?? pythonExecutable();
    this.ready = new Promise((resolve, reject) => (this.settleReady = { resolve, reject }));
    this.ready.catch(() => {}); // observed through the pool
    // -S: no site-packages .pth side effects, and a smaller process to fork (see execute.py).
    this.proc = spawn(
      python,
      [
        '-S',
        '-m',
        'stepscope_recorder.execute',
        '--timeout',
        String(settings.timeout),
        '--memory-mb',
        String(settings.memoryMb),
      ],
      {
        env: workerEnv(settings.hashseed),
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    this.proc.stdout.setEncoding('utf8');
    this.proc.stdout.on('data', (chunk: string) => this.onData(chunk));
    this.proc.stderr.setEncoding('utf8');
    this.proc.stderr.on('data', (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-STDERR_KEEP)));
    this.proc.stdin.on('error', () => {}); // EPIPE when the worker dies; handled on exit
    this.exit = new Promise((resolve) => {
      this.proc.on('error', (e) => this.onExit(`cannot start ${python}: ${e.message}`).then(resolve));
      this.proc.on('close', (code, signal) =>
        this.onExit(signal ? `killed by ${signal}` : `exit status ${code}`).then(resolve),
      );
    });
  }

  get pid(): number | undefined {
    return this.proc.pid;
  }

  /** Jobs sent and not answered yet. */
  get load(): number {
    return this.inflight.length;
  }

  get alive(): boolean {
    return !this.exited && !this.closing;
  }

  send(ticket: SubmittedJob): void {
    this.inflight.push(ticket);
    this.proc.stdin.write(JSON.stringify(ticket.job) + '\n');
  }

  /** Ends stdin: the worker finishes what it has and exits. */
  async close(): Promise<void> {
    this.closing = true;
    this.proc.stdin.end();
    await this.exit;
  }

  /** SIGTERM (the worker kills its running job's processes), SIGKILL after `graceMs`. */
  async kill(graceMs = 2000): Promise<void> {
    this.closing = true;
    if (!this.exited) this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), graceMs);
    await this.exit;
    clearTimeout(timer);
  }

  private onData(chunk: string): void {
    // Only the new chunk is searched for a newline: a long line costs linear time.
    let nl = chunk.indexOf('\n');
    if (nl < 0) {
      this.pieces.push(chunk);
      return;
    }
    let line = this.pieces.length ? this.pieces.join('') + chunk.slice(0, nl) : chunk.slice(0, nl);
    this.pieces = [];
    for (;;) {
      this.onLine(line);
      const start = nl + 1;
      nl = chunk.indexOf('\n', start);
      if (nl < 0) {
        if (start < chunk.length) this.pieces.push(chunk.slice(start));
        return;
      }
      line = chunk.slice(start, nl);
    }
  }

  private onLine(line: string): void {
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(line) as Record<string, unknown>;
      if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) throw new TypeError('not an object');
    } catch {
      this.proc.kill('SIGKILL'); // a broken protocol: restart rather than misattribute verdicts
      return;
    }
    if (this.hello === null) {
      this.hello = msg as unknown as WorkerHello;
      if (this.hello.worker !== 'stepscope-execute' || this.hello.hashseed !== String(this.settings.hashseed)) {
        this.startError = new Error(
          `the execution worker did not start as expected (hash seed ${String(this.hello.hashseed)}, wanted ${this.settings.hashseed}): ${line}`,
        );
        this.settleReady.reject(this.startError);
        this.hello = null;
        this.proc.kill('SIGKILL');
        return;
      }
      this.settleReady.resolve(this.hello);
      return;
    }
    const ticket = this.inflight.shift();
    if (!ticket) return;
    this.answered++;
    if (typeof msg.bad_job === 'string')
      ticket.reject(new Error(`bad execution job ${JSON.stringify(ticket.job.id)}: ${msg.bad_job}`));
    else ticket.resolve(readVerdict(msg, ticket.job.id));
  }

  private async onExit(why: string): Promise<void> {
    if (this.exited) return;
    this.exited = true;
    if (this.proc.pid !== undefined) removeRunFolders(this.proc.pid);
    const tail = this.stderr.trim();
    if (this.hello === null && !this.startError) {
      this.startError = new Error(
        `the execution worker (${this.settings.python ?? pythonExecutable()} -m stepscope_recorder.execute) stopped before it was ready: ${why}${tail ? `\n${tail}` : ''}`,
      );
      this.settleReady.reject(this.startError);
    }
    const lost = this.inflight.splice(0);
    if (!this.closing || lost.length) this.onDeath(lost, why + (tail ? `: ${tail.split('\n').pop()}` : ''));
  }
}
