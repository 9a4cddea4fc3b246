/**
 * One corpus from several (`stepscope corpus merge`, docs/pipeline.md): the traces of each, with
 * their events, skeletons and trajectories, ids renumbered in the order given. What names ids of
 * its own corpus (evaluation sets, runs, annotations, marked benchmarks) is refused, by table and
 * file, rather than dropped. The result is written beside OUT and renamed into place at the end.
 */
import Database from 'better-sqlite3';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { UserError } from '../common/errors.js';
import { openCorpus } from './corpus.js';
import { mergeAttached, rowsOf, UNMERGED_TABLES, type MergeCounts } from './queries/merge.js';

export interface MergeResult extends MergeCounts {
  corpora: number;
}

export function mergeCorpora(
  out: string,
  sources: string[],
  onSource?: (file: string, c: MergeCounts) => void,
): MergeResult {
  if (!sources.length) throw new UserError('give at least one corpus to merge', 'bad-input');
  if (existsSync(out)) throw new UserError(`${out} exists: merge writes a new corpus (remove it first)`, 'bad-input');
  const seen = new Set<string>();
  for (const s of sources) {
    if (resolve(s) === resolve(out)) throw new UserError(`${s} is the output`, 'bad-input');
    if (seen.has(resolve(s))) throw new UserError(`${s} is given twice`, 'bad-input');
    seen.add(resolve(s));
    if (!existsSync(s)) throw new UserError(`${s}: no such file`, 'not-found');
    // Refuses what is not a corpus, or one of another schema version, before anything is written.
    openCorpus(s, { readonly: true }).close();
  }
  const tmp = `${out}.partial-${process.pid}`;
  rmSync(tmp, { force: true });
  openCorpus(tmp, { create: true }).close();
  const total: MergeResult = { corpora: 0, traces: 0, duplicates: 0, events: 0, trajectories: 0 };
  const db = new Database(tmp);
  try {
    db.pragma('foreign_keys = ON');
    for (const s of sources) {
      db.prepare('ATTACH DATABASE ? AS s').run(s);
      try {
        const held = UNMERGED_TABLES.filter((t) => rowsOf(db, 's', t) > 0);
        if (held.length)
          throw new UserError(
            `${s} holds ${held.join(', ')}: merge copies traces and trajectories only, and these rows name ids ` +
              'of their own corpus; merge corpora before making evaluation sets, runs or annotations',
            'bad-input',
          );
        const c = db.transaction(() => mergeAttached(db)).immediate();
        total.corpora++;
        total.traces += c.traces;
        total.duplicates += c.duplicates;
        total.events += c.events;
        total.trajectories += c.trajectories;
        onSource?.(s, c);
      } finally {
        db.exec('DETACH DATABASE s');
      }
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch (e) {
    db.close();
    for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`]) rmSync(f, { force: true });
    throw e;
  }
  db.close();
  renameSync(tmp, out);
  return total;
}
