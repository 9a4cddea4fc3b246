/**
 * The annotation domain of the API (docs/annotation.md): the taxonomy, the labeling queue and
 * its items, setting labels (each call committed at once, recorded in the history), skip,
 * undo, adjudication, the annotations themselves and the agreement between annotators.
 * Write methods need a writable corpus; the transports route them (accessOf).
 */
import type {
  AgreementReport,
  Annotation,
  AnnotationChange,
  Confusion,
  FieldDiff,
  RuleAgreement,
  Taxonomy,
} from '../annotate/index.js';
import { FIELDS, type Field, type Prediction } from '../semantics/index.js';
import { write, read } from './method.js';
import { recordName } from './predictions.js';
import { recordId } from './traces.js';
import { arrayOf, bool, int, InvalidValue, object, oneOf, optional, str, type Validator } from './validate.js';
import type { ItemRow, PredictionDetail } from './predictions.js';

/** An annotator's name as the app and the CLI take it: 1–80 characters, not starting with `rule:`. */
export const annotatorName: Validator<string> = (v, p) => {
  const s = str(80)(v, p);
  if (s.trim() === '' || s !== s.trim())
    throw new InvalidValue(p, 'an annotator name (1-80 characters, no leading or trailing spaces)', s);
  if (s.startsWith('rule:'))
    throw new InvalidValue(p, 'a person\'s name (names starting with "rule:" are the pre-label rules\')', s);
  return s;
};

/** What an annotation is about: `{prediction}` or `{trace, seq[, action]}` (checked whole by targetKey). */
export const annotationTarget = object({
  prediction: optional(recordId),
  /** With prediction: a rollout's step (1 …). */
  step: optional(int(1, 100_000)),
  trace: optional(recordId),
  seq: optional(int(0)),
  action: optional(str(300)),
});

const labelList = arrayOf(str(120), 50);

/** Reviews per item: 1–99, or null for no limit. */
const reviewCount: Validator<number | null> = (v, p) => (v === null ? null : int(1, 99)(v, p));

export const LABELED = ['any', 'yes', 'no'] as const;

/** The queue's filter (docs/annotation.md, "The queue"). */
export const queueFilter = {
  set: recordName,
  run: recordName,
  annotator: annotatorName,
  /** Last action's kind (`step_over` …). */
  action: optional(str(40)),
  /** Only predictions wrong on every one of these fields. */
  wrong: optional(arrayOf(oneOf(FIELDS), 4)),
  /** true: format errors only; false: no format errors. */
  formatError: optional(bool),
  /** Only failures (the default), or every prediction. */
  failed: optional(bool),
  /** Labeled by anyone: yes, no, or either (default). */
  labeled: optional(oneOf(LABELED)),
  /** Only predictions this annotator labeled. */
  by: optional(str(80)),
  /** Only predictions with this pre-label suggested. */
  prelabel: optional(str(120)),
  /** Hand each item to at most m annotators: leave out items m others have labeled already. */
  need: optional(int(1, 9)),
  /** On a rollout set: entries at each rollout's first divergence (default), or whole rollouts. */
  at: optional(oneOf(['first-divergence', 'prediction'] as const)),
};

export const annotationMethods = {
  getTaxonomy: read(object({})),
  setTaxonomy: write(object({ taxonomy: (v: unknown) => v, author: annotatorName })),
  annotationQueue: read(object(queueFilter)),
  getAnnotationItem: read(object({ prediction: recordId, annotator: annotatorName })),
  // Only the fields given change (labels, note or both): a note never writes the labels back.
  annotate: write(
    object({
      target: annotationTarget,
      labels: optional(labelList),
      note: optional(str(10_000)),
      annotator: annotatorName,
    }),
  ),
  skipAnnotation: write(object({ target: annotationTarget, annotator: annotatorName })),
  undoAnnotation: write(object({ annotator: annotatorName })),
  adjudicate: write(object({ target: annotationTarget, labels: labelList, annotator: annotatorName })),
  /** A run's reviews per item: how many people label each prediction (null: no limit). */
  getReviewQuota: read(object({ set: recordName, run: recordName })),
  setReviewQuota: write(object({ set: recordName, run: recordName, reviews: reviewCount, author: annotatorName })),
  listAnnotations: read(object({ set: optional(recordName), run: optional(recordName), annotator: optional(str(80)) })),
  annotationHistory: read(object({ target: optional(annotationTarget), annotator: optional(str(80)) })),
  getAgreement: read(
    object({
      set: optional(recordName),
      run: optional(recordName),
      view: optional(oneOf(['set', 'primary'] as const)),
    }),
  ),
};

/** An annotation as the API shows it (src/annotate/record.ts; `active` is implied: undone ones are not listed). */
export type AnnotationInfo = Omit<Annotation, 'active'> & { id: number };

export interface QueueEntry {
  prediction: number;
  /**
   * A rollout's step the entry is about (its first divergence), or null for the whole prediction. The queue always
   * sets it and `target`; optional so that an entry built elsewhere (a view's own list) need not.
   */
  step?: number | null;
  /** The annotation target to label: `prediction:ID`, or `prediction:ID/step:N` on a rollout. */
  target?: string;
  item: number;
  key: string;
  action: string;
  sample: number;
  /** People who labeled it. */
  annotators: string[];
  /** This annotator's state: labeled, skipped, or not yet. */
  mine: 'labeled' | 'skipped' | null;
  /** Label ids the rules suggested. */
  prelabels: string[];
}

export interface Queue {
  /** In the set's item order, then by sample. */
  entries: QueueEntry[];
  /** Entries this annotator labeled or skipped. */
  done: number;
  /** Where to resume: the first entry not done (entries.length when all are). */
  position: number;
  /** Per label id, this annotator's labels in the queue. */
  counts: Record<string, number>;
  /** The run's reviews per item (the corpus's setting, setReviewQuota); null: no limit. */
  reviews: number | null;
  /** Per person who labeled or skipped entries listed: how many (most first); `entries.length` is the total. */
  progress: { annotator: string; done: number }[];
  /**
   * What the filters can choose from: over the run's predictions (its failures unless `failed` is false) before the
   * other filters.
   */
  facets: { actions: string[]; annotators: string[]; prelabels: string[] };
}

export interface PrelabelInfo {
  /** The rule's annotation id. */
  id: number;
  label: string;
  rule: string;
  reason: string | null;
  status: 'suggested' | 'accepted' | 'rejected' | null;
}

export interface AnnotationItem {
  item: ItemRow & { prompt: string; target: string };
  prediction: PredictionDetail;
  /** The program (the trace's forward context), for the code view. */
  code: string;
  /** The prediction read into a state (CRUXEval's value and call forms too); null when it cannot be read. */
  predicted: Prediction | null;
  truth: Prediction;
  /** null when the prediction cannot be read. */
  diff: FieldDiff | null;
  /** Fields that were wrong, by exact match (or by execution for CRUXEval's texts). */
  wrong: Field[];
  prelabels: PrelabelInfo[];
  /** This annotator's annotation, if any. */
  mine: AnnotationInfo | null;
  /** Everyone who labeled it. */
  annotators: string[];
}

/**
 * What an adjudicator reads to settle a disagreement on a prediction: where it is (set, run,
 * item, sample: what a link to the item names), the program, and the prediction against the truth.
 */
export interface DisagreementContext {
  prediction: number;
  set: string;
  run: string;
  /** The evaluation item (a deep link's `item`), its key and the prediction's sample. */
  item: number;
  key: string;
  sample: number;
  traceId: number;
  /** The program (the trace's forward context); its lines are marked by `predicted.src` and `truth.src`. */
  code: string;
  /** As in AnnotationItem: the completion read into a state, null when it cannot be read. */
  predicted: Prediction | null;
  truth: Prediction;
  wrong: Field[];
  completion: string;
}

export interface DisagreementInfo {
  target: string;
  labels: Record<string, readonly string[]>;
  /** annotator → note, for the annotators of `labels` who wrote one. */
  notes: Record<string, string>;
  /** The prediction's context; null for a state or transition target. */
  context: DisagreementContext | null;
  /** What an adjudicator set, if anyone did. */
  final: { annotator: string; labels: string[] } | null;
}

export interface AgreementInfo extends AgreementReport {
  /** The confusion table of each pair, in `pairs` order. */
  confusion: (Confusion & { a: string; b: string })[];
  disagreements: DisagreementInfo[];
  /** Pre-label rules against people's labels: precision per rule and overall. */
  rules: RuleAgreement;
}

/** A change of the history with its annotation's target. */
export type HistoryInfo = AnnotationChange & { target: string };

export interface AnnotationResults {
  getTaxonomy: Taxonomy;
  setTaxonomy: Taxonomy;
  annotationQueue: Queue;
  getAnnotationItem: AnnotationItem;
  annotate: AnnotationInfo;
  skipAnnotation: AnnotationInfo;
  undoAnnotation: { undone: AnnotationInfo | null };
  adjudicate: AnnotationInfo;
  getReviewQuota: ReviewQuota;
  setReviewQuota: ReviewQuota;
  listAnnotations: { counts: Record<string, number>; rows: AnnotationInfo[] };
  annotationHistory: HistoryInfo[];
  getAgreement: AgreementInfo;
}

export interface ReviewQuota {
  set: string;
  run: string;
  /** null: no limit. */
  reviews: number | null;
}
