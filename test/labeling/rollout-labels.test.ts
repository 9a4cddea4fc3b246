// Labels on rollout steps (docs/annotation.md, "Rollout steps"): a failure label on the step where a rollout went
// wrong, `prediction:ID/step:N`; the queue lists a rollout set's failures at their first divergence; a step's label
// outlives a re-import of the run (kept, and found again through annotations export/import) as a prediction's does.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import { exportLines, importLines } from '../../src/labeling/jsonl.js';
import { buildQueue } from '../../src/labeling/queue.js';
import { setLabels } from '../../src/labeling/write.js';
import { parseTargetKey, targetKey } from '../../src/annotate/index.js';
import type { Corpus, RolloutTarget, StoredItem } from '../../src/store/corpus.js';
import { cli, ensureBuilt } from '../cli/helpers.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { annotationItem } from '../../src/labeling/item.js';
import { corpusOf, vectorTraces } from '../predictions/helpers.js';

let corpus: Corpus;
let dir: string;
let path: string;
let items: StoredItem[];
let targets: Map<number, RolloutTarget[]>;
/** Per item index, the step its rollout first goes wrong at (then right again), or none. */
let wrongAt: Map<number, number>;

const file = (name: string, lines: unknown[]) => {
  const p = join(dir, name);
  writeFileSync(p, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return p;
};
/** A true state of another step: readable, and wrong here. */
const wrong = (text: string) =>
  [...targets.values()]
    .flat()
    .find((t) => t.target !== text && !t.target.startsWith('<|exit') && !t.target.startsWith('<|inv_exit'))!.target;

function rolloutFile(name: string) {
  return file(
    name,
    items.map((it, i) => ({
      id: it.id,
      states: targets.get(it.id)!.map((t) => (t.step === wrongAt.get(i) ? wrong(t.target) : t.target)),
    })),
  );
}

beforeAll(async () => {
  ({ corpus, dir, path } = await corpusOf(vectorTraces().traces, 'stepscope-rollout-labels-'));
  const { set } = createEvalSet(corpus, { name: 'ro', task: 'rollout', perTrace: 2, maxSteps: 6, seed: 3 });
  items = [...corpus.iterateItems(set.id)];
  targets = corpus.rolloutTargets(items.map((i) => i.id));
  const long = items.findIndex((it) => it.actions.length >= 3);
  wrongAt = new Map([
    [long, 2],
    [long === 0 ? 1 : 0, 1],
  ]);
  importPredictions(corpus, { file: rolloutFile('m.jsonl'), set: 'ro', label: 'M' });
  createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: 1, seed: 1 });
  const ns = [...corpus.iterateItems(corpus.getEvalSet('ns')!.id)];
  importPredictions(corpus, {
    file: file(
      'ns.jsonl',
      ns.map((it) => ({ id: it.id, completions: ['no'] })),
    ),
    set: 'ns',
    label: 'N',
  });
});
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

const predictionOf = (i: number) => {
  const set = corpus.getEvalSet('ro')!;
  const run = corpus.getRun(set.id, 'M')!;
  return [...corpus.iteratePredictions({ setId: set.id, runId: run.id })].find((p) => p.itemId === items[i].id)!.id;
};

describe('a step target', () => {
  it('has its own key, read back as written, and needs a prediction', () => {
    expect(targetKey({ prediction: 12, step: 3 })).toBe('prediction:12/step:3');
    expect(parseTargetKey('prediction:12/step:3')).toEqual({ prediction: 12, step: 3 });
    expect(parseTargetKey('prediction:12/step:0')).toBeUndefined();
    expect(() => targetKey({ trace: 1, seq: 2, step: 3 })).toThrow(/goes with a prediction/);
  });

  it("is refused beyond the rollout's steps and on a prediction that is not a rollout's, writing nothing", () => {
    const [i] = [...wrongAt.keys()];
    const n = items[i].actions.length;
    const p = predictionOf(i);
    expect(() =>
      setLabels(corpus, { target: { prediction: p, step: n + 1 }, labels: ['data.wrong_value'], annotator: 'ada' }),
    ).toThrow(`prediction ${p} is a rollout of ${n} steps: expected a step from 1 to ${n}`);
    const ns = corpus.getEvalSet('ns')!;
    const other = [...corpus.iteratePredictions({ setId: ns.id })][0].id;
    expect(() =>
      setLabels(corpus, { target: { prediction: other, step: 1 }, labels: ['data.wrong_value'], annotator: 'ada' }),
    ).toThrow(/is not a rollout's \(its set is a next-state set\)/);
    expect(corpus.listAnnotations()).toEqual([]);
  });
});

describe('the queue of a rollout run', () => {
  it('lists each failed rollout once, at its first divergence, in item order', () => {
    const q = buildQueue(corpus, { set: 'ro', run: 'M', annotator: 'ada' });
    const expected = [...wrongAt].sort(([a], [b]) => a - b);
    expect(q.entries.map((e) => [e.item, e.step, e.target])).toEqual(
      expected.map(([i, step]) => [items[i].id, step, `prediction:${predictionOf(i)}/step:${step}`]),
    );
  });

  it('marks an entry labeled by a label on that step, not by one on the whole rollout or another step', () => {
    const [long] = [...wrongAt].find(([, s]) => s === 2)!;
    const p = predictionOf(long);
    setLabels(corpus, { target: { prediction: p }, labels: ['other.other'], annotator: 'bob' });
    setLabels(corpus, { target: { prediction: p, step: 3 }, labels: ['other.other'], annotator: 'bob' });
    const a = setLabels(corpus, { target: { prediction: p, step: 2 }, labels: ['data.wrong_value'], annotator: 'ada' });
    expect([a.target, a.prediction, a.seq]).toEqual([`prediction:${p}/step:2`, p, null]);
    const q = buildQueue(corpus, { set: 'ro', run: 'M', annotator: 'ada' });
    const e = q.entries.find((x) => x.prediction === p)!;
    expect([e.mine, e.annotators]).toEqual(['labeled', ['ada']]);
    expect(q.counts).toEqual({ 'data.wrong_value': 1 });
    // Whole rollouts on request: the whole prediction's labels count there.
    const whole = buildQueue(corpus, { set: 'ro', run: 'M', annotator: 'bob', at: 'prediction' });
    const w = whole.entries.find((x) => x.prediction === p)!;
    expect([w.step, w.target, w.mine, w.annotators]).toEqual([null, `prediction:${p}`, 'labeled', ['bob']]);
  });
});

describe('stepscope annotate --step', () => {
  it('labels a step from the command line, and refuses --step without --prediction', () => {
    ensureBuilt();
    const [i] = [...wrongAt.keys()];
    const p = predictionOf(i);
    const ok = cli([
      'annotate',
      '--db',
      path,
      '--prediction',
      String(p),
      '--step',
      '1',
      '--label',
      'other.other',
      '--annotator',
      'cli',
    ]);
    expect([ok.status, ok.stdout.trim()]).toEqual([0, `prediction:${p}/step:1: other.other (cli)`]);
    const bad = cli(['annotate', '--db', path, '--trace', '1', '--seq', '0', '--step', '1', '--label', 'other.other']);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('--step goes with --prediction');
    // The labeling view's item is the whole prediction: a step's label is not shown as its.
    expect(annotationItem(corpus, p, 'cli').mine).toBeNull();
  });
});

describe('re-importing the run', () => {
  it('keeps the label on a step, and annotations export/import finds the new rollout with the same step', () => {
    const [long] = [...wrongAt].find(([, s]) => s === 2)!;
    const before = predictionOf(long);
    const lines = exportLines(corpus);
    const ada = lines.find((l) => l.annotator === 'ada')!;
    expect(lines.find((l) => l.annotator === 'cli')!.target).toMatch(/\/step:1$/);
    expect([ada.target, ada.set, ada.run, ada.item, ada.sample]).toEqual([
      `prediction:${before}/step:2`,
      'ro',
      'M',
      items[long].key,
      0,
    ]);
    // Another file (the rollout that went wrong at step 1 is right now), swapped in for the run.
    for (const [i, s] of wrongAt) if (s === 1) wrongAt.delete(i);
    const outcome = importPredictions(corpus, { file: rolloutFile('m2.jsonl'), set: 'ro', label: 'M', replace: true });
    expect(outcome.outcome).toBe('replaced');
    const after = predictionOf(long);
    // Never dropped: the annotation is still stored, under its old target.
    expect(
      corpus
        .listAnnotations()
        .filter((a) => a.annotator === 'ada')
        .map((a) => a.target),
    ).toEqual([`prediction:${before}/step:2`]);
    // Imported again from the export, it lands on the new prediction's step 2 and the queue shows it.
    const ada2 = { ...ada, uid: 'another-copy', annotator: 'ada2' };
    const counts = importLines(corpus, JSON.stringify(ada2) + '\n', 'ada.jsonl', 'test');
    expect(counts).toMatchObject({ added: 1 });
    const q = buildQueue(corpus, { set: 'ro', run: 'M', annotator: 'ada2' });
    expect(q.entries.map((e) => [e.target, e.mine])).toEqual([[`prediction:${after}/step:2`, 'labeled']]);
  });
});
