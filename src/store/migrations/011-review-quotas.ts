/**
 * review_quotas: how many people review each prediction of a run (docs/annotation.md, "Reviews
 * per item"). One row per run (a run belongs to one set); no row means no limit. The store
 * refuses a person's annotation that would make an item's reviewers more than `reviews`
 * (src/store/queries/annotations.ts), and the queue leaves such items out for everyone else.
 * No foreign key, as for the annotations: deleting a run leaves its setting behind, harmless.
 */
import type { Migration } from './types.js';

export const migration: Migration = {
  version: 11,
  name: 'review-quotas',
  up(db) {
    db.exec(`CREATE TABLE review_quotas (
      run_id   INTEGER PRIMARY KEY,
      reviews  INTEGER NOT NULL CHECK (reviews BETWEEN 1 AND 99),
      author   TEXT,
      updated  TEXT NOT NULL
    )`);
  },
};
