/**
 * One execution worker process (`python3 -m stepscope_recorder.execute`) under one hash
 * seed. Jobs are written as JSON lines; the worker answers in order, so the in-flight list
 * is a FIFO and its head is the job running now. Used by ExecPool, which restarts workers.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { pythonDir, pythonExecutable } from '../recorder/python.js';
import type { Job, Verdict, WorkerHello } from './types.js';

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

function workerEnv(hashseed: number): NodeJS.ProcessEnv {
  const env = { ...process.env };
  env.PYTHONPATH = env.PYTHONPATH ? `${pythonDir}:${env.PYTHONPATH}` : pythonDir;
  env.PYTHONHASHSEED = String(hashseed);
  env.PYTHONDONTWRITEBYTECODE = '1';
  env.PYTHONIOENCODING = 'utf-8';
  // The checks rely on `assert`; a startup file or breakpoint hook has no business here.
  for (const v of ['PYTHONOPTIMIZE', 'PYTHONSTARTUP', 'PYTHONINSPECT', 'PYTHONBREAKPOINT']) delete env[v];
  return env;
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
  private pending = '';
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
    this.pending += chunk;
    let nl: number;
    while ((nl = this.pending.indexOf('\n')) >= 0) {
      const line = this.pending.slice(0, nl);
      this.pending = this.pending.slice(nl + 1);
      this.onLine(line);
    }
  }

  private onLine(line: string): void {
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(line) as Record<string, unknown>;
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
    else ticket.resolve({ ...(msg as unknown as Verdict), id: ticket.job.id });
  }

  private async onExit(why: string): Promise<void> {
    if (this.exited) return;
    this.exited = true;
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
