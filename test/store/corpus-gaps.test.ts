/**
 * The Corpus class (src/store/corpus.ts): the cases the mutation run of src/store/queries
 * found untested. Each test builds its own corpus.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectionOf } from '../../src/store/connection.js';
import { openCorpus, type CorpusError, type NewAnnotation } from '../../src/store/corpus.js';
import { cleanTempDirs, tempDir } from './fixtures.js';

afterAll(cleanTempDirs);

const ann = (labels: string[], extra: Partial<NewAnnotation> = {}): NewAnnotation => ({
  target: 'trace:1/seq:4', prediction: null, trace: 1, seq: 4, action: null, annotator: 'ada', role: 'annotator', source: 'person', rule: null,
  labels, note: null, status: null, skipped: false, active: true, taxonomy: 1, ...extra,
});

/** What a call threw (undefined when it returned). */
function thrown(f: () => unknown): { kind?: string; message?: string } | undefined {
  try {
    f();
    return undefined;
  } catch (e) {
    return e as CorpusError;
  }
}

describe('the Corpus class', () => {
  it("getAnnotation without a role gives the annotator's annotation, not the adjudicator's", () => {
    const c = openCorpus(join(tempDir(), 'c.db'), { create: true });
    c.saveAnnotations([ann(['data.wrong_value']), ann(['data.wrong_type'], { role: 'adjudicator' })], 'ada');
    expect(c.getAnnotation('trace:1/seq:4', 'ada')?.labels).toEqual(['data.wrong_value']);
    expect(c.getAnnotation('trace:1/seq:4', 'ada', 'adjudicator')?.labels).toEqual(['data.wrong_type']);
    c.close();
  });

  it('a read-only corpus refuses a write even when the write would change nothing', () => {
    const path = join(tempDir(), 'c.db');
    const w = openCorpus(path, { create: true });
    w.saveAnnotations([ann(['data.wrong_value'])], 'ada');
    w.close();
    const r = openCorpus(path, { readonly: true });
    const before = JSON.stringify(connectionOf(r).prepare('SELECT * FROM annotation_history').all());
    const readonly = { kind: 'readonly', message: `${path} is read-only: cannot write to it (check the file and folder permissions).` };
    // Nothing to undo for bob; ada's annotation saved as it is; no trajectories: each still refused, not answered.
    // @ts-expect-error undoAnnotation writes: not on a ReadCorpus; called anyway, to see it refused at run time
    expect(thrown(() => r.undoAnnotation('bob'))).toMatchObject(readonly);
    // @ts-expect-error saveAnnotations writes: not on a ReadCorpus
    expect(thrown(() => r.saveAnnotations([ann(['data.wrong_value'])], 'ada'))).toMatchObject(readonly);
    // @ts-expect-error saveTrajectories writes: not on a ReadCorpus
    expect(thrown(() => r.saveTrajectories([]))).toMatchObject(readonly);
    expect(JSON.stringify(connectionOf(r).prepare('SELECT * FROM annotation_history').all())).toBe(before);
    r.close();
  });
});
