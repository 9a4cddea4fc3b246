/**
 * benchmark_programs: programs a person marked as a benchmark's (`stepscope benchmark add`,
 * docs/export.md, "The leakage guard"). A program is named by the sha256 of its source text,
 * the export's `program` column, not by a row id: the mark holds for every recording of the
 * same function, in this corpus or after the traces are ingested again. The other benchmark
 * programs (traces recorded from a benchmark, CRUXEval evaluation sets) are read from the
 * corpus itself and never stored here.
 */
import type { Migration } from './types.js';

export const migration: Migration = {
  version: 12,
  name: 'benchmark-programs',
  up(db) {
    db.exec(`CREATE TABLE benchmark_programs (
      benchmark TEXT NOT NULL CHECK (length(benchmark) BETWEEN 1 AND 200),
      program   TEXT NOT NULL CHECK (length(program) = 64),
      added     TEXT NOT NULL,
      PRIMARY KEY (benchmark, program)
    ) WITHOUT ROWID`);
    db.exec('CREATE INDEX benchmark_programs_program ON benchmark_programs (program)');
  },
};
