/**
 * An annotation as the corpus's saveAnnotations takes it: ada's labels on trace 1, seq 4, as
 * an annotator, with `extra` changing any field.
 */
import type { NewAnnotation } from '../../src/store/corpus.js';

export const newAnnotation = (labels: string[], extra: Partial<NewAnnotation> = {}): NewAnnotation => ({
  target: 'trace:1/seq:4',
  prediction: null,
  trace: 1,
  seq: 4,
  action: null,
  annotator: 'ada',
  role: 'annotator',
  source: 'person',
  rule: null,
  labels,
  note: null,
  status: null,
  skipped: false,
  active: true,
  taxonomy: 1,
  ...extra,
});
