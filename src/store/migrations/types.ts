import type Database from 'better-sqlite3';

/**
 * One schema step. `up` runs inside the transaction the runner opens (do not BEGIN/COMMIT
 * here); the runner then sets `PRAGMA user_version = version` in the same transaction, so a
 * migration either applies whole or not at all.
 *
 * Rules for authors:
 * - Never edit a migration that has shipped: add a new file with the next number.
 * - Never drop or empty user-authored data (`annotations`): the runner refuses a migration
 *   that lowers the row count of a table in PROTECTED_TABLES (see src/store/migrate.ts).
 */
export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
  /**
   * Tables the migration rebuilds (SQLite's documented procedure: create the new table, copy, drop the old, rename):
   * the runner turns foreign keys OFF before its transaction (the pragma is a no-op inside one), runs
   * `PRAGMA foreign_key_check` on these tables and on every table referencing them before committing (a dangling
   * reference rolls everything back), and turns them back on.
   */
  rebuilds?: readonly string[];
}
