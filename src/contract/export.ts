/**
 * Curated export from the app (docs/export.md, "In the app"). These methods only read the
 * corpus (on a read-only connection of their own), so their access is `read`; what they
 * write is files: by default a folder named by `folder` (one plain name) inside
 * `stepscope-exports/` beside the corpus file, or the absolute `path` a person typed. The
 * handler refuses a path inside a hidden folder (`.ssh`, `.config` …, where other programs
 * read their settings) but beside the corpus, a folder that is not empty (an earlier export
 * with `force`), and a missing parent; what it writes is a new folder of fixed file names.
 */
import { EXPORT_FORMATS, EXPORT_KINDS } from '../semantics/export-select.js';
import { read } from './method.js';
import { arrayOf, bool, int, InvalidValue, object, oneOf, optional, str, type Validator } from './validate.js';

/** One folder name: letters, digits, `.`, `_` and `-`, not starting with a dot. */
export const exportFolder: Validator<string> = (v, p) => {
  const s = str(100)(v, p);
  if (!/^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(s))
    throw new InvalidValue(p, 'a folder name of letters, digits, ., _ and - (not starting with .)', s);
  return s;
};

/** An absolute folder path (the handler checks where it may be). */
export const exportPath: Validator<string> = (v, p) => {
  const s = str(4096)(v, p);
  if (!/^(\/|[A-Za-z]:[\\/])/.test(s) || s.includes('\0')) throw new InvalidValue(p, 'an absolute folder path', s);
  return s;
};

const plan = {
  kind: oneOf(EXPORT_KINDS),
  select: arrayOf(str(10_000), 100),
  split: optional(str(1000)),
  seed: optional(int(0)),
  allowOverlap: optional(bool),
  /** The splits the leakage guard protects (default: names starting with `train`). */
  trainSplits: optional(arrayOf(str(100), 20)),
};

/** Where the files go: a folder name inside the export folder, or an absolute path. */
const where = {
  folder: optional(exportFolder),
  path: optional(exportPath),
  force: optional(bool),
};

export const exportMethods = {
  previewExport: read(object({ ...plan, ...where })),
  startExport: read(
    object({
      ...plan,
      ...where,
      format: optional(oneOf(EXPORT_FORMATS)),
      shardRows: optional(int(1)),
    }),
  ),
  exportProgress: read(object({ job: int(1) })),
};

export interface ExportPreview {
  splits: { name: string; rows: number; programs: number }[];
  /** Left out of training splits by the leakage guard; `sets`: every benchmark the corpus knows. */
  excluded: { programs: number; rows: number; sets: string[] };
  rows: number;
  /** What the leakage guard does to these rows (docs/export.md, "The leakage guard"). */
  guard: {
    trainingSplits: string[];
    /** Every benchmark of the corpus, with its programs in the corpus. */
    known: ExportBenchmark[];
    /** The benchmarks of the selected rows' programs, with how many each holds. */
    benchmarks: ExportBenchmark[];
    /** Programs the training splits would hold without the guard. */
    trainingPrograms: number;
    /** Benchmark programs and rows kept in training splits (allowOverlap). */
    overlap: { programs: number; rows: number };
    /** Why Export would be refused (one sentence), or null. */
    refusal: string | null;
  };
  /** Where the files would go (when `folder` or `path` is given), and why they cannot, or null. */
  destination: { root: string; path: string | null; problem: string | null };
}

export interface ExportBenchmark {
  name: string;
  /** Known from traces recorded from it, from a CRUXEval evaluation set, or marked by a person. */
  from: 'traces' | 'evalset' | 'marked';
  programs: number;
}

export interface ExportJob {
  job: number;
  /** Where the export is written (inside the export folder). */
  path: string;
}

export interface ExportStatus {
  state: 'running' | 'done' | 'failed';
  done: number;
  total: number;
  path: string;
  /** When failed: what went wrong. */
  error?: string;
  /** When done: rows per split and the files written. */
  splits?: { name: string; rows: number; programs: number; files: number }[];
}

export interface ExportResults {
  previewExport: ExportPreview;
  startExport: ExportJob;
  exportProgress: ExportStatus;
}
