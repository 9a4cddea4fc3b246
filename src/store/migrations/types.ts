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
}
