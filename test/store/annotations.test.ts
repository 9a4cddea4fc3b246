/**
 * The annotations store: every change is committed and recorded in an append-only history
 * (an import recorded as one, each annotation's history its own), undo walks back one change
 * at a time, lookups by role, the tables are protected from migrations, and a corpus made at
 * schema 6 before 005 landed gets them on open.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectionOf } from '../../src/store/connection.js';
import { openCorpus } from '../../src/store/corpus.js';
import { migrate, PROTECTED_TABLES } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { openDatabase } from '../../src/store/open.js';
import { newAnnotation as ann } from '../helpers/new-annotation.js';
import { cleanTempDirs, tempDir } from './fixtures.js';

afterAll(cleanTempDirs);

const fresh = () => openCorpus(join(tempDir(), 'c.db'), { create: true });

describe('annotations in the corpus', () => {
  it('stores, changes and undoes labels, each change in the history with before and after', () => {
    const path = join(tempDir(), 'c.db');
    const c = openCorpus(path, { create: true });
    c.saveAnnotations([ann(['data.wrong_value'])], 'ada');
    c.saveAnnotations([ann(['data.wrong_value', 'data.wrong_type'], { note: 'int vs str' })], 'ada');
    // no change: no history
    c.saveAnnotations([ann(['data.wrong_value', 'data.wrong_type'], { note: 'int vs str' })], 'ada');
    c.close();

    // A fresh connection sees everything: each call committed at once.
    const r = openCorpus(path, { readonly: true });
    const [a] = r.listAnnotations();
    expect(a.labels).toEqual(['data.wrong_value', 'data.wrong_type']);
    expect(a.note).toBe('int vs str');
    const h = r.annotationHistory({ annotation: a.id });
    expect(h.map((e) => [e.op, e.before?.labels ?? null, e.after.labels])).toEqual([
      ['create', null, ['data.wrong_value']],
      ['update', ['data.wrong_value'], ['data.wrong_value', 'data.wrong_type']],
    ]);
    r.close();

    const w = openCorpus(path);
    expect(w.undoAnnotation('ada')?.labels).toEqual(['data.wrong_value']);
    // The second undo reverts the creation: the row stays, switched off, out of every listing.
    expect(w.undoAnnotation('ada')?.active).toBe(false);
    expect(w.listAnnotations()).toEqual([]);
    expect(w.listAnnotations({ inactive: true })).toHaveLength(1);
    expect(w.undoAnnotation('ada')).toBeUndefined();
    expect(w.undoAnnotation('bob')).toBeUndefined();
    expect(w.annotationHistory({ annotation: a.id }).map((e) => e.op)).toEqual(['create', 'update', 'undo', 'undo']);
    w.close();
  });

  it('keeps one annotation per target and annotator; other annotators get their own', () => {
    const c = openCorpus(join(tempDir(), 'c.db'), { create: true });
    c.saveAnnotations([ann(['control.branch']), ann(['control.wrong_line'], { annotator: 'bob' })], 'ada');
    c.saveAnnotations([ann(['control.loop_iteration'])], 'ada');
    expect(c.listAnnotations().map((a) => [a.annotator, a.labels])).toEqual([
      ['ada', ['control.loop_iteration']],
      ['bob', ['control.wrong_line']],
    ]);
    expect(c.labelUsage()).toEqual(
      new Map([
        ['control.loop_iteration', 1],
        ['control.wrong_line', 1],
      ]),
    );
    c.close();
  });

  it('refuses to rewrite or delete history, and a read-only corpus refuses every write', () => {
    const path = join(tempDir(), 'c.db');
    const c = openCorpus(path, { create: true });
    c.saveAnnotations([ann(['other.other'])], 'ada');
    const db = connectionOf(c);
    expect(() => db.prepare("UPDATE annotation_history SET who = 'eve'").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM annotation_history').run()).toThrow(/append-only/);
    c.close();
    const r = openCorpus(path, { readonly: true });
    // @ts-expect-error saveAnnotations writes: not on a ReadCorpus; called anyway, to see it refused at run time
    expect(() => r.saveAnnotations([ann(['other.other'], { annotator: 'bob' })], 'bob')).toThrow(/read-only/);
    // @ts-expect-error undoAnnotation writes: not on a ReadCorpus; called anyway, to see it refused at run time
    expect(() => r.undoAnnotation('ada')).toThrow(/read-only/);
    r.close();
  });

  it('the migrations guard covers the annotation tables: a migration that loses their rows is refused', () => {
    expect(PROTECTED_TABLES).toEqual(expect.arrayContaining(['annotations', 'annotation_history', 'taxonomies']));
    for (const table of ['annotations', 'annotation_history', 'taxonomies']) {
      const c = openCorpus(join(tempDir(), 'c.db'), { create: true });
      c.saveAnnotations([ann(['other.other'])], 'ada');
      c.saveTaxonomy(1, 't', '{}', 'ada');
      const db = connectionOf(c);
      const bad = {
        version: 99,
        name: 'bad',
        up: (d: typeof db) => d.exec(`DROP TRIGGER IF EXISTS annotation_history_no_delete; DELETE FROM ${table}`),
      };
      expect(() => migrate(db, [...MIGRATIONS, bad])).toThrow(new RegExp(`would lose rows of "${table}"`));
      expect((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n).toBe(1);
      c.close();
    }
  });

  it('a corpus made at schema 6 without 005 gets the annotation tables when opened', () => {
    const path = join(tempDir(), 'c.db');
    openDatabase(path, {
      create: true,
      migrations: MIGRATIONS.filter((m) => m.version !== 5 && m.version <= 6),
    }).close();
    const c = openCorpus(path);
    c.saveAnnotations([ann(['other.other'])], 'ada');
    expect(c.listAnnotations()).toHaveLength(1);
    c.close();
  });
});

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
    c.saveAnnotations(
      [ann(['data.wrong_value']), ann(['data.wrong_type'], { target: 'trace:1/seq:5', seq: 5 })],
      'ada',
    );
    c.saveAnnotations([ann(['control.wrong_line'], { target: 'trace:1/seq:5', seq: 5 })], 'ada');
    const [a, b] = c.listAnnotations();
    expect(c.annotationHistory({ annotation: a.id }).map((h) => [h.annotation, h.op])).toEqual([[a.id, 'create']]);
    expect(c.annotationHistory({ annotation: b.id }).map((h) => [h.annotation, h.op])).toEqual([
      [b.id, 'create'],
      [b.id, 'update'],
    ]);
    expect(c.annotationHistory({ who: 'ada' })).toHaveLength(3);
    c.close();
  });

  it('the annotations of no predictions are none', () => {
    const c = fresh();
    c.saveAnnotations([ann(['data.wrong_value'])], 'ada');
    expect(c.annotationsOfPredictions([])).toEqual([]);
    c.close();
  });

  it("getAnnotation without a role gives the annotator's annotation, not the adjudicator's", () => {
    const c = fresh();
    c.saveAnnotations([ann(['data.wrong_value']), ann(['data.wrong_type'], { role: 'adjudicator' })], 'ada');
    expect(c.getAnnotation('trace:1/seq:4', 'ada')?.labels).toEqual(['data.wrong_value']);
    expect(c.getAnnotation('trace:1/seq:4', 'ada', 'adjudicator')?.labels).toEqual(['data.wrong_type']);
    c.close();
  });
});
