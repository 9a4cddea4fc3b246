/**
 * The annotation record, declared once for every layer (store rows, the API, the JSONL
 * export): one annotator's current labels on one target (docs/annotation.md; the columns are
 * in src/store/migrations/005-annotations.ts and docs/schema.md). Pure types.
 */
export type AnnotationSource = 'person' | 'rule';
export type AnnotationStatus = 'suggested' | 'accepted' | 'rejected';
export type AnnotationRole = 'annotator' | 'adjudicator';

/** What a change sets: everything but the bookkeeping (what the history records before and after). */
export interface AnnotationFields {
  labels: string[];
  /** A person's note; a rule's reason. */
  note: string | null;
  /** A rule's suggestion: suggested, then accepted or rejected by a person; null for people. */
  status: AnnotationStatus | null;
  /** The person passed the item. */
  skipped: boolean;
  /** false after an undo of its creation (rows are never deleted). */
  active: boolean;
}

export interface Annotation extends AnnotationFields {
  /** The annotation's name across copies of a corpus (export/import). */
  uid: string;
  /** Canonical key (target.ts): `prediction:12`, `trace:3/seq:17`, `trace:3/seq:17/action:step_over`. */
  target: string;
  /** The target's parts: a prediction, or a trace's state (seq) and maybe an action. */
  prediction: number | null;
  trace: number | null;
  seq: number | null;
  action: string | null;
  annotator: string;
  role: AnnotationRole;
  source: AnnotationSource;
  /** The pre-label rule that made it (source = rule). */
  rule: string | null;
  /** The taxonomy version it was given under. */
  taxonomy: number;
  created: string;
  updated: string;
}

/** One change in the append-only history: who made it, when, and the annotation before and after. */
export interface AnnotationChange {
  id: number;
  /** The annotation's row id. */
  annotation: number;
  who: string;
  at: string;
  op: 'create' | 'update' | 'undo' | 'import';
  /** An undo names the change it reverts. */
  undoes: number | null;
  /** null on creation. */
  before: AnnotationFields | null;
  after: AnnotationFields;
}
