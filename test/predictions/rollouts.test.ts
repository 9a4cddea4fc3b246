// Rollout sets and rollouts (docs/predictions.md, "Rollouts"): items that are whole trajectories, each step's truth
// equal to the next-state item the same actions cut; rollouts imported as {"id", "states"} lines, scored step by
// step; what getRollouts shows (first divergence, healing, accuracy by step beside teacher-forced accuracy at the
// same positions); and bad files refused by line with nothing stored.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi } from '../../src/api/handlers/index.js';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import { importEvalSet } from '../../src/predictions/import-set.js';
import { exportLine } from '../../src/predictions/views.js';
import { cutItem, Traces } from '../../src/predictions/items.js';
import { nextPrompt } from '../../src/predictions/rollout-score.js';
import { serialize, contextFor, walk } from '../../src/semantics/index.js';
import { loadTrace } from '../../src/trajectories/load.js';
import type { Corpus, RolloutTarget, StoredItem } from '../../src/store/corpus.js';
import { connectionOf } from '../../src/store/connection.js';
import { callApi } from '../api/call.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, vectorTraces } from './helpers.js';

let corpus: Corpus;
let dir: string;
let items: StoredItem[];
let targets: Map<number, RolloutTarget[]>;

beforeAll(async () => {
  ({ corpus, dir } = await corpusOf(vectorTraces().traces, 'stepscope-rollouts-'));
  const { set } = createEvalSet(corpus, { name: 'ro', task: 'rollout', perTrace: 2, maxSteps: 6, seed: 3 });
  items = [...corpus.iterateItems(set.id)];
  targets = corpus.rolloutTargets(items.map((i) => i.id));
});
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

const file = (name: string, lines: unknown[]) => {
  const p = join(dir, name);
  writeFileSync(p, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return p;
};
const truthOf = (it: StoredItem) => targets.get(it.id)!.map((t) => t.target);
/** A state that is not `text` but reads as one: another step's true state. */
const wrong = (text: string) =>
  [...targets.values()]
    .flat()
    .find((t) => t.target !== text && !t.target.startsWith('<|exit') && !t.target.startsWith('<|inv_exit'))!.target;

describe('rollout sets', () => {
  it('are whole trajectories of at most K actions per trace and direction, the same for the same seed', () => {
    expect(items.length).toBeGreaterThan(4);
    expect(new Set(items.map((i) => i.direction))).toEqual(new Set(['forward', 'inverse']));
    for (const it of items) {
      expect(it.actions.length).toBeGreaterThanOrEqual(1);
      expect(it.actions.length).toBeLessThanOrEqual(6);
      expect(targets.get(it.id)!.map((t) => t.step)).toEqual(it.actions.map((_, k) => k + 1));
    }
    const again = createEvalSet(corpus, { name: 'ro-again', task: 'rollout', perTrace: 2, maxSteps: 6, seed: 3 });
    const same = [...corpus.iterateItems(again.set.id)];
    expect(same.map((i) => [i.key, i.actions, i.prompt])).toEqual(items.map((i) => [i.key, i.actions, i.prompt]));
    corpus.deleteEvalSet(again.set.id);
  });

  it('step k of an item is the next-state item its first k actions cut: the same truth, text and node', () => {
    const traces = new Traces(corpus);
    for (const it of items) {
      const ts = targets.get(it.id)!;
      it.actions.forEach((_, k) => {
        const ns = cutItem(traces, it.traceId, it.direction, it.entry, it.actions.slice(0, k + 1), 'x');
        expect(ts[k].target).toBe(ns.target);
        expect(ts[k].truth).toEqual(ns.truth);
        expect([ts[k].targetNode, ts[k].targetSeq]).toEqual([ns.targetNode, ns.targetSeq]);
        if (k === 0) expect([it.prompt, it.target]).toEqual([ns.prompt, ns.target]);
      });
      // Rolling out the truth rebuilds the trajectory's serialized text.
      const trace = loadTrace(corpus, it.traceId);
      const text = serialize(
        trace.index,
        walk(traces.scope(it.traceId, it.entry), it.direction, it.actions),
        contextFor(it.direction, trace.record),
      );
      let prompt = it.prompt;
      ts.forEach((t, k) => {
        expect(text.startsWith(prompt + t.target)).toBe(true);
        if (k + 1 < ts.length) prompt = nextPrompt(prompt, t.target, it.actions[k + 1]);
      });
    }
  });
});

describe('sets made from rollout sets', () => {
  it('--prefixes-of takes a rollout set only; evalset import takes an exported rollout set back', () => {
    expect(() => createEvalSet(corpus, { name: 'p', task: 'next-state', prefixesOf: 'nope' })).toThrow(
      /--prefixes-of: "nope" is not a rollout set/,
    );
    const set = corpus.getEvalSet('ro')!;
    const path = file('ro-export.jsonl', [exportLine(set, items[0], targets.get(items[0].id))]);
    const again = importEvalSet(corpus, path, 'again').set;
    const [it] = [...corpus.iterateItems(again.id)];
    expect([again.task, it.key, it.prompt, it.actions]).toEqual([
      'rollout',
      items[0].key,
      items[0].prompt,
      items[0].actions,
    ]);
    expect(corpus.rolloutTargets([it.id]).get(it.id)).toEqual(targets.get(items[0].id));
    corpus.deleteEvalSet(again.id);
  });
});

describe('rollouts imported and shown', () => {
  let api: ReturnType<typeof createApi>;
  beforeAll(() => {
    api = createApi(corpus);
  });

  it('scores each state against its step; first divergence, healing and accuracy by step follow', async () => {
    const long = items.filter((i) => i.actions.length >= 3);
    expect(long.length).toBeGreaterThanOrEqual(3);
    const [healed, broken, short, ...rest] = long;
    const lines = [
      // wrong at step 2 only: healed
      { id: healed.id, states: truthOf(healed).map((t, k) => (k === 1 ? wrong(t) : t)) },
      // wrong from step 2 on
      { id: broken.id, states: truthOf(broken).map((t, k) => (k >= 1 ? wrong(t) : t)) },
      // right, but stops after step 1
      { id: short.id, states: truthOf(short).slice(0, 1) },
      ...rest.map((it) => ({ id: it.id, states: truthOf(it) })),
    ];
    importPredictions(corpus, { file: file('roll.jsonl', lines), set: 'ro', label: 'm' });
    const [run] = await callApi(api, 'getRollouts', { set: 'ro' });
    expect(run).toMatchObject({ set: 'ro', model: 'm', rollouts: long.length, answered: long.length, healed: 1 });
    const of = (id: number) => run.items.find((r) => r.id === id)!;
    expect(of(healed.id)).toMatchObject({ first_divergence: 2, healed: true, steps_right: healed.actions.length - 1 });
    expect(of(broken.id)).toMatchObject({ first_divergence: 2, healed: false, steps_right: 1, stopped: 'end' });
    expect(of(short.id)).toMatchObject({ first_divergence: 2, healed: false, steps_right: 1, stopped: 'short' });
    expect(of(short.id).steps[1]).toMatchObject({ predicted: null, right: false, em: null });
    for (const it of rest) expect(of(it.id)).toMatchObject({ first_divergence: null, healed: false });
    // The ghost's place: each step names the true node it should equal.
    const h = of(healed.id).steps[1];
    expect(h).toMatchObject({
      step: 2,
      right: false,
      target: truthOf(healed)[1],
      predicted: wrong(truthOf(healed)[1]),
    });
    expect(h.target_node).toBe(targets.get(healed.id)![1].targetNode);
    expect(h.em).toMatchObject({ all: false });
    expect(run.by_step[0]).toMatchObject({ step: 1, rollouts: long.length, right: long.length, accuracy: 100 });
    expect(run.by_step[1]).toMatchObject({ step: 2, rollouts: long.length, right: long.length - 3 });
    expect(run.first_divergence).toEqual([
      { step: 2, rollouts: 3 },
      { step: null, rollouts: long.length - 3 },
    ]);
    // No next-state run of label m yet: no teacher-forced figures.
    expect(run.teacher_forced_sets).toEqual([]);
    expect(run.by_step[0].teacher_forced).toBeNull();
    // The prediction row summarises: em_all only for the rollouts right at every step.
    const preds = [...corpus.iteratePredictions({ setId: corpus.getEvalSet('ro')!.id })];
    expect(
      preds
        .filter((p) => p.em.all)
        .map((p) => p.itemId)
        .sort(),
    ).toEqual(rest.map((i) => i.id).sort());
  });

  it('puts the teacher-forced answers of the same label at the same positions beside them', async () => {
    createEvalSet(corpus, { name: 'ro-tf', task: 'next-state', prefixesOf: 'ro' });
    const tf = [...corpus.iterateItems(corpus.getEvalSet('ro-tf')!.id)];
    expect(tf.length).toBe(items.reduce((n, i) => n + i.actions.length, 0));
    // Right everywhere but at step 2 of every item.
    const lines = tf.map((it) => ({ id: it.id, completion: it.key.endsWith('/2') ? wrong(it.target) : it.target }));
    importPredictions(corpus, { file: file('tf.jsonl', lines), set: 'ro-tf', label: 'm' });
    const [run] = await callApi(api, 'getRollouts', { set: 'ro', run: 'm' });
    expect(run.teacher_forced_sets).toEqual(['ro-tf']);
    expect(run.by_step[0]).toMatchObject({ teacher_forced: 100, teacher_forced_items: run.rollouts });
    expect(run.by_step[1]).toMatchObject({ teacher_forced: 0, teacher_forced_right: 0 });
    expect(run.items[0].steps[1].teacher_forced).toBe(false);
    expect(run.items[0].steps[0].teacher_forced).toBe(true);
    // One trace's rollouts only (what the explorer asks for the trace it shows).
    const one = items[0].traceId;
    const [ofTrace] = await callApi(api, 'getRollouts', { set: 'ro', run: 'm', traceId: one });
    expect(ofTrace.items.length).toBeGreaterThan(0);
    expect(ofTrace.items.map((i) => i.trace_id)).toEqual(ofTrace.items.map(() => one));
    expect(ofTrace.items.map((i) => i.id)).toEqual(run.items.filter((i) => i.trace_id === one).map((i) => i.id));
  });

  it('refuses a bad file naming its line and what was expected, and stores nothing', () => {
    const it = items[0];
    const n = it.actions.length;
    const cases: [unknown[], RegExp][] = [
      [[{ id: it.id, states: truthOf(it) }, 'nope'], /bad\.jsonl:2: expected a JSON object like \{"id": 17, "states"/],
      [[{ id: it.id, completion: 'x' }], /bad\.jsonl:1: expected "states" \(a list/],
      [[{ id: it.id, states: [] }], /bad\.jsonl:1: expected "states" to be a non-empty list of strings/],
      [[{ id: it.id, states: ['a', 5] }], /bad\.jsonl:1: expected "states"\[1\] to be a string, got 5/],
      [[{ id: 999999, states: ['a'] }], /bad\.jsonl:1: unknown item 999999/],
      [
        [{ id: it.id, states: [...truthOf(it), 'x'] }],
        new RegExp(`bad\\.jsonl:1: expected at most ${n} states for item ${it.id}`),
      ],
    ];
    for (const [lines, message] of cases) {
      expect(() => importPredictions(corpus, { file: file('bad.jsonl', lines), set: 'ro', label: 'bad' })).toThrow(
        message,
      );
      expect(corpus.getRun(corpus.getEvalSet('ro')!.id, 'bad')).toBeUndefined();
    }
  });

  it('goes with its run and its set: deleting them deletes the predicted and the true steps', () => {
    const db = connectionOf(corpus);
    const count = (t: string) => db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number;
    const setId = corpus.getEvalSet('ro')!.id;
    const run = corpus.getRun(setId, 'm')!;
    const steps = count('rollout_steps');
    expect(steps).toBeGreaterThan(0);
    corpus.deleteRun(run.id);
    expect(count('rollout_steps')).toBe(0);
    expect(count('rollout_targets')).toBeGreaterThan(0);
    corpus.deleteEvalSet(setId);
    expect(count('rollout_targets')).toBe(0);
  });

  it('is refused for a set that is not a rollout set', async () => {
    await expect(callApi(api, 'getRollouts', { set: 'ro-tf' })).rejects.toThrow(
      /bad-input: "ro-tf" is a next-state set, not a rollout set/,
    );
  });
});
