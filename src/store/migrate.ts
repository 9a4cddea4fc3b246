/**
 * Runs the migration registry against an open database. Each migration runs in its own
 * IMMEDIATE transaction (taking the write lock first, so two processes opening the same
 * old corpus cannot both migrate it), and re-reads user_version inside it.
 */
import type Database from 'better-sqlite3';
import { MIGRATIONS, type Migration } from './migrations/index.js';

/** 'STPS': marks a SQLite file as a Stepscope corpus (PRAGMA application_id). */
export const APPLICATION_ID = 0x53545053;

/** Tables holding work people did by hand: a migration may never lower their row count. */
export const PROTECTED_TABLES = ['annotations', 'annotation_history', 'taxonomies'] as const;

export function latestVersion(migrations: readonly Migration[] = MIGRATIONS): number {
  return migrations.length ? migrations[migrations.length - 1].version : 0;
}

export function userVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

function protectedCounts(db: Database.Database): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of PROTECTED_TABLES) {
    const exists = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(t);
    if (exists) counts.set(t, (db.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n);
  }
  return counts;
}

/** Applies every migration newer than the database; returns the versions before and after. */
export function migrate(
  db: Database.Database,
  migrations: readonly Migration[] = MIGRATIONS,
): { from: number; to: number } {
  const from = userVersion(db);
  for (const m of migrations) {
    if (m.rebuilds?.length && userVersion(db) < m.version) rebuilding(db, () => apply(db, m));
    else apply(db, m);
  }
  return { from, to: userVersion(db) };
}

/**
 * Runs `f` with foreign keys off (dropping a parent table must neither cascade nor fail), and checks every reference
 * inside f's transaction (see foreignKeyCheck) before it commits. Restores the setting whatever happens.
 */
function rebuilding(db: Database.Database, f: () => void): void {
  const was = db.pragma('foreign_keys', { simple: true }) as number;
  db.pragma('foreign_keys = OFF');
  try {
    f();
  } finally {
    db.pragma(`foreign_keys = ${was ? 'ON' : 'OFF'}`);
  }
}

/**
 * Throws when a row of the rebuilt tables, or of a table referencing them, references a row that does not exist
 * (called inside the migration's transaction). Only those tables: checking all of them would read every event.
 */
function foreignKeyCheck(db: Database.Database, m: Migration, rebuilt: readonly string[]): void {
  const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[];
  const children = tables.filter(
    (t) =>
      rebuilt.includes(t) ||
      (db.pragma(`foreign_key_list("${t}")`) as { table: string }[]).some((fk) => rebuilt.includes(fk.table)),
  );
  const bad = children.flatMap(
    (t) => db.pragma(`foreign_key_check("${t}")`) as { table: string; rowid: number; parent: string }[],
  );
  if (bad.length) {
    const first = bad[0];
    throw new Error(
      `migration ${m.version} (${m.name}) would leave ${bad.length} rows referencing missing rows ` +
        `(the first: "${first.table}" row ${first.rowid} → "${first.parent}"); nothing was changed`,
    );
  }
}

function apply(db: Database.Database, m: Migration): void {
  db.transaction(() => {
    if (userVersion(db) >= m.version) return;
    const before = protectedCounts(db);
    m.up(db);
    const after = protectedCounts(db);
    for (const [table, n] of before) {
      const now = after.get(table);
      if (now === undefined || now < n) {
        throw new Error(
          `migration ${m.version} (${m.name}) would lose rows of "${table}" (${n} before, ${now ?? 'table gone'} after); nothing was changed`,
        );
      }
    }
    if (m.rebuilds?.length) foreignKeyCheck(db, m, m.rebuilds);
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma(`user_version = ${m.version}`);
  }).immediate();
}
