/**
 * Curated export from the app (docs/export.md, "In the app"). These methods only read the
 * corpus (on a read-only connection of their own), so their access is `read`; what they
 * write is files, and only into one folder: `stepscope-exports/` beside the corpus file.
 * The app names a folder inside it (`folder`, one plain name), never a path, so a web page
 * cannot make the server write anywhere else.
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

const plan = {
  kind: oneOf(EXPORT_KINDS),
  select: arrayOf(str(10_000), 100),
  split: optional(str(1000)),
  seed: optional(int(0)),
  allowOverlap: optional(bool),
};

export const exportMethods = {
  previewExport: read(object(plan)),
  startExport: read(
    object({
      ...plan,
      format: optional(oneOf(EXPORT_FORMATS)),
      shardRows: optional(int(1)),
      folder: exportFolder,
      force: optional(bool),
    }),
  ),
  exportProgress: read(object({ job: int(1) })),
};

export interface ExportPreview {
  splits: { name: string; rows: number; programs: number }[];
  /** Left out of training splits by the leakage guard. */
  excluded: { programs: number; rows: number; sets: string[] };
  rows: number;
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
