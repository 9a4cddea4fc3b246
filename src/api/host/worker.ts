/**
 * The entry of a worker thread of the pool (pool.ts): lowers its CPU priority when it runs
 * loads and jobs, then serves the pool's calls (worker-loop.ts).
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { WorkerConfig } from './protocol.js';
import { serveWorker } from './worker-loop.js';

const config = workerData as WorkerConfig;

/**
 * Lowers this thread's CPU priority by 10 below the one it was started with (at most 19, the
 * lowest), so it stays below the thread answering clients even when the whole process was
 * started with `nice` (Linux only: elsewhere nothing, never the whole process).
 * Its id and its niceness are read from /proc/thread-self, as the kernel reports them: on the
 * CI's machines os.getPriority(tid) did not answer the thread's niceness, and the workers were
 * left at the answering thread's priority.
 */
function yieldCpu(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    // stat's fields after the command's closing parenthesis: the 17th is the niceness (proc(5)).
    const nice = Number(readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ')[16]);
    if (tid > 0 && tid !== process.pid && Number.isInteger(nice)) setPriority(tid, Math.min(19, nice + 10));
  } catch {
    // not Linux: the same priority as the rest
  }
}

if (config.background) yieldCpu();
void serveWorker(config, parentPort!);
