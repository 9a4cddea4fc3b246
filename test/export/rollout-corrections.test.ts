// `corrections` over a rollout run (docs/export.md): one row per step the rollout reached that is wrong or labelled,
// with the prompt the model saw there (its own earlier states, not the truth), the true state as `chosen`, the step
// number, and that step's labels.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { exportDataset } from '../../src/export/run.js';
import { setLabels } from '../../src/labeling/write.js';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import { nextPrompt } from '../../src/predictions/rollout-score.js';
import type { Corpus, RolloutTarget, StoredItem } from '../../src/store/corpus.js';
import { corpusOf, vectorTraces } from '../predictions/helpers.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { dataFiles, jsonlRead } from './helpers.js';

let corpus: Corpus;
let db: string;
let dir: string;
let items: StoredItem[];
let targets: Map<number, RolloutTarget[]>;
/** The states each item's rollout gave. */
const states = new Map<number, string[]>();
let healed: StoredItem;
let once: StoredItem;

beforeAll(async () => {
  ({ corpus, path: db, dir } = await corpusOf(vectorTraces().traces, 'stepscope-rollout-corrections-'));
  const { set } = createEvalSet(corpus, { name: 'ro', task: 'rollout', perTrace: 2, maxSteps: 6, seed: 4 });
  items = [...corpus.iterateItems(set.id)];
  targets = corpus.rolloutTargets(items.map((i) => i.id));
  const readable = (t: RolloutTarget) => !t.target.startsWith('<|exit') && !t.target.startsWith('<|inv_exit');
  const long = items.filter((it) => it.actions.length >= 4 && targets.get(it.id)!.slice(0, 3).every(readable));
  [healed, once] = long;
  const wrong = (text: string) => [...targets.values()].flat().find((t) => readable(t) && t.target !== text)!.target;
  for (const it of items) {
    const truth = targets.get(it.id)!.map((t) => t.target);
    // `healed`: wrong at step 2 only; `once`: wrong at step 1 only; the others right throughout.
    const at = it === healed ? 1 : it === once ? 0 : -1;
    states.set(
      it.id,
      truth.map((t, k) => (k === at ? wrong(t) : t)),
    );
  }
  const file = join(dir, 'ro.jsonl');
  writeFileSync(file, items.map((it) => JSON.stringify({ id: it.id, states: states.get(it.id) })).join('\n') + '\n');
  importPredictions(corpus, { file, set: 'ro', label: 'M' });
  const pred = [...corpus.iteratePredictions({ setId: set.id })].find((p) => p.itemId === healed.id)!.id;
  // Step 3 of `healed` is right, but labelled: it is exported too, with its labels.
  setLabels(corpus, { target: { prediction: pred, step: 3 }, labels: ['other.other'], annotator: 'ada' });
});
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

/** The prompt of step `k` as rolled out: the item's prompt, then the model's own states before k. */
const promptAt = (it: StoredItem, k: number) => {
  let p = it.prompt;
  for (let j = 1; j < k; j++) p = nextPrompt(p, states.get(it.id)![j - 1], it.actions[j]);
  return p;
};

it('writes the wrong and the labelled steps of each rollout, with what the model saw and the truth', async () => {
  expect(healed && once).toBeTruthy();
  const out = join(dir, 'corr');
  await exportDataset(db, out, { kind: 'corrections', select: ['set=ro'], allowOverlap: true, format: 'jsonl' });
  const rows = jsonlRead(dataFiles(out).train);
  const pick = (r: Record<string, unknown>) => [r.item, r.step, r.prompt, r.chosen, r.rejected, r.labels, r.action];
  const row = (it: StoredItem, k: number, labels: string[]) => [
    it.id,
    k,
    promptAt(it, k),
    targets.get(it.id)![k - 1].target,
    states.get(it.id)![k - 1],
    labels,
    targets.get(it.id)![k - 1].action,
  ];
  expect(rows.map(pick).sort((a, b) => Number(a[0]) - Number(b[0]) || Number(a[1]) - Number(b[1]))).toEqual(
    [row(healed, 2, []), row(healed, 3, ['other.other']), row(once, 1, [])].sort(
      (a, b) => Number(a[0]) - Number(b[0]) || Number(a[1]) - Number(b[1]),
    ),
  );
  // Step 3's prompt holds the model's wrong state at step 2, not the truth.
  const third = rows.find((r) => r.item === healed.id && r.step === 3)!;
  expect(third.prompt).toContain(states.get(healed.id)![1]);
  expect(third.prompt).not.toContain(targets.get(healed.id)![1].target);
  expect(rows.find((r) => r.step === 2)!.wrong).not.toEqual([]);
});
