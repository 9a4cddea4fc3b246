/**
 * The app's export jobs, held in memory. Every job method (startExport, exportProgress) runs
 * on the API pool's one job worker (src/api/host/pool.ts, JOB_METHODS), so a job is polled
 * where it runs; the table is per thread, shared by every handler instance in it. Jobs last as
 * long as that worker.
 */
import { UserError } from '../../common/errors.js';
import type { ExportStatus } from '../../contract/index.js';

const jobs = new Map<number, ExportStatus>();
let last = 0;

/** A new job's id and a writer of its status. */
export function createJob(status: ExportStatus): { job: number; write(s: ExportStatus): void } {
  const job = ++last;
  jobs.set(job, status);
  return { job, write: (s) => jobs.set(job, s) };
}

export function readJob(job: number): ExportStatus {
  const s = jobs.get(job);
  if (!s) throw new UserError(`no export job ${job} (jobs last as long as the app or server)`, 'not-found');
  return s;
}
