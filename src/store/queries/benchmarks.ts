/**
 * Where the leakage guard learns which programs belong to a benchmark (docs/export.md, "The
 * leakage guard"): traces recorded from a benchmark (their header's `meta`), the items of
 * CRUXEval evaluation sets, and the programs a person marked (`benchmark_programs`, migration
 * 012). The first two give program row ids; src/export/benchmarks.ts turns them into source
 * hashes, so every recording of the same function counts.
 */
import type Database from 'better-sqlite3';
import { isCruxevalTask, type EvalTask } from '../../semantics/eval.js';

/** `meta.task` values of the benchmarks the recorder itself records (`record-cruxeval`). */
export const BENCHMARK_TASKS = ['cruxeval'] as const;

/** A program row and the benchmark (or set) it belongs to. */
export interface ProgramOf {
  program_id: number;
  benchmark: string;
}

/**
 * Programs of traces recorded from a benchmark: `meta.benchmark` (a string: any recorder may
 * name its benchmark so) or `meta.task` of a benchmark the recorder knows (BENCHMARK_TASKS).
 */
export function tracedBenchmarkPrograms(db: Database.Database): ProgramOf[] {
  return db
    .prepare(
      `SELECT DISTINCT program_id, benchmark FROM (
         SELECT program_id,
           CASE WHEN json_type(meta, '$.benchmark') = 'text' AND json_extract(meta, '$.benchmark') != ''
                THEN json_extract(meta, '$.benchmark') ELSE json_extract(meta, '$.task') END AS benchmark
         FROM traces
         WHERE json_valid(meta) AND (
           (json_type(meta, '$.benchmark') = 'text' AND json_extract(meta, '$.benchmark') != '')
           OR json_extract(meta, '$.task') IN (${BENCHMARK_TASKS.map(() => '?').join(', ')})))
       ORDER BY benchmark, program_id`,
    )
    .all(...BENCHMARK_TASKS) as ProgramOf[];
}

/** Programs of the items of every CRUXEval evaluation set (the benchmark's tasks), by set name. */
export function evalsetBenchmarkPrograms(db: Database.Database): ProgramOf[] {
  const sets = (
    db.prepare('SELECT id, name, task FROM evalsets ORDER BY name').all() as {
      id: number;
      name: string;
      task: EvalTask;
    }[]
  ).filter((s) => isCruxevalTask(s.task));
  const ids = db
    .prepare('SELECT DISTINCT t.program_id FROM evalset_items i JOIN traces t ON t.id = i.trace_id WHERE i.set_id = ?')
    .pluck();
  const out: ProgramOf[] = [];
  for (const s of sets)
    for (const id of ids.iterate(s.id) as IterableIterator<number>) out.push({ program_id: id, benchmark: s.name });
  return out;
}

/** A marked program: the benchmark's name and the program's source hash. */
export interface MarkedProgram {
  benchmark: string;
  program: string;
  added: string;
}

export function markedPrograms(db: Database.Database): MarkedProgram[] {
  return db
    .prepare('SELECT benchmark, program, added FROM benchmark_programs ORDER BY benchmark, program')
    .all() as MarkedProgram[];
}

/** Marks the programs (source hashes) as the benchmark's; returns how many were not marked yet. */
export function markPrograms(db: Database.Database, benchmark: string, programs: string[], added: string): number {
  const ins = db.prepare('INSERT OR IGNORE INTO benchmark_programs (benchmark, program, added) VALUES (?, ?, ?)');
  return db.transaction(() => programs.reduce((n, p) => n + ins.run(benchmark, p, added).changes, 0))();
}

/** Unmarks the programs of the benchmark (all of them when `programs` is undefined); returns how many. */
export function unmarkPrograms(db: Database.Database, benchmark: string, programs?: string[]): number {
  if (!programs) return db.prepare('DELETE FROM benchmark_programs WHERE benchmark = ?').run(benchmark).changes;
  const del = db.prepare('DELETE FROM benchmark_programs WHERE benchmark = ? AND program = ?');
  return db.transaction(() => programs.reduce((n, p) => n + del.run(benchmark, p).changes, 0))();
}
