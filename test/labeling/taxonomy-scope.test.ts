// The corpus's taxonomy versions (src/labeling/taxonomy.ts), which annotations a set or a run
// lists with its per-label counts (scope.ts), and the checks on a target (target.ts), in
// process. Expected values: the default taxonomy's documented labels (docs/annotation.md)
// and the annotations each test writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TAXONOMY } from '../../src/annotate/index.js';
import { labelListing } from '../../src/labeling/scope.js';
import { resolveTarget } from '../../src/labeling/target.js';
import { currentTaxonomy, storedTaxonomy, updateTaxonomy } from '../../src/labeling/taxonomy.js';
import { setLabels, skipTarget } from '../../src/labeling/write.js';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import type { Corpus } from '../../src/store/corpus.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, vectorTraces } from '../predictions/helpers.js';

let corpus: Corpus;
let dir: string;
/** Predictions of runs m and n of set ns (same items, in the same order), and of run k of set other. */
const runs: Record<string, number[]> = {};

function predict(set: string, label: string) {
  const items = [...corpus.iterateItems(corpus.getEvalSet(set)!.id)];
  const file = join(dir, `${set}-${label}.jsonl`);
  writeFileSync(file, items.map((it) => JSON.stringify({ id: it.id, completion: 'not a state' })).join('\n'));
  importPredictions(corpus, { file, set, label });
  const s = corpus.getEvalSet(set)!;
  runs[label] = [...corpus.iteratePredictions({ setId: s.id, runId: corpus.getRun(s.id, label)!.id })].map((p) => p.id);
}

beforeAll(async () => {
  ({ corpus, dir } = await corpusOf(vectorTraces().traces, 'stepscope-labeling-'));
  createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: 1, seed: 3 });
  createEvalSet(corpus, { name: 'other', task: 'next-state', perAction: 1, seed: 4 });
  predict('ns', 'm');
  predict('ns', 'n');
  predict('other', 'k');
}, 120_000);
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

/** The stored versions, oldest first. */
const stored = () => [...corpus.query('SELECT version, name, author FROM taxonomies ORDER BY version')];

describe('taxonomy versions', () => {
  it('the default until someone writes; the first write stores it as version 1 under its author, once', () => {
    expect(corpus.latestTaxonomy()).toBeUndefined();
    expect(currentTaxonomy(corpus)).toEqual(DEFAULT_TAXONOMY);
    expect(storedTaxonomy(corpus, 'ada')).toEqual(DEFAULT_TAXONOMY);
    expect(stored()).toEqual([{ version: 1, name: DEFAULT_TAXONOMY.name, author: 'ada' }]);
    storedTaxonomy(corpus, 'bob');
    expect(stored()).toHaveLength(1);
  });

  it('the same taxonomy again (labels in another order too) stores nothing; a new name, group text or label is stored as the version the file gives', () => {
    const same = updateTaxonomy(corpus, structuredClone(DEFAULT_TAXONOMY), 'ada');
    expect(same.stored).toBe(false);
    expect(same.taxonomy.version).toBe(1);
    const reordered = updateTaxonomy(
      corpus,
      { ...structuredClone(DEFAULT_TAXONOMY), labels: [...DEFAULT_TAXONOMY.labels].reverse() },
      'ada',
    );
    expect(reordered.stored).toBe(false);
    expect(stored()).toHaveLength(1);

    const renamed = updateTaxonomy(
      corpus,
      { ...structuredClone(DEFAULT_TAXONOMY), version: 2, name: 'Errors, renamed' },
      'ada',
    );
    expect(renamed).toMatchObject({ stored: true, taxonomy: { version: 2, name: 'Errors, renamed' } });
    expect(currentTaxonomy(corpus)).toMatchObject({ version: 2, name: 'Errors, renamed' });

    const t2 = currentTaxonomy(corpus);
    const regrouped = {
      ...structuredClone(t2),
      version: 3,
      groups: t2.groups.map((g) => (g.id === 'other' ? { ...g, description: 'Anything else.' } : g)),
    };
    expect(updateTaxonomy(corpus, regrouped, 'bob')).toMatchObject({ stored: true, taxonomy: { version: 3 } });
    expect(stored().at(-1)).toEqual({ version: 3, name: 'Errors, renamed', author: 'bob' });

    // A file that says version 10 keeps 10.
    const t3 = currentTaxonomy(corpus);
    const label = { ...t3.labels.find((l) => l.id === 'other.other')!, id: 'other.unsure', key: 2, name: 'Unsure' };
    const added = updateTaxonomy(
      corpus,
      { ...structuredClone(t3), version: 10, labels: [...t3.labels, label] },
      'bob',
      'mine.json',
    );
    expect(added.stored).toBe(true);
    expect(added.taxonomy.version).toBe(10);
    expect(added.diff.added).toEqual(['other.unsure']);
    expect(currentTaxonomy(corpus).labels.map((l) => l.id)).toContain('other.unsure');
    expect(stored().map((t) => t.version)).toEqual([1, 2, 3, 10]);
  });

  it('a taxonomy that drops a label in use is refused naming the file, and nothing is stored', () => {
    setLabels(corpus, { target: { prediction: runs.m[0] }, labels: ['format.truncated'], annotator: 'ada' });
    const t = currentTaxonomy(corpus);
    const dropped = {
      ...structuredClone(t),
      version: t.version + 1,
      labels: t.labels.filter((l) => l.id !== 'format.truncated'),
    };
    expect(() => updateTaxonomy(corpus, dropped, 'ada', 'drop.json')).toThrow(/^drop\.json: .*format\.truncated/);
    expect(stored().at(-1)!.version).toBe(t.version);
    expect(() => updateTaxonomy(corpus, { name: 'x' }, 'ada')).toThrow(/^taxonomy/);
  });
});

describe('labelListing', () => {
  it("a set lists its runs' annotations, a run its own, an annotator theirs; counts are people's labels, not skips or rules", () => {
    setLabels(corpus, { target: { prediction: runs.m[1] }, labels: ['format.unparseable'], annotator: 'ada' });
    setLabels(corpus, {
      target: { prediction: runs.n[0] },
      labels: ['format.unparseable', 'other.other'],
      annotator: 'bob',
    });
    setLabels(corpus, { target: { prediction: runs.k[0] }, labels: ['other.other'], annotator: 'bob' });
    skipTarget(corpus, { prediction: runs.n[1] }, 'ada');
    setLabels(corpus, { target: { trace: 1, seq: 0 }, labels: ['control.branch'], annotator: 'carol' });
    // A rule's suggestion: listed, not counted.
    corpus.saveAnnotations(
      [
        {
          target: `prediction:${runs.m[2]}`,
          prediction: runs.m[2],
          trace: null,
          seq: null,
          action: null,
          annotator: 'rule:parse-error',
          role: 'annotator',
          source: 'rule',
          rule: 'parse-error',
          labels: ['format.unparseable'],
          note: null,
          status: 'suggested',
          skipped: false,
          active: true,
          taxonomy: 10,
        },
      ],
      'rules',
    );
    const all = labelListing(corpus, {});
    expect(all.rows).toHaveLength(7);
    expect(all.counts).toEqual({
      'format.truncated': 1,
      'format.unparseable': 2,
      'other.other': 2,
      'control.branch': 1,
    });
    const ns = labelListing(corpus, { set: 'ns' });
    expect(ns.rows.map((a) => a.target).sort()).toEqual(
      [runs.m[0], runs.m[1], runs.m[2], runs.n[0], runs.n[1]].map((p) => `prediction:${p}`).sort(),
    );
    expect(ns.counts).toEqual({ 'format.truncated': 1, 'format.unparseable': 2, 'other.other': 1 });
    const n = labelListing(corpus, { set: 'ns', run: 'n' });
    expect(n.rows.map((a) => a.annotator).sort()).toEqual(['ada', 'bob']);
    expect(n.counts).toEqual({ 'format.unparseable': 1, 'other.other': 1 });
    const bob = labelListing(corpus, { annotator: 'bob' });
    expect(bob.counts).toEqual({ 'format.unparseable': 1, 'other.other': 2 });
    expect(bob.rows.every((a) => a.annotator === 'bob' && !('active' in a))).toBe(true);
    expect(() => labelListing(corpus, { set: 'nope' })).toThrow(expect.objectContaining({ code: 'not-found' }));
    expect(() => labelListing(corpus, { set: 'ns', run: 'nope' })).toThrow(
      expect.objectContaining({ code: 'not-found' }),
    );
  });
});

describe('resolveTarget', () => {
  it('a state target must name a trace, a seq inside it and a known action', () => {
    const events = corpus.getTrace(1)!.events;
    expect(resolveTarget(corpus, { trace: 1, seq: events - 1 })).toEqual({
      target: `trace:1/seq:${events - 1}`,
      prediction: null,
      trace: 1,
      seq: events - 1,
      action: null,
    });
    expect(resolveTarget(corpus, { trace: 1, seq: 0, action: 'step_over' })).toMatchObject({ action: 'step_over' });
    expect(resolveTarget(corpus, { trace: 1, seq: 0, action: 'breakpoint 3' })).toMatchObject({
      action: 'breakpoint 3',
    });
    const refused = (code: string, message: string | RegExp) =>
      expect.objectContaining({
        code,
        message: typeof message === 'string' ? message : expect.stringMatching(message),
      });
    expect(() => resolveTarget(corpus, { trace: 1, seq: events })).toThrow(
      refused('not-found', `trace 1 has no state with seq ${events}: expected a seq from 0 to ${events - 1}`),
    );
    expect(() => resolveTarget(corpus, { trace: 999, seq: 0 })).toThrow(
      refused('not-found', 'no trace with id 999 (stepscope traces lists them)'),
    );
    expect(() => resolveTarget(corpus, { trace: 1, seq: 0, action: 'jump 3' })).toThrow(
      refused('bad-input', /^unknown action 'jump 3': expected one of step_into, /),
    );
    expect(() => resolveTarget(corpus, { prediction: 99999 })).toThrow(
      refused('not-found', 'no prediction with id 99999 (stepscope predictions lists them)'),
    );
  });
});
