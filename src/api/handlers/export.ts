/**
 * Export from the app: a preview of the plan (with the leakage guard's counts and where the
 * files would go), and an export that runs in the background (polled with exportProgress for
 * its progress bar; jobs are held by export-jobs.ts, on the pool's job worker). Files go into
 * a folder named inside the export folder beside the corpus, or an absolute path a person
 * typed, within the limits of `destination` (src/contract/export.ts says why).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { checkOutput, exportDataset, previewExport } from '../../export/run.js';
import { UserError } from '../../common/errors.js';
import type { ReadCorpus } from '../../store/corpus.js';
import type { Api, ExportPreview, ExportStatus } from '../../contract/index.js';
import { createJob, readJob } from './export-jobs.js';

export const EXPORT_DIR = 'stepscope-exports';

/** The folder the app exports into by default: `stepscope-exports/` beside the corpus file. */
export const exportRoot = (corpusPath: string) => join(dirname(resolve(corpusPath)), EXPORT_DIR);

/**
 * Where an export asked for by `folder` (a name in the export folder) or `path` (absolute)
 * goes, and why it cannot (null when it can). A path may not lie inside a hidden folder
 * (one whose name starts with a dot: `.ssh`, `.config`, where programs read their settings)
 * unless it is beside the corpus; its parent must exist; and the folder must be absent or
 * empty, or hold an earlier export when `force`.
 */
export function destination(
  corpusPath: string,
  w: { folder?: string; path?: string; force?: boolean },
): ExportPreview['destination'] {
  const root = exportRoot(corpusPath);
  if (w.folder !== undefined && w.path !== undefined)
    return { root, path: null, problem: 'give a folder name or a path, not both' };
  if (w.path === undefined && w.folder === undefined) return { root, path: null, problem: null };
  const path = w.path !== undefined ? resolve(w.path) : join(root, w.folder!);
  const problem = (): string | null => {
    if (w.path !== undefined) {
      if (!isAbsolute(w.path)) return 'expected an absolute path';
      const home = dirname(resolve(corpusPath));
      const inside = relative(home, path);
      const besideCorpus = inside !== '' && !inside.startsWith('..') && !isAbsolute(inside);
      if (!besideCorpus && path.split(sep).some((part) => part.startsWith('.')))
        return `${path} is inside a hidden folder, where programs keep their settings: choose another folder`;
      if (!existsSync(dirname(path))) return `the folder ${dirname(path)} does not exist`;
    }
    try {
      checkOutput(path, w.force ?? false);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      // The CLI's wording names --force; the dialog's switch is "replace an earlier export".
      return e.message.replace('give --force to replace', 'tick "replace an earlier export" to replace');
    }
    return null;
  };
  return { root, path, problem: problem() };
}

export function exportHandlers(corpus: ReadCorpus): Pick<Api, 'previewExport' | 'startExport' | 'exportProgress'> {
  return {
    previewExport({ folder, path, force, ...opts }) {
      const plan = previewExport(corpus.path, opts);
      const g = plan.guard;
      return {
        splits: plan.splits.map((s) => ({ name: s.name, rows: s.rows, programs: s.programs })),
        excluded: plan.excluded,
        rows: plan.splits.reduce((a, s) => a + s.rows, 0),
        guard: {
          trainingSplits: g.trainingSplits,
          known: g.known,
          benchmarks: g.benchmarks,
          trainingPrograms: g.trainingPrograms,
          overlap: g.overlap,
          refusal: g.refusal,
        },
        destination: destination(corpus.path, { folder, path, force }),
      };
    },
    startExport({ folder, path: given, ...opts }) {
      const where = destination(corpus.path, { folder, path: given, force: opts.force });
      if (!where.path) throw new UserError('startExport: give a folder name or a path', 'bad-input');
      // A wrong filter, a folder in use or a refusal of the guard is refused now, not in the background.
      if (where.problem) throw new UserError(where.problem, 'bad-input');
      const plan = previewExport(corpus.path, opts);
      if (plan.guard.refusal) throw new UserError(plan.guard.refusal, 'bad-input');
      if (given === undefined) mkdirSync(where.root, { recursive: true });
      const path = where.path;
      const status: ExportStatus = { state: 'running', done: 0, total: 0, path };
      const { job, write } = createJob(status);
      exportDataset(corpus.path, path, {
        ...opts,
        onProgress: (done, total) => write({ ...status, done, total }),
      }).then(
        (m) =>
          write({
            ...status,
            state: 'done',
            done: m.rows,
            total: m.rows,
            splits: Object.entries(m.splits).map(([name, s]) => ({
              name,
              rows: s.rows,
              programs: s.programs,
              files: s.files.length,
            })),
          }),
        (e: unknown) =>
          write({
            ...status,
            state: 'failed',
            error: e instanceof UserError ? e.message : `internal error: ${(e as Error).message}`,
          }),
      );
      return { job, path };
    },
    exportProgress({ job }) {
      return readJob(job);
    },
  };
}
