/**
 * Annotations (queries/annotations.ts): the cases the mutation run of src/store/queries found
 * untested. Each test builds its own corpus.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCorpus, type NewAnnotation } from '../../src/store/corpus.js';
import { cleanTempDirs, tempDir } from './fixtures.js';

afterAll(cleanTempDirs);

const ann = (labels: string[], extra: Partial<NewAnnotation> = {}): NewAnnotation => ({
  target: 'trace:1/seq:4', prediction: null, trace: 1, seq: 4, action: null, annotator: 'ada', role: 'annotator', source: 'person', rule: null,
  labels, note: null, status: null, skipped: false, active: true, taxonomy: 1, ...extra,
});

const fresh = () => openCorpus(join(tempDir(), 'c.db'), { create: true });

describe('annotations: history and lookups', () => {
  it('an import that changes an annotation is recorded as an import, not as an update', () => {
    const c = fresh();
    c.saveAnnotations([ann(['data.wrong_value'])], 'ada');
    c.saveAnnotations([ann(['data.wrong_type'])], 'ada', 'import');
    c.saveAnnotations([ann(['control.wrong_line'])], 'ada');
    const [a] = c.listAnnotations();
    expect(c.annotationHistory({ annotation: a.id }).map((h) => [h.op, h.after.labels])).toEqual([
      ['create', ['data.wrong_value']],
      ['import', ['data.wrong_type']],
      ['update', ['control.wrong_line']],
    ]);
    c.close();
  });

  it("the history of one annotation holds only that annotation's changes", () => {
    const c = fresh();
    c.saveAnnotations([ann(['data.wrong_value']), ann(['data.wrong_type'], { target: 'trace:1/seq:5', seq: 5 })], 'ada');
    c.saveAnnotations([ann(['control.wrong_line'], { target: 'trace:1/seq:5', seq: 5 })], 'ada');
    const [a, b] = c.listAnnotations();
    expect(c.annotationHistory({ annotation: a.id }).map((h) => [h.annotation, h.op])).toEqual([[a.id, 'create']]);
    expect(c.annotationHistory({ annotation: b.id }).map((h) => [h.annotation, h.op])).toEqual([[b.id, 'create'], [b.id, 'update']]);
    expect(c.annotationHistory({ who: 'ada' })).toHaveLength(3);
    c.close();
  });

  it('the annotations of no predictions are none', () => {
    const c = fresh();
    c.saveAnnotations([ann(['data.wrong_value'])], 'ada');
    expect(c.annotationsOfPredictions([])).toEqual([]);
    c.close();
  });
});
