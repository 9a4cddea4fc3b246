/**
 * `stepscope corpus merge`: copying one attached corpus (schema `s`) into the main one, ids
 * renumbered. Traces are matched by their content hash (a trace already in the main corpus is
 * not copied again, nor its trajectories), programs by theirs. Column lists come from the main
 * schema, so a column added by a later migration is copied without a change here.
 */
import type Database from 'better-sqlite3';

/** The tables a merge refuses to drop silently: their rows name ids of their own corpus. */
export const UNMERGED_TABLES = [
  'evalsets',
  'runs',
  'annotations',
  'annotation_history',
  'taxonomies',
  'review_quotas',
  'benchmark_programs',
  // A counterfactual's link names its origin's trace id; merged traces would need it renumbered.
  'counterfactuals',
] as const;

/** What a merge copies (ids renumbered); a table in neither list fails test/pipeline/merge.test.ts. */
export const MERGED_TABLES = [
  'programs',
  'traces',
  'events',
  'trace_skeletons',
  'trajectories',
  'trajectory_steps',
] as const;

/** Rows that only exist under a row of an unmerged table (an evaluation set's items, runs' predictions). */
export const UNDER_UNMERGED = ['evalset_items', 'predictions', 'rollout_targets', 'rollout_steps'] as const;

export function rowsOf(db: Database.Database, schema: string, table: string): number {
  return (db.prepare(`SELECT count(*) AS n FROM ${schema}.${table}`).get() as { n: number }).n;
}

const columns = (db: Database.Database, table: string, drop: string[]) =>
  (db.prepare(`SELECT name FROM pragma_table_info(?) ORDER BY cid`).all(table) as { name: string }[])
    .map((c) => c.name)
    .filter((c) => !drop.includes(c));

export interface MergeCounts {
  traces: number;
  duplicates: number;
  events: number;
  trajectories: number;
}

/** Copies `s` into main; run inside one transaction. */
export function mergeAttached(db: Database.Database): MergeCounts {
  const programCols = columns(db, 'programs', ['id']);
  db.prepare(
    `INSERT OR IGNORE INTO main.programs (${programCols.join(', ')})
     SELECT ${programCols.join(', ')} FROM s.programs ORDER BY id`,
  ).run();
  const traceCols = columns(db, 'traces', ['id', 'program_id']);
  const before = (db.prepare('SELECT coalesce(max(id), 0) AS m FROM main.traces').get() as { m: number }).m;
  db.exec('DROP TABLE IF EXISTS temp.trace_map; CREATE TEMP TABLE trace_map (old INTEGER PRIMARY KEY, new INTEGER)');
  db.exec('DROP TABLE IF EXISTS temp.traj_map; CREATE TEMP TABLE traj_map (old INTEGER PRIMARY KEY, new INTEGER)');
  const traces = db
    .prepare(
      `INSERT INTO main.traces (program_id, ${traceCols.join(', ')})
       SELECT p2.id, ${traceCols.map((c) => `t.${c}`).join(', ')}
       FROM s.traces t JOIN s.programs p ON p.id = t.program_id JOIN main.programs p2 ON p2.hash = p.hash
       WHERE t.hash NOT IN (SELECT hash FROM main.traces) ORDER BY t.id`,
    )
    .run().changes;
  db.prepare(
    `INSERT INTO temp.trace_map SELECT t.id, m.id FROM s.traces t JOIN main.traces m ON m.hash = t.hash WHERE m.id > ?`,
  ).run(before);
  const eventCols = columns(db, 'events', ['trace_id']);
  const events = db
    .prepare(
      `INSERT INTO main.events (trace_id, ${eventCols.join(', ')})
       SELECT m.new, ${eventCols.map((c) => `e.${c}`).join(', ')}
       FROM temp.trace_map m JOIN s.events e ON e.trace_id = m.old ORDER BY m.new, e.seq`,
    )
    .run().changes;
  const skeletonCols = columns(db, 'trace_skeletons', ['trace_id']);
  db.prepare(
    `INSERT INTO main.trace_skeletons (trace_id, ${skeletonCols.join(', ')})
     SELECT m.new, ${skeletonCols.map((c) => `k.${c}`).join(', ')}
     FROM temp.trace_map m JOIN s.trace_skeletons k ON k.trace_id = m.old`,
  ).run();
  // A sampled trajectory's sample_key starts with its trace id (src/trajectories/sample-corpus.ts):
  // renumbered with the trace, so sampling the merged corpus again stores nothing twice.
  const trajCols = columns(db, 'trajectories', ['id', 'trace_id', 'sample_key']);
  const trajBefore = (db.prepare('SELECT coalesce(max(id), 0) AS m FROM main.trajectories').get() as { m: number }).m;
  const trajectories = db
    .prepare(
      `INSERT INTO main.trajectories (trace_id, sample_key, ${trajCols.join(', ')})
       SELECT m.new, CASE WHEN j.sample_key IS NULL THEN NULL ELSE json_set(j.sample_key, '$[0]', m.new) END,
              ${trajCols.map((c) => `j.${c}`).join(', ')}
       FROM temp.trace_map m JOIN s.trajectories j ON j.trace_id = m.old ORDER BY j.id`,
    )
    .run().changes;
  // Inserted in the order of their old ids, each at max(id) + 1: the k-th old id is trajBefore + k.
  db.prepare(
    `INSERT INTO temp.traj_map SELECT j.id, ? + row_number() OVER (ORDER BY j.id)
     FROM temp.trace_map m JOIN s.trajectories j ON j.trace_id = m.old`,
  ).run(trajBefore);
  const stepCols = columns(db, 'trajectory_steps', ['trajectory_id']);
  db.prepare(
    `INSERT INTO main.trajectory_steps (trajectory_id, ${stepCols.join(', ')})
     SELECT m.new, ${stepCols.map((c) => `t.${c}`).join(', ')}
     FROM temp.traj_map m JOIN s.trajectory_steps t ON t.trajectory_id = m.old`,
  ).run();
  const all = (db.prepare('SELECT count(*) AS n FROM s.traces').get() as { n: number }).n;
  return { traces, duplicates: all - traces, events, trajectories };
}
