/**
 * Annotations: taxonomy versions, labels on targets per annotator and role, their history
 * and, on a writable corpus, saving, suggestion statuses and undo, each call one transaction
 * committed when it returns. SQL: queries/annotations.ts.
 */
import {
  annotationHistory,
  annotationsOfPredictions,
  getAnnotation,
  getAnnotationByUid,
  insertTaxonomy,
  labelUsage,
  latestTaxonomy,
  listAnnotations,
  predictionRef,
  reviewQuota,
  saveAnnotation,
  setReviewQuota,
  setSuggestionStatus,
  undoLast,
  type AnnotationQuery,
  type AnnotationRecord,
  type AnnotationRole,
  type AnnotationStatus,
  type HistoryEntry,
  type NewAnnotation,
} from '../queries/annotations.js';
import type { CorpusClass } from './base.js';

export function AnnotationReads<B extends CorpusClass>(Base: B) {
  return class AnnotationReads extends Base {
    /** The newest stored taxonomy version (JSON), or undefined when none was stored yet. */
    latestTaxonomy(): { version: number; body: string } | undefined {
      return this.guard(() => latestTaxonomy(this.conn));
    }

    /** Active annotations per label id. */
    labelUsage(): Map<string, number> {
      return this.guard(() => labelUsage(this.conn));
    }

    getAnnotation(target: string, annotator: string, role: AnnotationRole = 'annotator'): AnnotationRecord | undefined {
      return this.guard(() => getAnnotation(this.conn, target, annotator, role));
    }

    getAnnotationByUid(uid: string): AnnotationRecord | undefined {
      return this.guard(() => getAnnotationByUid(this.conn, uid));
    }

    listAnnotations(q?: AnnotationQuery): AnnotationRecord[] {
      return this.guard(() => listAnnotations(this.conn, q));
    }

    annotationsOfPredictions(ids: readonly number[]): AnnotationRecord[] {
      return this.guard(() => annotationsOfPredictions(this.conn, ids));
    }

    /** Where a prediction belongs (set, run, item); undefined for an unknown id. */
    predictionRef(id: number): { setId: number; runId: number; itemId: number } | undefined {
      return this.guard(() => predictionRef(this.conn, id));
    }

    annotationHistory(q?: { annotation?: number; who?: string }): HistoryEntry[] {
      return this.guard(() => annotationHistory(this.conn, q));
    }

    /** How many people review each prediction of the run; undefined: no limit. */
    reviewQuota(runId: number): number | undefined {
      return this.guard(() => reviewQuota(this.conn, runId));
    }
  };
}

export function AnnotationWrites<B extends CorpusClass>(Base: B) {
  return class AnnotationWrites extends Base {
    /** Stores a taxonomy version (checked by the caller: src/annotate/taxonomy-diff.ts). */
    saveTaxonomy(version: number, name: string, body: string, author: string | null): void {
      this.assertWritable();
      this.guard(() => this.conn.transaction(() => insertTaxonomy(this.conn, version, name, body, author)).immediate());
    }

    /**
     * Runs `f` in one write transaction taken at its start (BEGIN IMMEDIATE), so what it reads is
     * still what is stored when it writes, whichever process writes next; the saves inside it
     * nest as savepoints.
     */
    atomically<T>(f: () => T): T {
      this.assertWritable();
      return this.guard(() => this.conn.transaction(f).immediate());
    }

    /** Creates or changes annotations (one transaction for all), each change recorded in the history as `who`'s. */
    saveAnnotations(
      list: readonly NewAnnotation[],
      who: string,
      op: 'create' | 'import' = 'create',
    ): AnnotationRecord[] {
      this.assertWritable();
      return this.guard(() =>
        this.conn.transaction(() => list.map((a) => saveAnnotation(this.conn, a, who, op))).immediate(),
      );
    }

    /**
     * Changes annotations and the status of rule suggestions in one transaction: what one
     * keystroke in the queue does. Returns the saved annotations.
     */
    saveAnnotationsWithStatus(
      list: readonly NewAnnotation[],
      statuses: readonly { id: number; status: AnnotationStatus }[],
      who: string,
    ): AnnotationRecord[] {
      this.assertWritable();
      return this.guard(() =>
        this.conn
          .transaction(() => {
            const saved = list.map((a) => saveAnnotation(this.conn, a, who));
            statuses.forEach((c) => setSuggestionStatus(this.conn, c.id, c.status));
            return saved;
          })
          .immediate(),
      );
    }

    /**
     * Sets how many people review each prediction of the run (null: no limit). From then on a
     * person's labels that would exceed it on a prediction are refused (saveAnnotations).
     */
    setReviewQuota(runId: number, reviews: number | null, author: string | null = null): void {
      this.assertWritable();
      this.guard(() => this.conn.transaction(() => setReviewQuota(this.conn, runId, reviews, author)).immediate());
    }

    /** Reverts `who`'s last change not yet undone; undefined when there is none. */
    undoAnnotation(who: string): AnnotationRecord | undefined {
      this.assertWritable();
      return this.guard(() => this.conn.transaction(() => undoLast(this.conn, who)).immediate());
    }
  };
}
