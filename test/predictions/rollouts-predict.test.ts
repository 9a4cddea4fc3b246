// stepscope predict on a rollout set, against the fake server answering rollouts from the truth with errors injected
// at chosen steps: each prompt continues the model's own answer (not the truth), the rollout stops at the last action,
// an exit token or a format error, the first divergence and healing come out where the errors were put, and a run
// cut short resumes with only the missing items.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi } from '../../src/api/handlers/index.js';
import { createEvalSet } from '../../src/predictions/create.js';
import { predict, type PredictOptions } from '../../src/predictions/predict.js';
import { nextPrompt } from '../../src/predictions/rollout-score.js';
import { exportLine } from '../../src/predictions/views.js';
import type { Corpus, EvalSetRecord, RolloutTarget, StoredItem } from '../../src/store/corpus.js';
import { wrongState, type RolloutItem } from '../../scripts/fake-model-server.mjs';
import { callApi } from '../api/call.js';
import { fakeServers, quick } from '../model/helpers.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, vectorTraces } from './helpers.js';

const serve = fakeServers();
let corpus: Corpus;
let set: EvalSetRecord;
let items: StoredItem[];
let targets: Map<number, RolloutTarget[]>;

beforeAll(async () => {
  ({ corpus } = await corpusOf(vectorTraces().traces, 'stepscope-rollouts-predict-'));
  set = createEvalSet(corpus, { name: 'ro', task: 'rollout', perTrace: 2, maxSteps: 5, seed: 7 }).set;
  items = [...corpus.iterateItems(set.id)];
  targets = corpus.rolloutTargets(items.map((i) => i.id));
});
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

/** The set as `evalset export` writes it: what the fake server is given. */
const exported = (): RolloutItem[] =>
  items.map((it) => exportLine(set, it, targets.get(it.id)) as unknown as RolloutItem);
const truth = (it: StoredItem) => targets.get(it.id)!.map((t) => t.target);
const options = (url: string, label: string, more: Partial<PredictOptions> = {}): PredictOptions => ({
  set: 'ro',
  label,
  settings: { endpoint: url, model: 'fake-model', timeoutMs: 2000, retries: 1 },
  backoff: quick,
  concurrency: 4,
  ...more,
});
/** Items of at least 4 actions whose step 2 is not an exit and whose prompt no other item's starts with. */
const chosen = () =>
  items.filter(
    (it) =>
      it.actions.length >= 4 &&
      !truth(it)[1].startsWith('<|exit') &&
      items.filter((o) => o.prompt.startsWith(it.prompt)).length === 1,
  );

describe('predict on a rollout set', () => {
  it('rolls out on its own answers and stops where it should; divergence and healing are where errors were put', async () => {
    const [healing, breaking, unreadable, exiting] = chosen();
    expect(exiting).toBeDefined();
    const rollouts = exported().map((r) => ({
      ...r,
      errors:
        r.id === healing.id
          ? [{ step: 2, then: 'right' as const }]
          : r.id === breaking.id
            ? [{ step: 2, then: 'wrong' as const }]
            : r.id === unreadable.id
              ? [{ step: 2, then: 'format' as const }]
              : [],
    }));
    // An exit token answered at step 2 (exact prompts are answered first).
    const exitAt2 = nextPrompt(exiting.prompt, truth(exiting)[0], exiting.actions[1]);
    const fake = await serve({ rollouts, answers: { [exitAt2]: '<|exit_normal|>' } });
    const r = await predict(corpus, options(fake.url, 'fake'));
    expect(r.summary).toMatchObject({ outcome: 'complete', answered: items.length, failed: 0 });

    // Step 3 of the broken rollout was asked with the model's own (wrong) step 2, not the truth.
    const t = truth(breaking);
    const step2 = nextPrompt(breaking.prompt, t[0], breaking.actions[1]);
    const step3 = nextPrompt(step2, wrongState(t[1]), breaking.actions[2]);
    const prompts = fake.requests.map((q) => q.body.prompt as string);
    expect(prompts).toContain(step3);
    expect(prompts).not.toContain(nextPrompt(step2, t[1], breaking.actions[2]));
    // One request per step reached: nothing asked after an exit token or an unreadable state.
    expect(prompts.filter((p) => p.startsWith(unreadable.prompt))).toHaveLength(2);
    expect(prompts.filter((p) => p.startsWith(exiting.prompt))).toHaveLength(2);

    const [run] = await callApi(createApi(corpus), 'getRollouts', { set: 'ro', run: 'fake' });
    const of = (id: number) => run.items.find((i) => i.id === id)!;
    expect(of(healing.id)).toMatchObject({ first_divergence: 2, healed: true, stopped: 'end' });
    expect(of(healing.id).steps_right).toBe(healing.actions.length - 1);
    expect(of(breaking.id)).toMatchObject({ first_divergence: 2, healed: false, steps_right: 1, stopped: 'end' });
    expect(of(unreadable.id)).toMatchObject({ first_divergence: 2, stopped: 'format-error', steps_predicted: 2 });
    expect(of(unreadable.id).steps[1]).toMatchObject({ format_error: true, right: false });
    expect(of(exiting.id)).toMatchObject({ first_divergence: 2, stopped: 'exit', steps_predicted: 2 });
    const others = run.items.filter((i) => ![healing, breaking, unreadable, exiting].some((c) => c.id === i.id));
    for (const i of others) expect(i).toMatchObject({ first_divergence: null, stopped: 'end' });
    expect(run.first_divergence).toEqual([
      { step: 2, rollouts: 4 },
      { step: null, rollouts: items.length - 4 },
    ]);
  });

  it('keeps what arrived when an item fails for good, and asks only for the missing one when run again', async () => {
    const [lost] = chosen();
    const fake = await serve({
      rollouts: exported(),
      faults: [{ fault: 'status', status: 500, match: lost.prompt, times: 2 }],
    });
    const first = await predict(corpus, options(fake.url, 'resumed'));
    expect(first.summary).toMatchObject({ answered: items.length - 1, failed: 1 });
    const again = await serve({ rollouts: exported() });
    const second = await predict(corpus, options(again.url, 'resumed'));
    expect(second.resumed).toBe(items.length - 1);
    expect(second.summary).toMatchObject({ answered: 1, failed: 0 });
    expect(again.requests.every((q) => (q.body.prompt as string).startsWith(lost.prompt))).toBe(true);
    expect(again.requests).toHaveLength(lost.actions.length);
    const [run] = await callApi(createApi(corpus), 'getRollouts', { set: 'ro', run: 'resumed' });
    expect(run.answered).toBe(items.length);
    expect(run.items.every((i) => i.first_divergence === null)).toBe(true);
  });

  it('--samples K rolls each item out K times, each stored as a sample that getRollouts lists on its own', async () => {
    const [breaking] = chosen();
    const rollouts = exported().map((r) => ({
      ...r,
      errors: r.id === breaking.id ? [{ step: 2, then: 'wrong' as const }] : [],
    }));
    const fake = await serve({ rollouts });
    const r = await predict(corpus, options(fake.url, 'k', { samples: 3 }));
    expect(r.summary).toMatchObject({ outcome: 'complete', answered: items.length, failed: 0 });
    expect(corpus.getRun(set.id, 'k')!.params).toMatchObject({ samples: 3 });
    // One request per step per sample, each asking for one completion.
    const steps = items.reduce((n, it) => n + it.actions.length, 0);
    expect(fake.requests).toHaveLength(3 * steps);
    expect(fake.requests.every((q) => (q.body.n ?? 1) === 1)).toBe(true);
    const [run] = await callApi(createApi(corpus), 'getRollouts', { set: 'ro', run: 'k' });
    expect(run.rollouts).toBe(3 * items.length);
    expect(run.items.filter((i) => i.id === breaking.id).map((i) => [i.sample, i.first_divergence])).toEqual([
      [0, 2],
      [1, 2],
      [2, 2],
    ]);
    expect(run.first_divergence).toEqual([
      { step: 2, rollouts: 3 },
      { step: null, rollouts: 3 * (items.length - 1) },
    ]);
    expect(run.by_step[0]).toMatchObject({ step: 1, rollouts: 3 * items.length });
  });
});
