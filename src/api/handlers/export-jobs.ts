/**
 * The app's export jobs, kept as files in `stepscope-exports/.jobs/` (a folder name the API
 * never accepts: names starting with `.` are refused): the server may answer requests from
 * several API instances (a pool of worker threads, each with its own handlers), and
 * exportProgress must find a job whichever instance started it. The writer replaces its file
 * whole (write, then rename), so a reader never sees half a status. A job left `running` by
 * a process that has ended is reported failed.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../common/errors.js';
import type { ExportStatus } from '../contract/index.js';

interface Stored extends ExportStatus {
  pid: number;
}

const DAY = 24 * 3600 * 1000;
const fileOf = (dir: string, job: number) => join(dir, `${job}.json`);

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A new job's id (the next free number in `dir`) and a writer of its status. */
export function createJob(root: string, status: ExportStatus): { job: number; write(s: ExportStatus): void } {
  const dir = join(root, '.jobs');
  mkdirSync(dir, { recursive: true });
  const names = readdirSync(dir).filter((f) => /^\d+\.json$/.test(f));
  for (const f of names) {
    try {
      if (Date.now() - statSync(join(dir, f)).mtimeMs > DAY) unlinkSync(join(dir, f));
    } catch {
      // another instance removed it first
    }
  }
  let job = Math.max(0, ...names.map((f) => parseInt(f, 10))) + 1;
  for (;;) {
    try {
      writeFileSync(fileOf(dir, job), JSON.stringify({ ...status, pid: process.pid }), { flag: 'wx' });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      job++; // another instance took this number meanwhile
    }
  }
  const write = (s: ExportStatus) => {
    const tmp = `${fileOf(dir, job)}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(tmp, JSON.stringify({ ...s, pid: process.pid }));
    renameSync(tmp, fileOf(dir, job));
  };
  return { job, write };
}

export function readJob(root: string, job: number): ExportStatus {
  let s: Stored;
  try {
    s = JSON.parse(readFileSync(fileOf(join(root, '.jobs'), job), 'utf8')) as Stored;
  } catch {
    throw new UserError(`no export job ${job} (jobs are kept for a day)`, 'not-found');
  }
  const { pid, ...status } = s;
  if (status.state === 'running' && !alive(pid)) return { ...status, state: 'failed', error: 'the export stopped: the program running it ended' };
  return status;
}
