/**
 * A person's changes: set the labels or the note of a target, skip it, undo the last change,
 * adjudicate.
 * Labels are resolved against the corpus's taxonomy first (an unknown one is a one-line error
 * and nothing is written); each call is one transaction, committed when it returns, and one
 * entry of the history. The status of the rules' suggestions on a prediction follows the
 * labels of the person who last changed them: accepted when given, rejected when not.
 */
import { resolveLabels, type AnnotationTarget } from '../annotate/index.js';
import { UserError } from '../common/errors.js';
import type { AnnotationRecord, AnnotationRole, AnnotationStatus, Corpus, NewAnnotation } from '../store/corpus.js';
import { resolveTarget, type TargetColumns } from './target.js';
import { storedTaxonomy } from './taxonomy.js';

/**
 * A change carries only the fields it changes: what it leaves undefined keeps what is stored, so
 * a note typed while a label is being saved never writes the labels back as they were (and the
 * reverse). Applied to the annotation as stored when the write runs, in the order the writes come.
 */
export interface LabelChange {
  target: AnnotationTarget;
  /** undefined keeps the labels there are. */
  labels?: readonly string[];
  /** undefined keeps the note there is; '' removes it. */
  note?: string;
  annotator: string;
  role?: AnnotationRole;
}

function statusesFor(
  corpus: Corpus,
  target: TargetColumns,
  labels: readonly string[] | null,
): { id: number; status: AnnotationStatus }[] {
  // The rules suggest labels for a whole prediction: a label on one rollout step does not accept or reject them.
  if (target.prediction === null || target.target !== `prediction:${target.prediction}`) return [];
  return corpus
    .annotationsOfPredictions([target.prediction])
    .filter((a) => a.source === 'rule')
    .map((a) => ({
      id: a.id,
      status: labels === null ? 'suggested' : labels.includes(a.labels[0]) ? 'accepted' : 'rejected',
    }));
}

function person(
  corpus: Corpus,
  target: TargetColumns,
  annotator: string,
  role: AnnotationRole,
  fields: Partial<NewAnnotation>,
): NewAnnotation {
  const taxonomy = storedTaxonomy(corpus, annotator);
  const old = corpus.getAnnotation(target.target, annotator, role);
  return {
    ...target,
    annotator,
    role,
    source: 'person',
    rule: null,
    labels: old?.labels ?? [],
    note: old?.note ?? null,
    status: null,
    skipped: false,
    active: true,
    taxonomy: taxonomy.version,
    ...fields,
  };
}

export function setLabels(corpus: Corpus, c: LabelChange): AnnotationRecord {
  if (c.labels === undefined && c.note === undefined) {
    throw new UserError('a change needs labels, a note or both', 'bad-input');
  }
  // The stored annotation is read (person) and written back with the change in one transaction:
  // a note and a label written by two processes at once never undo each other.
  return corpus.atomically(() => change(corpus, c));
}

function change(corpus: Corpus, c: LabelChange): AnnotationRecord {
  const target = resolveTarget(corpus, c.target);
  const labels = c.labels === undefined ? undefined : resolveLabels(storedTaxonomy(corpus, c.annotator), c.labels);
  const role = c.role ?? 'annotator';
  const fields: Partial<NewAnnotation> = {
    ...(labels !== undefined && { labels }),
    ...(c.note !== undefined && { note: c.note === '' ? null : c.note }),
  };
  const a = person(corpus, target, c.annotator, role, fields);
  // The rules' suggestions follow the labels: a note alone leaves their status as it is.
  const statuses = role === 'annotator' && labels !== undefined ? statusesFor(corpus, target, labels) : [];
  return corpus.saveAnnotationsWithStatus([a], statuses, c.annotator)[0];
}

/** Marks the target passed over by this annotator (its labels, if any, stay). */
export function skipTarget(corpus: Corpus, target: AnnotationTarget, annotator: string): AnnotationRecord {
  const t = resolveTarget(corpus, target);
  return corpus.atomically(
    () => corpus.saveAnnotations([person(corpus, t, annotator, 'annotator', { skipped: true })], annotator)[0],
  );
}

/** Reverts the annotator's last change not yet undone; null when there is none. */
export function undoLast(corpus: Corpus, annotator: string): AnnotationRecord | null {
  const a = corpus.undoAnnotation(annotator);
  if (!a) return null;
  if (a.role === 'annotator' && a.source === 'person') {
    const target: TargetColumns = {
      target: a.target,
      prediction: a.prediction,
      trace: a.trace,
      seq: a.seq,
      action: a.action,
    };
    corpus.saveAnnotationsWithStatus(
      [],
      statusesFor(corpus, target, a.active && !a.skipped ? a.labels : null),
      annotator,
    );
  }
  return a;
}
