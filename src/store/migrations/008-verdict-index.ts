/**
 * A covering index of the predictions' verdict columns, by run, item, then the verdicts: the
 * dashboard's per-item aggregates (src/store/queries/verdicts.ts) read a run's verdicts from
 * it alone, without touching the rows (which carry the completions), and count each item's
 * combinations of verdicts in index order. The generated columns
 * (`exec_pass`, `alt_pass`, `correct`) are computed from the statuses stored here.
 */
import type { Migration } from './types.js';

export const migration: Migration = {
  version: 8,
  name: 'verdict-index',
  up(db) {
    db.exec(`CREATE INDEX IF NOT EXISTS predictions_verdicts ON predictions(run_id, item_id,
      format_error, em_event, em_src, em_locals, em_arg, em_all, exec_status, alt_status, sample)`);
  },
};
