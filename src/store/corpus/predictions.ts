/**
 * Evaluation sets, their items, runs and the runs' predictions with their verdicts; on a
 * writable corpus each write is one transaction (a run is stored with all its predictions or
 * not at all). SQL: queries/evalsets.ts, queries/runs.ts, queries/predictions.ts,
 * queries/verdicts.ts.
 */
import {
  countItems,
  deleteEvalSet,
  getEvalSet,
  getItem,
  insertEvalSet,
  itemIds,
  itemTruths,
  iterateItems,
  listEvalSets,
  rolloutTargets,
  type EvalSetRecord,
  type ItemQuery,
  type ItemTruth,
  type NewItem,
  type RolloutTarget,
  type StoredItem,
} from '../queries/evalsets.js';
import {
  answeredItems,
  checkedPredictions,
  countPredictions,
  insertPredictions,
  iteratePredictions,
  pendingChecks,
  setVerdicts,
  verdictRows,
  type CheckedPrediction,
  type NewPrediction,
  type PendingCheck,
  type PredictionQuery,
  type PredictionRecord,
  type VerdictRow,
  type VerdictUpdate,
} from '../queries/predictions.js';
import { deleteRun, getRun, getRunById, insertRun, listRuns, type NewRun, type RunRecord } from '../queries/runs.js';
import { rolloutStepsOfRun, type RolloutStepRecord } from '../queries/rollouts.js';
import { itemVerdicts, type ItemVerdicts } from '../queries/verdicts.js';
import type { CorpusClass } from './base.js';

export function PredictionReads<B extends CorpusClass>(Base: B) {
  return class PredictionReads extends Base {
    getEvalSet(name: string): EvalSetRecord | undefined {
      return this.guard(() => getEvalSet(this.conn, name));
    }

    listEvalSets(): EvalSetRecord[] {
      return this.guard(() => listEvalSets(this.conn));
    }

    /** Items of a set in order (optionally over one trace, one page), one at a time. */
    iterateItems(setId: number, q?: ItemQuery): Generator<StoredItem> {
      return iterateItems(this.conn, setId, q);
    }

    countItems(setId: number, traceId?: number): number {
      return this.guard(() => countItems(this.conn, setId, traceId));
    }

    getItem(id: number): StoredItem | undefined {
      return this.guard(() => getItem(this.conn, id));
    }

    /** The ids and keys of a set's items, to resolve what a predictions file names. */
    itemIds(setId: number): { byId: Set<number>; byKey: Map<string, number> } {
      return this.guard(() => itemIds(this.conn, setId));
    }

    /** The true steps of rollout items, by item id (items that are not a rollout's are absent). */
    rolloutTargets(itemIds: readonly number[]): Map<number, RolloutTarget[]> {
      return this.guard(() => rolloutTargets(this.conn, itemIds));
    }

    /** The predicted steps of each rollout prediction of a run, by prediction id. */
    rolloutStepsOfRun(runId: number): Map<number, RolloutStepRecord[]> {
      return this.guard(() => rolloutStepsOfRun(this.conn, runId));
    }

    /** A set's items with only what scoring needs (no prompts), in order. */
    itemTruths(setId: number): ItemTruth[] {
      return this.guard(() => itemTruths(this.conn, setId));
    }

    getRun(setId: number, label: string): RunRecord | undefined {
      return this.guard(() => getRun(this.conn, setId, label));
    }

    getRunById(id: number): RunRecord | undefined {
      return this.guard(() => getRunById(this.conn, id));
    }

    /** Runs in id order, of one set or of all. */
    listRuns(setId?: number): RunRecord[] {
      return this.guard(() => listRuns(this.conn, setId));
    }

    /** Ids of the items the run has answered (for resuming). */
    answeredItems(runId: number): Set<number> {
      return this.guard(() => answeredItems(this.conn, runId));
    }

    pendingChecks(runId: number): PendingCheck[] {
      return this.guard(() => pendingChecks(this.conn, runId));
    }

    /** Predictions of a run whose checks were made, with their statuses (seed checks). */
    checkedPredictions(runId: number): CheckedPrediction[] {
      return this.guard(() => checkedPredictions(this.conn, runId));
    }

    iteratePredictions(q: PredictionQuery): Generator<PredictionRecord> {
      return iteratePredictions(this.conn, q);
    }

    countPredictions(q: PredictionQuery): number {
      return this.guard(() => countPredictions(this.conn, q));
    }

    /** One row per prediction of a run, what scores are computed from. */
    verdictRows(runId: number): VerdictRow[] {
      return this.guard(() => verdictRows(this.conn, runId));
    }

    /** A run's verdicts summed per item, in item order (what the dashboard scores from). */
    itemVerdicts(runId: number): ItemVerdicts[] {
      return this.guard(() => itemVerdicts(this.conn, runId));
    }
  };
}

export function PredictionWrites<B extends CorpusClass>(Base: B) {
  return class PredictionWrites extends Base {
    /** Stores a set and its items in one transaction. */
    createEvalSet(
      name: string,
      task: EvalSetRecord['task'],
      options: unknown,
      items: readonly NewItem[],
    ): EvalSetRecord {
      this.assertWritable();
      return this.guard(() =>
        this.conn.transaction(() => insertEvalSet(this.conn, name, task, options, items)).immediate(),
      );
    }

    /** Deletes a set with its items, runs and predictions. */
    deleteEvalSet(id: number): void {
      this.assertWritable();
      this.guard(() => deleteEvalSet(this.conn, id));
    }

    /**
     * Stores a run and its predictions in one transaction (all or nothing); `replace` names a
     * run deleted in the same transaction. Returns the new run's id.
     */
    saveRun(run: NewRun, predictions: Iterable<NewPrediction>, replace?: number): number {
      this.assertWritable();
      return this.guard(() =>
        this.conn
          .transaction(() => {
            if (replace !== undefined) deleteRun(this.conn, replace);
            const id = insertRun(this.conn, run);
            insertPredictions(this.conn, id, predictions);
            return id;
          })
          .immediate(),
      );
    }

    /** Adds predictions to a run in one transaction (one item's samples, as they arrive). */
    addPredictions(runId: number, predictions: Iterable<NewPrediction>): number {
      this.assertWritable();
      return this.guard(() =>
        this.conn.transaction(() => insertPredictions(this.conn, runId, predictions)).immediate(),
      );
    }

    /** Deletes a run and its predictions, nothing else. */
    deleteRun(id: number): void {
      this.assertWritable();
      this.guard(() => deleteRun(this.conn, id));
    }

    /** Sets execution verdicts in one transaction. */
    setVerdicts(updates: Iterable<VerdictUpdate>): void {
      this.assertWritable();
      this.guard(() => this.conn.transaction(() => setVerdicts(this.conn, updates)).immediate());
    }
  };
}
