/**
 * Errors the store reports to people. Every message names the corpus file or input file
 * and says what was expected; callers (CLI, server, app) show `message` as is. Both are
 * UserErrors: `code` is the kind any front end reacts to, CorpusError's `kind` the store's
 * finer name for it.
 */
import { UserError, type ErrorCode } from '../common/errors.js';

export type CorpusErrorKind =
  | 'missing' // the file does not exist and creating it was not asked for
  | 'not-corpus' // the file is not a Stepscope corpus (left untouched)
  | 'newer' // made by a newer Stepscope (left untouched)
  | 'needs-upgrade' // older schema, but opened read-only so it cannot be migrated
  | 'readonly' // a write was attempted on a read-only file or connection
  | 'locked' // another connection holds the write lock past the busy timeout
  | 'corrupt' // SQLite reports the file as damaged
  | 'io'; // the disk is full or failing, or memory ran out

const CODE_OF: Record<CorpusErrorKind, ErrorCode> = {
  missing: 'not-found',
  'not-corpus': 'not-corpus',
  newer: 'newer-schema',
  'needs-upgrade': 'needs-upgrade',
  readonly: 'read-only',
  locked: 'corpus-locked',
  corrupt: 'corrupt',
  io: 'unavailable',
};

export class CorpusError extends UserError {
  constructor(
    message: string,
    readonly kind: CorpusErrorKind,
  ) {
    super(message, CODE_OF[kind]);
  }
}

/** A problem in an input file, located by 1-based line number (0 when not tied to a line). */
export class IngestError extends UserError {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly detail: string,
  ) {
    super(line > 0 ? `${file}:${line}: ${detail}` : `${file}: ${detail}`, 'bad-input');
  }
}

/** The refusal of a write on a read-only corpus (by SQLite, or by Corpus before it asks). */
export function readOnlyError(path: string): CorpusError {
  return new CorpusError(
    `${path} is read-only: cannot write to it (check the file and folder permissions).`,
    'readonly',
  );
}

/**
 * Turns SQLite's error codes for locking, permissions, damage and I/O into CorpusErrors that
 * name the file; anything else is returned unchanged (it is a bug, not a user problem).
 */
export function explainSqliteError(e: unknown, path: string): unknown {
  const code = (e as { code?: unknown })?.code;
  if (typeof code !== 'string') return e;
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new CorpusError(
      `${path} is locked: another program is writing to it. Try again when it has finished.`,
      'locked',
    );
  }
  if (code.startsWith('SQLITE_READONLY')) return readOnlyError(path);
  if (code === 'SQLITE_CANTOPEN' || code.startsWith('SQLITE_CANTOPEN_')) {
    return new CorpusError(
      `cannot open ${path}: check that the file and its folder exist and are readable.`,
      'missing',
    );
  }
  if (code === 'SQLITE_NOTADB') {
    return new CorpusError(`${path} is not a Stepscope corpus (not a SQLite database).`, 'not-corpus');
  }
  if (code.startsWith('SQLITE_CORRUPT')) {
    return new CorpusError(`${path} is damaged (SQLite reports corruption): ${(e as Error).message}`, 'corrupt');
  }
  if (code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR') || code === 'SQLITE_NOMEM') {
    return new CorpusError(`${path}: ${(e as Error).message}`, 'io');
  }
  return e;
}
