/**
 * `trace_skeletons` rows as bytes (format 2, src/store/queries/skeletons.ts): each row of
 * format 1 (the JSON wire form as text) rewritten as the bytes form, from the row itself (no
 * event is read). What the explorer fetches when it opens a trace is then the row as kept.
 */
import { bytesOfWire, SKELETON_FORMAT } from '../queries/skeletons.js';
import type { SkeletonWire } from '../../trace/skeleton.js';
import type { Migration } from './types.js';

export const migration: Migration = {
  version: 10,
  name: 'skeleton-bytes',
  up(db) {
    const ids = db
      .prepare('SELECT trace_id FROM trace_skeletons WHERE format = 1 ORDER BY trace_id')
      .pluck()
      .all() as number[];
    const read = db.prepare('SELECT packed FROM trace_skeletons WHERE trace_id = ?').pluck();
    const update = db.prepare('UPDATE trace_skeletons SET format = ?, packed = ? WHERE trace_id = ?');
    // One row at a time: a corpus of long traces is never held whole.
    for (const id of ids)
      update.run(SKELETON_FORMAT, bytesOfWire(JSON.parse(read.get(id) as string) as SkeletonWire), id);
  },
};
