// The write path of the labeling queue (src/labeling/write.ts; docs/annotation.md, "Typing
// ahead"): a change carries only the fields it changes, so a note typed while a label is being
// saved never writes the labels back as they were, and the reverse; writes apply in the order
// they come, each one row of the history. Through the API too (the contract's `annotate`).
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createApi, createWriteApi } from '../../src/api/handlers/index.js';
import type { Api } from '../../src/contract/index.js';
import { prelabelRun } from '../../src/labeling/prelabel-run.js';
import { setLabels, undoLast } from '../../src/labeling/write.js';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import type { Corpus } from '../../src/store/corpus.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, vectorTraces } from '../predictions/helpers.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';
import { dispatch } from '../api/call.js';

let corpus: Corpus;
/** Predictions whose completion is no state: the rules suggest format.unparseable on each. */
let garbage: number[];

beforeAllOrFail(async () => {
  let dir: string;
  ({ corpus, dir } = await corpusOf(vectorTraces().traces, 'stepscope-write-'));
  const { set } = createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: 2, seed: 5 });
  const items = [...corpus.iterateItems(set.id)];
  const file = join(dir, 'p.jsonl');
  writeFileSync(file, items.map((it) => JSON.stringify({ id: it.id, completion: 'oops, no state' })).join('\n'));
  importPredictions(corpus, { file, set: 'ns', label: 'junk' });
  prelabelRun(corpus, 'ns', 'junk');
  garbage = [...corpus.iteratePredictions({ setId: set.id })].map((p) => p.id);
});
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

const stored = (p: number, who: string) => corpus.getAnnotation(`prediction:${p}`, who);
/** The history of `who` on prediction p: each change's labels and note after it. */
function changes(p: number, who: string) {
  const id = stored(p, who)?.id;
  return corpus
    .annotationHistory({ who })
    .filter((h) => h.annotation === id)
    .map((h) => ({ op: h.op, labels: h.after.labels, note: h.after.note }));
}
const suggestion = (p: number) => corpus.annotationsOfPredictions([p]).find((a) => a.source === 'rule')!.status;

describe('labeling writes carry only the fields they change', () => {
  it('a note alone keeps the labels given before it, and a label alone keeps the note', () => {
    const p = garbage[0];
    const target = { prediction: p };
    setLabels(corpus, { target, labels: ['format.unparseable'], annotator: 'ada' });
    setLabels(corpus, { target, note: 'cut short', annotator: 'ada' });
    expect(stored(p, 'ada')).toMatchObject({ labels: ['format.unparseable'], note: 'cut short' });
    setLabels(corpus, { target, labels: ['format.unparseable', 'format.truncated'], annotator: 'ada' });
    expect(stored(p, 'ada')).toMatchObject({ labels: ['format.unparseable', 'format.truncated'], note: 'cut short' });
    setLabels(corpus, { target, labels: [], annotator: 'ada' });
    expect(stored(p, 'ada')).toMatchObject({ labels: [], note: 'cut short' });
    // '' removes the note, the labels stay.
    setLabels(corpus, { target, labels: ['format.truncated'], annotator: 'ada' });
    setLabels(corpus, { target, note: '', annotator: 'ada' });
    expect(stored(p, 'ada')).toMatchObject({ labels: ['format.truncated'], note: null });
  });

  it('a note on an item with no labels yet stores the note and no label; a label after it keeps the note', () => {
    const p = garbage[1];
    setLabels(corpus, { target: { prediction: p }, note: 'look at the loop', annotator: 'ada' });
    expect(stored(p, 'ada')).toMatchObject({ labels: [], note: 'look at the loop' });
    setLabels(corpus, { target: { prediction: p }, labels: ['control.branch'], annotator: 'ada' });
    expect(stored(p, 'ada')).toMatchObject({ labels: ['control.branch'], note: 'look at the loop' });
  });

  it("writes apply in the order they come, each one row of the history with that write's fields", () => {
    const p = garbage[2];
    const target = { prediction: p };
    // A fast annotator: label, note, a second label, the note changed, the first label off.
    setLabels(corpus, { target, labels: ['format.unparseable'], annotator: 'bo' });
    setLabels(corpus, { target, note: 'note 2', annotator: 'bo' });
    setLabels(corpus, { target, labels: ['format.unparseable', 'format.truncated'], annotator: 'bo' });
    setLabels(corpus, { target, note: 'note 2, really', annotator: 'bo' });
    setLabels(corpus, { target, labels: ['format.truncated'], annotator: 'bo' });
    expect(changes(p, 'bo')).toEqual([
      { op: 'create', labels: ['format.unparseable'], note: null },
      { op: 'update', labels: ['format.unparseable'], note: 'note 2' },
      { op: 'update', labels: ['format.unparseable', 'format.truncated'], note: 'note 2' },
      { op: 'update', labels: ['format.unparseable', 'format.truncated'], note: 'note 2, really' },
      { op: 'update', labels: ['format.truncated'], note: 'note 2, really' },
    ]);
    // Undo takes back the last change only: the note stays.
    undoLast(corpus, 'bo');
    const labels = ['format.unparseable', 'format.truncated'];
    expect(stored(p, 'bo')).toMatchObject({ labels, note: 'note 2, really' });
  });

  it("a note leaves the rules' suggestions as the labels set them", () => {
    const p = garbage[3];
    expect(suggestion(p)).toBe('suggested');
    setLabels(corpus, { target: { prediction: p }, note: 'no label yet', annotator: 'cy' });
    expect(suggestion(p)).toBe('suggested');
    setLabels(corpus, { target: { prediction: p }, labels: ['format.unparseable'], annotator: 'cy' });
    expect(suggestion(p)).toBe('accepted');
    setLabels(corpus, { target: { prediction: p }, note: 'given', annotator: 'cy' });
    expect(suggestion(p)).toBe('accepted');
  });

  it('a change with neither labels nor a note is refused and writes nothing', () => {
    const p = garbage[4];
    const nothing = () => setLabels(corpus, { target: { prediction: p }, annotator: 'ada' });
    expect(nothing).toThrow('a change needs labels, a note or both');
    expect(stored(p, 'ada')).toBeUndefined();
  });

  it("the API's annotate takes a note without labels and keeps the labels stored", async () => {
    const api: Api = { ...createApi(corpus), ...createWriteApi(corpus) };
    const p = garbage[5];
    const call = async (params: object) => {
      const r = await dispatch(api, 'annotate', { target: { prediction: p }, annotator: 'dee', ...params });
      if (!r.ok) throw new Error(r.error.message);
      return r.value as { labels: string[]; note: string | null };
    };
    await call({ labels: ['format.unparseable'] });
    expect(await call({ note: 'typed fast' })).toMatchObject({ labels: ['format.unparseable'], note: 'typed fast' });
    expect(await call({ labels: [] })).toMatchObject({ labels: [], note: 'typed fast' });
    expect(changes(p, 'dee').map((c) => c.op)).toEqual(['create', 'update', 'update']);
  });
});

describe('a change read and written in one transaction', () => {
  it('holds the write lock from the read of the stored annotation to the write: no other process writes between', () => {
    const other = new Database(corpus.path, { timeout: 0 });
    const outcomes: string[] = [];
    const read = corpus.getAnnotation.bind(corpus);
    const spy = vi.spyOn(corpus, 'getAnnotation').mockImplementation((...args) => {
      // Another process trying to write while the change reads what is stored.
      try {
        other.exec('BEGIN IMMEDIATE');
        other.exec('ROLLBACK');
        outcomes.push('another writer got in');
      } catch (e) {
        outcomes.push((e as { code?: string }).code ?? String(e));
      }
      return read(...args);
    });
    try {
      setLabels(corpus, { target: { prediction: garbage[0] }, note: 'read under the lock', annotator: 'lock' });
      setLabels(corpus, { target: { prediction: garbage[0] }, labels: ['data.wrong_value'], annotator: 'lock' });
    } finally {
      spy.mockRestore();
      other.close();
    }
    expect(outcomes.length).toBeGreaterThan(0);
    expect(new Set(outcomes)).toEqual(new Set(['SQLITE_BUSY']));
    expect(stored(garbage[0], 'lock')).toMatchObject({ labels: ['data.wrong_value'], note: 'read under the lock' });
  });
});
