/**
 * What every corpus method stands on: the path, the one better-sqlite3 connection, `guard`
 * (a SQLite error becomes a CorpusError naming the file, src/store/errors.ts) and
 * `assertWritable` (a write on a read-only connection is refused before it starts).
 *
 * The domain files beside this one (traces.ts, trajectories.ts, predictions.ts, export.ts,
 * annotations.ts, sql.ts) are mixins over this class: each adds its one-line methods over
 * its queries/<domain>.ts, reads and writes apart; ../corpus.ts composes them.
 *
 * Every write transaction begins IMMEDIATE (`.immediate()`): SQLite waits the busy timeout for
 * the write lock only when a transaction takes it first; one that has read before its first write
 * is refused SQLITE_BUSY at once while another program (an import) writes.
 */
import type Database from 'better-sqlite3';
import { bindConnection } from '../connection.js';
import { explainSqliteError, readOnlyError } from '../errors.js';

// The mixin pattern's constructor type: TypeScript requires `...args: any[]` here.
// A mixin's base must have a constructor of `any[]` arguments (TypeScript's rule for mixin classes).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CorpusClass<T extends CorpusBase = CorpusBase> = new (...args: any[]) => T;

export class CorpusBase {
  private closed = false;

  constructor(
    readonly path: string,
    protected readonly conn: Database.Database,
  ) {
    bindConnection(this, conn);
  }

  get readonly(): boolean {
    return this.conn.readonly;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.conn.close();
  }

  protected guard<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      throw explainSqliteError(e, this.path);
    }
  }

  /** Refuses a write on a read-only connection before it starts (SQLite would refuse it too). */
  protected assertWritable(): void {
    if (this.readonly) throw readOnlyError(this.path);
  }
}
