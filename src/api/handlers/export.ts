/**
 * Export from the app: a preview of the plan, and an export that runs in the background
 * (polled with exportProgress for its progress bar; jobs are held by export-jobs.ts, on the
 * pool's job worker). Files go only into the export
 * folder beside the corpus (src/contract/export.ts says why).
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { checkOutput, exportDataset, previewExport } from '../../export/run.js';
import { UserError } from '../../common/errors.js';
import type { ReadCorpus } from '../../store/corpus.js';
import type { Api, ExportStatus } from '../../contract/index.js';
import { createJob, readJob } from './export-jobs.js';

export const EXPORT_DIR = 'stepscope-exports';

/** The folder the app exports into: `stepscope-exports/` beside the corpus file. */
export const exportRoot = (corpusPath: string) => join(dirname(corpusPath), EXPORT_DIR);

export function exportHandlers(corpus: ReadCorpus): Pick<Api, 'previewExport' | 'startExport' | 'exportProgress'> {
  return {
    previewExport(p) {
      const plan = previewExport(corpus.path, p);
      return {
        splits: plan.splits.map((s) => ({ name: s.name, rows: s.rows, programs: s.programs })),
        excluded: plan.excluded.programs ? plan.excluded : { programs: 0, rows: 0, sets: [] },
        rows: plan.splits.reduce((a, s) => a + s.rows, 0),
      };
    },
    startExport({ folder, ...opts }) {
      const root = exportRoot(corpus.path);
      mkdirSync(root, { recursive: true });
      const path = join(root, folder);
      // A wrong filter or a folder in use is refused now, not in the background.
      checkOutput(path, opts.force ?? false);
      previewExport(corpus.path, opts);
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
