/**
 * A statement written by a person (`stepscope sql`), run so that it can only read: it must
 * return rows, and it runs on a read-only connection, where SQLite refuses any write (a
 * writable corpus refuses statements SQLite marks as writing before they run).
 */
import Database from 'better-sqlite3';
import { UserError } from '../../common/errors.js';
import { explainSqliteError } from '../errors.js';

export type SqlRow = Record<string, unknown>;

/** Prepares and checks `sql` now (errors thrown here); the rows come as the result is iterated. */
export function userQuery(db: Database.Database, path: string, sql: string): IterableIterator<SqlRow> {
  let stmt: Database.Statement;
  try {
    stmt = db.prepare(sql);
  } catch (e) {
    throw asUserError(e, path);
  }
  if (!stmt.reader)
    throw new UserError('only queries that return rows can run here (the corpus is opened read-only)', 'bad-input');
  if (!db.readonly && !stmt.readonly) throw new UserError('only statements that read can run here', 'read-only');
  return rows(stmt as Database.Statement<unknown[], SqlRow>, path);
}

function* rows(stmt: Database.Statement<unknown[], SqlRow>, path: string): Generator<SqlRow> {
  try {
    yield* stmt.iterate();
  } catch (e) {
    throw asUserError(e, path);
  }
}

/** The statement's own fault keeps SQLite's message; a locked or damaged file says so. */
function asUserError(e: unknown, path: string): unknown {
  if (!(e instanceof Database.SqliteError)) return e;
  if (e.code.startsWith('SQLITE_READONLY')) return new UserError(e.message, 'read-only');
  const known = explainSqliteError(e, path);
  return known instanceof UserError ? known : new UserError(e.message, 'bad-input');
}
