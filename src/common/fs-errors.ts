/**
 * A file-system error met while writing, as one sentence a person can act on: the path they
 * gave, what went wrong in plain words and what to do. Only the errors a write can meet on a
 * healthy machine are mapped (a full disk, a read-only mount, permissions, a missing folder,
 * a file in the way); anything else is left to the caller (it is a bug or a broken disk).
 *
 * Pure: it reads the error's `code`, so it runs wherever a UserError does.
 */
import { UserError, type ErrorCode } from './errors.js';

/** The folder holding `path` (either separator; the path itself when it has none). */
function parentOf(path: string): string {
  const trimmed = path.replace(/[/\\]+$/, '');
  const at = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return at > 0 ? trimmed.slice(0, at) : at === 0 ? trimmed.slice(0, 1) : '.';
}

const WHY: Record<string, (path: string) => [string, ErrorCode]> = {
  ENOSPC: () => ['the disk is full; free some space on it or choose a folder on another disk', 'unavailable'],
  EDQUOT: () => ['your disk quota is used up; free some of your space or choose another disk', 'unavailable'],
  EFBIG: () => ['a file grew larger than that file system allows; choose a folder on another disk', 'unavailable'],
  EROFS: () => ['that disk is mounted read-only; choose a folder on a disk you can write to', 'read-only'],
  EACCES: () => ['permission denied; choose a folder you may write to, or change its permissions', 'read-only'],
  EPERM: () => ['permission denied; choose a folder you may write to, or change its permissions', 'read-only'],
  ENOENT: (path) => [`the folder ${parentOf(path)} does not exist; create it or choose another folder`, 'not-found'],
  ENOTDIR: () => ['a part of that path is a file, not a folder; choose another path', 'bad-input'],
  EEXIST: () => ['something else is already there; remove it or choose another path', 'bad-input'],
  EISDIR: () => ['it is a folder; give the path of a file', 'bad-input'],
  ELOOP: () => ['its symbolic links form a loop; fix the link or choose another path', 'bad-input'],
  ENAMETOOLONG: () => ['the name is too long for the file system; choose a shorter path', 'bad-input'],
};

/** The error's errno code when it is one a file-system call raises (it names its syscall). */
export function fsErrorCode(e: unknown): string | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const { code, syscall } = e as { code?: unknown; syscall?: unknown };
  return typeof code === 'string' && typeof syscall === 'string' ? code : undefined;
}

/**
 * `cannot write PATH: <why>; <what to do>` for a mapped file-system error, else undefined.
 * `path` is what the person gave (not a temporary name the program wrote through).
 */
export function writeError(e: unknown, path: string): UserError | undefined {
  const code = fsErrorCode(e);
  const why = code === undefined ? undefined : WHY[code];
  if (!why) return undefined;
  const [sentence, errorCode] = why(path);
  return new UserError(`cannot write ${path}: ${sentence}`, errorCode);
}
