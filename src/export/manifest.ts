/**
 * `stepscope-export.json`: what an export holds and how it was made (docs/export.md lists
 * every key), so a training run can cite exactly which corpus, filter and seed it used.
 */
import type { BenchmarkInfo } from './benchmarks.js';
import type { Plan } from './plan.js';

export const MANIFEST = 'stepscope-export.json';

export interface Manifest {
  stepscope_version: string;
  created: string;
  corpus: { file: string; sha256: string; schema_version: number };
  kind: string;
  format: string;
  filter: string[];
  split: string;
  seed: number;
  shard_rows: number;
  allow_overlap: boolean;
  rows: number;
  programs: number;
  splits: Record<
    string,
    {
      rows: number;
      programs: number;
      files: string[];
      labels: Record<string, number>;
      /** The sha256 of each program's source in the split, sorted: `evalset create --from-export` reads it. */
      program_hashes: string[];
      /** The names of the traces whose rows are in the split, sorted. */
      trace_names: string[];
    }
  >;
  /** The splits the leakage guard protected. */
  train_splits: string[];
  /** The benchmarks of the selected rows' programs, each with how many of those programs it holds. */
  benchmarks: BenchmarkInfo[];
  /** The selected rows' programs that belong to some benchmark (before the guard). */
  benchmark_programs: number;
  excluded_programs: number;
  excluded_rows: number;
  /** Every benchmark of the corpus the guard protected against (empty with allow_overlap). */
  excluded_sets: string[];
  /** With allow_overlap: the benchmark programs and rows in training splits. */
  overlap_programs: number;
  overlap_rows: number;
  /**
   * The exported traces that are counterfactuals (docs/semantics.md §13), by trace id: the trace each was recorded
   * from, the edited event and the locals set there. Absent when the export has none.
   */
  counterfactuals?: { trace: number; origin: number; seq: number; set: Record<string, string> }[];
}

/** What one split's rows hold, gathered as they are written. */
export interface SplitHolds {
  programs: Set<string>;
  traces: Set<string>;
  /** The ids of those traces. */
  ids: Set<number>;
}

export function manifest(
  plan: Plan,
  w: {
    format: string;
    shardRows: number;
    labels: Record<string, number>[];
    held: SplitHolds[];
    version: string;
    corpusFile: string;
    corpusSha256: string;
    schemaVersion: number;
    files: string[][];
    counterfactuals?: Manifest['counterfactuals'];
  },
): Manifest {
  const o = plan.options;
  const splits: Manifest['splits'] = {};
  plan.splits.forEach((s, k) => {
    splits[s.name] = {
      rows: s.rows,
      programs: s.programs,
      files: w.files[k],
      labels: sorted(w.labels[k]),
      program_hashes: [...w.held[k].programs].sort(),
      trace_names: [...w.held[k].traces].sort(),
    };
  });
  return {
    stepscope_version: w.version,
    created: new Date().toISOString(),
    corpus: { file: w.corpusFile, sha256: w.corpusSha256, schema_version: w.schemaVersion },
    kind: o.kind,
    format: w.format,
    filter: o.select,
    split: o.split,
    seed: o.seed,
    shard_rows: w.shardRows,
    allow_overlap: o.allowOverlap,
    rows: plan.splits.reduce((a, s) => a + s.rows, 0),
    programs: plan.splits.reduce((a, s) => a + s.programs, 0),
    splits,
    train_splits: plan.guard.trainingSplits,
    benchmarks: plan.guard.benchmarks,
    benchmark_programs: plan.guard.benchmarkPrograms,
    excluded_programs: plan.excluded.programs,
    excluded_rows: plan.excluded.rows,
    excluded_sets: o.allowOverlap ? [] : plan.excluded.sets,
    overlap_programs: plan.guard.overlap.programs,
    overlap_rows: plan.guard.overlap.rows,
    ...(w.counterfactuals?.length && { counterfactuals: w.counterfactuals }),
  };
}

const sorted = (o: Record<string, number>) =>
  Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
