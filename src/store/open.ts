/**
 * Opens (and when asked, creates or upgrades) a corpus file. A file that is not a
 * Stepscope corpus, or was made by a newer Stepscope, is refused before SQLite writes a
 * byte to it: the 100-byte SQLite header is read directly first, and checked again through
 * SQLite after a read-only open (the header on disk can lag behind an un-checkpointed WAL).
 */
import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, resolve } from 'node:path';
import { CorpusError, explainSqliteError, readOnlyError } from './errors.js';
import { APPLICATION_ID, latestVersion, migrate, userVersion } from './migrate.js';
import { MIGRATIONS, type Migration } from './migrations/index.js';

export interface OpenOptions {
  /** Create the file (and its schema) when it does not exist. Default false. */
  create?: boolean;
  /** Open read-only: no schema upgrade, every write fails. Default false. */
  readonly?: boolean;
  /** How long to wait for another connection's write lock, in ms. Default 5000. */
  busyTimeoutMs?: number;
  /** For tests of the migration machinery; normally the full registry. */
  migrations?: readonly Migration[];
  /**
   * Path to a better_sqlite3.node to load instead of the one in node_modules (better-sqlite3's
   * `nativeBinding` option). The desktop app passes a build for Electron's ABI; the default
   * build is for plain Node.
   */
  nativeBinding?: string;
}

const SQLITE_MAGIC = 'SQLite format 3\0';

interface HeaderInfo {
  size: number;
  applicationId: number;
  userVersion: number;
}

function readHeader(path: string): HeaderInfo | undefined {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(path);
  } catch {
    return undefined;
  }
  // Without this, reading the header fails with Node's bare EISDIR, which names nothing.
  if (st.isDirectory()) throw new CorpusError(`${path} is a folder, not a Stepscope corpus file.`, 'not-corpus');
  const size = st.size;
  if (size === 0) return { size, applicationId: 0, userVersion: 0 };
  const buf = Buffer.alloc(100);
  const fd = openSync(path, 'r');
  let n: number;
  try {
    n = readSync(fd, buf, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  if (n < 100 || buf.toString('latin1', 0, 16) !== SQLITE_MAGIC) {
    throw new CorpusError(`${path} is not a Stepscope corpus (not a SQLite database).`, 'not-corpus');
  }
  return { size, userVersion: buf.readUInt32BE(60), applicationId: buf.readUInt32BE(68) };
}

function refuseIfForeign(path: string, appId: number, version: number, hasTables: () => boolean, latest: number) {
  if (appId !== APPLICATION_ID && !(appId === 0 && version === 0 && !hasTables())) {
    throw new CorpusError(
      `${path} is not a Stepscope corpus (a SQLite database made by another program).`,
      'not-corpus',
    );
  }
  if (version > latest) {
    throw new CorpusError(
      `${path} was made by a newer Stepscope (schema ${version}, this version knows up to ${latest}); it was left untouched.`,
      'newer',
    );
  }
}

function tableCount(db: Database.Database): number {
  return (db.prepare('SELECT count(*) AS n FROM sqlite_schema').get() as { n: number }).n;
}

/**
 * Loads a native binding up front, so a missing file or one built for another ABI fails with
 * a message naming it rather than Node's bare loader error. Node caches the module, so
 * better-sqlite3's own load of the same path afterwards is free.
 */
function checkBinding(binding: string): string {
  const file = resolve(binding);
  try {
    createRequire(import.meta.url)(file);
  } catch (e) {
    const why = String((e as Error).message ?? e).split('\n')[0];
    throw new Error(`cannot load the SQLite module ${file}: ${why}`, { cause: e });
  }
  return file;
}

export function openDatabase(path: string, opts: OpenOptions = {}): Database.Database {
  const nativeBinding = opts.nativeBinding === undefined ? undefined : checkBinding(opts.nativeBinding);
  const migrations = opts.migrations ?? MIGRATIONS;
  const latest = latestVersion(migrations);
  const readonly = opts.readonly ?? false;
  const header = readHeader(path);
  if (!header && (!opts.create || readonly)) {
    throw new CorpusError(`${path} does not exist (\`stepscope ingest FILE --db ${path}\` creates it).`, 'missing');
  }
  // better-sqlite3 refuses a missing folder with a TypeError that names neither file nor folder.
  if (!header && !existsSync(dirname(path))) {
    throw new CorpusError(`cannot create ${path}: the folder ${dirname(path)} does not exist.`, 'missing');
  }

  let db: Database.Database | undefined;
  try {
    let fresh = !header || header.size === 0;
    if (header && header.size > 0) {
      // Cheap refusal from the raw header; the empty-database case needs SQLite to look.
      if (header.applicationId !== 0 || header.userVersion !== 0) {
        refuseIfForeign(path, header.applicationId, header.userVersion, () => true, latest);
      }
      // Second look through SQLite, read-only, before anything may write.
      const probe = new Database(path, { readonly: true, fileMustExist: true, nativeBinding });
      try {
        const appId = probe.pragma('application_id', { simple: true }) as number;
        const version = userVersion(probe);
        refuseIfForeign(path, appId, version, () => tableCount(probe) > 0, latest);
        fresh = appId === 0;
      } finally {
        probe.close();
      }
    }

    if (fresh && (!opts.create || readonly)) {
      throw new CorpusError(
        `${path} is an empty database, not a Stepscope corpus (\`stepscope ingest FILE --db ${path}\` makes it one).`,
        'not-corpus',
      );
    }
    db = new Database(path, {
      readonly,
      fileMustExist: !opts.create,
      timeout: opts.busyTimeoutMs ?? 5000,
      nativeBinding,
    });
    db.pragma('foreign_keys = ON');
    if (!readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    const version = userVersion(db);
    if (version < latest) {
      if (readonly) {
        throw new CorpusError(
          `${path} uses schema ${version} and this version needs ${latest}: open it once without read-only (e.g. \`stepscope ingest\`) to upgrade it.`,
          'needs-upgrade',
        );
      }
      migrate(db, migrations);
    }
    return db;
  } catch (e) {
    db?.close();
    throw explainOpenError(e, path, readonly);
  }
}

function explainOpenError(e: unknown, path: string, readonly: boolean): unknown {
  const code = (e as { code?: unknown })?.code;
  if (code === 'SQLITE_READONLY_DIRECTORY' || (code === 'SQLITE_CANTOPEN' && existsSync(path))) {
    if (!readonly) return readOnlyError(path);
    return new CorpusError(
      `cannot read ${path}: its folder is not writable, and SQLite must create ${basename(path)}-shm beside a corpus in WAL mode to read it. ` +
        'Make the folder writable, or copy the file into a writable folder.',
      'readonly',
    );
  }
  return explainSqliteError(e, path);
}
