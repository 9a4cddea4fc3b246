/**
 * Sampled trajectories of a trace: pages of them, one by id, all of them one at a time and,
 * on a writable corpus, storing new ones in one transaction (a sample key stored before is
 * skipped). SQL: queries/trajectories.ts.
 */
import {
  getTrajectory,
  insertTrajectories,
  iterateTrajectories,
  listTrajectories,
  trajectoryTexts,
  type NewTrajectory,
  type StoredTrajectory,
} from '../queries/trajectories.js';
import type { CorpusClass } from './base.js';

export function TrajectoryReads<B extends CorpusClass>(Base: B) {
  return class TrajectoryReads extends Base {
    /** One page of a trace's trajectories, in id order. */
    listTrajectories(traceId: number, offset = 0, limit = 100): { total: number; rows: StoredTrajectory[] } {
      return this.guard(() => listTrajectories(this.conn, traceId, offset, limit));
    }

    getTrajectory(id: number): StoredTrajectory | undefined {
      return this.guard(() => getTrajectory(this.conn, id));
    }

    /** Trajectories in id order, optionally of one trace, one at a time. */
    iterateTrajectories(traceId?: number): Generator<StoredTrajectory> {
      return iterateTrajectories(this.conn, traceId);
    }

    /** Every stored trajectory's serialized text, one at a time. */
    trajectoryTexts(): IterableIterator<string> {
      return this.guard(() => trajectoryTexts(this.conn));
    }
  };
}

export function TrajectoryWrites<B extends CorpusClass>(Base: B) {
  return class TrajectoryWrites extends Base {
    /** Stores trajectories in one transaction; per item its new id, or null when its sample key was stored before. */
    saveTrajectories(items: Iterable<NewTrajectory>): (number | null)[] {
      this.assertWritable();
      return this.guard(() => this.conn.transaction(() => insertTrajectories(this.conn, items)).immediate());
    }
  };
}
