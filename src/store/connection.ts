/**
 * The SQLite connection behind a corpus. Only src/store (which runs every query) and the
 * store's own tests (which look at the file beneath it) may import this module; everything
 * else goes through Corpus's methods. test/layering.test.ts holds that rule.
 */
import type Database from 'better-sqlite3';

const connections = new WeakMap<object, Database.Database>();

export function bindConnection(corpus: object, db: Database.Database): void {
  connections.set(corpus, db);
}

export function connectionOf(corpus: object): Database.Database {
  const db = connections.get(corpus);
  if (!db) throw new Error('not a corpus opened by openCorpus');
  return db;
}
