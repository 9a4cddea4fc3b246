/**
 * Where an export writes, and what an earlier, killed export left there. Both exports (the
 * dataset folder, the trace file) write into a temporary beside the output whose name holds
 * the writing process's id (`.DIR.partial-PID-…`, `FILE.partial-PID`) and rename it into place.
 * A process killed outright (kill -9, a power cut) leaves its temporary behind; the next export
 * to the same place removes those whose process is gone.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UserError } from '../common/errors.js';
import { writeError } from '../common/fs-errors.js';

/**
 * The path an output really is: a symbolic link (or a chain of them) is followed to its target,
 * which need not exist yet, so the export replaces the target and keeps the link.
 */
export function throughLinks(path: string): string {
  let p = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    let link: string;
    try {
      if (!lstatSync(p).isSymbolicLink()) return p;
      link = readlinkSync(p);
    } catch {
      return p; // nothing there yet
    }
    p = resolve(dirname(p), link);
  }
  throw new UserError(
    `cannot write ${path}: its symbolic links form a loop; fix the link or choose another path`,
    'bad-input',
  );
}

/** Whether a process with this id runs (one of another user counts: it cannot be signalled). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function size(path: string): number {
  const st = lstatSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((a, f) => a + size(join(path, f)), 0);
}

const amount = (bytes: number) =>
  bytes < 1024
    ? `${bytes} byte${bytes === 1 ? '' : 's'}`
    : bytes < 1 << 20
      ? `${Math.ceil(bytes / 1024)} KB`
      : `${Math.round(bytes / (1 << 20))} MB`;

/**
 * Removes the temporaries `PREFIX<pid>…` in `out`'s folder left by processes that have ended,
 * and says what went in one sentence each. `prefix` is the temporary's name up to the pid.
 * A `….old` (an earlier export moved aside by --force, its replacement not yet renamed in) is
 * put back as `out` when `out` is missing, so a kill between the two renames loses nothing.
 */
export function removeStale(out: string, prefix: string): string[] {
  const dir = dirname(out);
  const notes: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return notes;
  }
  const older = names.filter((f) => f.endsWith('.old'));
  for (const f of [...older, ...names.filter((f) => !f.endsWith('.old'))]) {
    if (!f.startsWith(prefix)) continue;
    const pid = Number(/^\d+/.exec(f.slice(prefix.length))?.[0]);
    if (!pid || pid === process.pid || alive(pid)) continue;
    const path = join(dir, f);
    if (!existsSync(path)) continue;
    try {
      if (f.endsWith('.old') && !existsSync(out)) {
        renameSync(path, out);
        notes.push(
          `put back the earlier export ${basename(out)} that process ${pid} had moved aside when it was stopped`,
        );
        continue;
      }
      const bytes = size(path);
      rmSync(path, { recursive: true, force: true });
      notes.push(`removed ${f} (${amount(bytes)}), left by an export that was stopped (process ${pid} has ended)`);
    } catch (e) {
      throw writeError(e, out) ?? e;
    }
  }
  return notes;
}

/**
 * A file-system error of writing `out` through the temporary `tmp`, as a sentence naming `out`;
 * undefined for any other error. Errors on descriptors (write, close) have no path and come
 * only from the output's files; an error with a path counts when it is the output's or lies in
 * the temporary, so failing to read the corpus is never blamed on the output.
 */
export function outputError(e: unknown, out: string, tmp: string): UserError | undefined {
  const { path, dest, code, syscall } = e as { path?: unknown; dest?: unknown; code?: unknown; syscall?: unknown };
  if (code === 'ENOENT' && typeof path === 'string' && path.startsWith(tmp)) {
    // A recursive mkdir says ENOENT on a read-only disk (or a folder it may not write): make the
    // first level alone to hear the real reason.
    if (syscall === 'mkdir') {
      try {
        mkdirSync(tmp);
        rmdirSync(tmp);
      } catch (again) {
        if ((again as { code?: unknown }).code !== 'EEXIST') return writeError(again, out);
      }
    }
    // The output's folder is there, so the temporary was removed meanwhile (Ctrl+C's cleanup).
    if (existsSync(dirname(out))) return undefined;
  }
  const ours = (p: unknown) => typeof p === 'string' && (p === out || p === dirname(out) || p.startsWith(tmp));
  if (path === undefined ? true : ours(path) || ours(dest)) return writeError(e, out);
  return undefined;
}

/** Removes a temporary after a failure; never throws over that failure (its path may be impossible). */
export function discard(tmp: string): void {
  try {
    rmSync(tmp, { recursive: true, force: true });
  } catch {
    // nothing was made there
  }
}
