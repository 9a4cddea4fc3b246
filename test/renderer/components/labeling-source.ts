/**
 * A fake data source for the labeling queue's state (renderer/src/state/labeling.svelte.ts):
 * one annotator's queue over a few predictions held in memory, filtered by pre-label and by
 * "labeled", with annotate, skip and undo. Params are checked with the contract's validators, as the
 * server would. Calls can be held back (`hold`) so a test decides in which order answers land;
 * an answer is computed when it is released (as a slow server reads the corpus late).
 */
import { DEFAULT_TAXONOMY } from '../../../src/annotate/default-taxonomy.js';
import type { AnnotationInfo, AnnotationItem, Method, Params, Queue } from '../../../src/contract/index.js';
import { ApiCallError } from '../../../renderer/src/lib/source.js';
import { HeldSource } from './held-source.js';

export interface FakeEntry {
  prediction: number;
  key: string;
  prelabels: string[];
}

export class LabelingSource extends HeldSource {
  /** The annotator's labels and notes per prediction, and their changes in order (for undo). */
  readonly labels = new Map<number, string[]>();
  readonly notes = new Map<number, string>();
  readonly changes: { prediction: number; before: string[] | undefined; note?: string | undefined }[] = [];
  /** The annotate calls answered, in order: the fields each carried. */
  readonly writes: { prediction: number; labels?: string[]; note?: string }[] = [];
  /** The predictions skipped, in the order the skips were answered (one entry per skip). */
  readonly skips: number[] = [];

  constructor(readonly entries: FakeEntry[]) {
    super();
  }

  #info(prediction: number, labels: string[]): AnnotationInfo {
    const note = this.notes.get(prediction) ?? null;
    const target = `prediction:${prediction}`;
    return { id: prediction, target, prediction, labels, note, annotator: 'flo' } as unknown as AnnotationInfo;
  }

  protected answer(method: Method, p: unknown): unknown {
    switch (method) {
      case 'getTaxonomy':
        return DEFAULT_TAXONOMY;
      case 'annotationQueue': {
        const q = p as Params<'annotationQueue'>;
        const entries = this.entries
          .filter(
            (e) =>
              (!q.prelabel || e.prelabels.includes(q.prelabel)) &&
              (q.labeled !== 'no' || !this.labels.has(e.prediction)),
          )
          .map((e, i) => ({
            prediction: e.prediction,
            item: i + 1,
            key: e.key,
            action: 'step_into',
            sample: 0,
            annotators: [],
            mine: this.labels.has(e.prediction) ? ('labeled' as const) : null,
            prelabels: e.prelabels,
          }));
        const done = entries.filter((e) => e.mine).length;
        const first = entries.findIndex((e) => !e.mine);
        const queue: Queue = {
          entries,
          done,
          position: first < 0 ? entries.length : first,
          counts: {},
          reviews: null,
          progress: [],
          facets: { actions: ['step_into'], annotators: [], prelabels: ['a', 'b'] },
        };
        return queue;
      }
      case 'getAnnotationItem': {
        const { prediction } = p as Params<'getAnnotationItem'>;
        const e = this.entries.find((x) => x.prediction === prediction);
        if (!e) throw new ApiCallError(`no prediction ${prediction}`, 'not-found');
        const mine = this.labels.get(prediction) ?? (this.notes.has(prediction) ? [] : undefined);
        return {
          item: { key: e.key },
          prediction: { prediction },
          prelabels: e.prelabels.map((label, i) => ({
            id: i + 1,
            label,
            rule: 'fake',
            reason: null,
            status: 'suggested',
          })),
          mine: mine ? this.#info(prediction, mine) : null,
          annotators: [],
        } as unknown as AnnotationItem;
      }
      case 'annotate': {
        const q = p as Params<'annotate'>;
        const prediction = q.target.prediction!;
        // As the store: only the fields given change.
        const note = q.note !== undefined && { note: q.note };
        this.writes.push({ prediction, ...(q.labels && { labels: q.labels }), ...note });
        this.changes.push({ prediction, before: this.labels.get(prediction), note: this.notes.get(prediction) });
        const labels = q.labels ?? this.labels.get(prediction) ?? [];
        this.labels.set(prediction, labels);
        if (q.note !== undefined) this.notes.set(prediction, q.note);
        return this.#info(prediction, labels);
      }
      case 'skipAnnotation': {
        const prediction = (p as Params<'skipAnnotation'>).target.prediction!;
        this.skips.push(prediction);
        return this.#info(prediction, []);
      }
      case 'undoAnnotation': {
        const last = this.changes.pop();
        if (!last) return { undone: null };
        if (last.before) this.labels.set(last.prediction, last.before);
        else this.labels.delete(last.prediction);
        if (last.note === undefined) this.notes.delete(last.prediction);
        else this.notes.set(last.prediction, last.note);
        return { undone: this.#info(last.prediction, last.before ?? []) };
      }
    }
    throw new Error(`the fake labeling source does not answer ${method}`);
  }
}
