/**
 * Plain SQL a person wrote (`stepscope sql`): one read-only statement, checked when called,
 * its rows given as the result is iterated. SQL checks: queries/sql.ts.
 */
import { userQuery, type SqlRow } from '../queries/sql.js';
import type { CorpusClass } from './base.js';

export function SqlReads<B extends CorpusClass>(Base: B) {
  return class SqlReads extends Base {
    /** One statement a person wrote, read-only; checked now, rows as the result is iterated. */
    query(sql: string): IterableIterator<SqlRow> {
      return userQuery(this.conn, this.path, sql);
    }
  };
}
