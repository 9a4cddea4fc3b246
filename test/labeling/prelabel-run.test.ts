// Pre-labels for a run (src/labeling/prelabel-run.ts, docs/annotation.md "Pre-labels"), in
// process: what a first run looks at, suggests and stores; a second run stores nothing new
// and counts the same; a suggestion a person judged is kept as judged. The run: text that is
// no state on every other item (the parse-error rule's case), the truth on the others.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { prelabelRun } from '../../src/labeling/prelabel-run.js';
import { setLabels, undoLast } from '../../src/labeling/write.js';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import type { Corpus } from '../../src/store/corpus.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, vectorTraces } from '../predictions/helpers.js';

let corpus: Corpus;
let failing: number[];

beforeAll(async () => {
  let dir: string;
  ({ corpus, dir } = await corpusOf(vectorTraces().traces, 'stepscope-prelabel-'));
  const { set } = createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: 2, seed: 5 });
  const items = [...corpus.iterateItems(set.id)];
  const file = join(dir, 'p.jsonl');
  writeFileSync(
    file,
    items.map((it, i) => JSON.stringify({ id: it.id, completion: i % 2 ? it.target : 'oops, no state' })).join('\n'),
  );
  importPredictions(corpus, { file, set: 'ns', label: 'half' });
  failing = [...corpus.iteratePredictions({ setId: set.id, failed: true })].map((p) => p.id);
}, 120_000);
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

it('suggests format.unparseable for each failing prediction once, as rule:parse-error, and a second run stores nothing new', () => {
  expect(failing.length).toBeGreaterThan(3);
  const first = prelabelRun(corpus, 'ns', 'half');
  expect(first).toMatchObject({
    predictions: failing.length,
    labeled: failing.length,
    stored: first.stored,
    skipped: 0,
  });
  expect(first.counts['format.unparseable']).toBe(failing.length);
  const rules = corpus.listAnnotations({ source: 'rule' });
  expect(
    rules
      .filter((a) => a.annotator === 'rule:parse-error')
      .map((a) => a.prediction)
      .sort((a, b) => a! - b!),
  ).toEqual(failing);
  expect(first.stored).toBe(rules.length);
  for (const a of rules) {
    expect(a).toMatchObject({
      role: 'annotator',
      source: 'rule',
      status: 'suggested',
      skipped: false,
      active: true,
      taxonomy: 1,
    });
    expect(a.annotator).toBe(`rule:${a.rule}`);
    expect(a.note).toEqual(expect.any(String));
  }

  // A person judges the first suggestion, and the rules' last write is undone (the history names
  // the writer "rules"); running again changes neither, adds nothing and counts the same.
  setLabels(corpus, { target: { prediction: failing[0] }, labels: ['other.other'], annotator: 'ada' });
  const undone = undoLast(corpus, 'rules');
  expect(undone).toMatchObject({ source: 'rule', active: false });
  const again = prelabelRun(corpus, 'ns', 'half');
  expect(again).toEqual({ ...first, stored: 0 });
  expect(corpus.listAnnotations({ source: 'rule' })).toHaveLength(rules.length - 1);
  expect(corpus.listAnnotations({ source: 'rule', inactive: true })).toHaveLength(rules.length);
  expect(
    corpus.listAnnotations({ source: 'rule' }).find((a) => a.prediction === failing[0] && a.rule === 'parse-error')!
      .status,
  ).toBe('rejected');
});
