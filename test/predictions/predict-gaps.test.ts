// `predict` at its edges (gaps the mutation run of src/predictions found): the settings a run
// is stored with (defaults, given values, the seed only when given), settings refused before
// anything is stored, a label already taken by an imported run, a set of more than one page of
// items (256), and the counts told at the start of a resumed run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/common/errors.js';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import { predict, type PredictOptions } from '../../src/predictions/predict.js';
import type { Corpus, EvalSetRecord, StoredItem } from '../../src/store/corpus.js';
import { fakeServers, quick } from '../model/helpers.js';
import { record } from '../semantics/helpers.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, fileWriter } from './helpers.js';

const serve = fakeServers();
let corpus: Corpus;
let file: (text: string) => string;
let small: EvalSetRecord;
let big: EvalSetRecord;
/** prompt → the true target, over both sets. */
const truth: Record<string, string> = {};

beforeAll(async () => {
  let dir: string;
  ({ corpus, dir } = await corpusOf([record('def f(x):\n    y = x + 1\n    return y\n', 'f(1)')]));
  file = fileWriter(dir, 'p', 'jsonl');
  small = createEvalSet(corpus, { name: 'small', task: 'next-state', perAction: 1, seed: 1 }).set;
  // More items than one page of the unanswered-items reader (256).
  big = createEvalSet(corpus, { name: 'big', task: 'next-state', perAction: 40, seed: 1 }).set;
  for (const s of [small, big]) for (const it of corpus.iterateItems(s.id)) truth[it.prompt] = it.target;
}, 120_000);
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

const options = (url: string, set: EvalSetRecord, label: string, more: Partial<PredictOptions> = {}): PredictOptions => ({
  set: set.name, label, settings: { endpoint: url, model: 'fake-model', timeoutMs: 5000, retries: 2 }, backoff: quick, concurrency: 8, ...more,
});
const items = (set: EvalSetRecord): StoredItem[] => [...corpus.iterateItems(set.id)];

/** The rejection of `p`: a UserError. */
async function refusal(p: Promise<unknown>): Promise<UserError> {
  const e = await p.then(() => null, (x: unknown) => x);
  expect(e).toBeInstanceOf(UserError);
  return e as UserError;
}

describe('predict: the settings a run is stored with', () => {
  it('the defaults when none are given, without a seed; the values given, with the seed', async () => {
    const fake = await serve({ answers: truth });
    const plain = await predict(corpus, options(fake.url, small, 'defaults'));
    expect(plain.run.params).toEqual({ model: 'fake-model', temperature: 0, top_p: 1, max_tokens: 512, samples: 1 });
    const given = await predict(corpus, options(fake.url, small, 'given', {
      samples: 2, settings: { endpoint: fake.url, model: 'fake-model', temperature: 0.5, topP: 0.9, maxTokens: 64, seed: 7 },
    }));
    expect(given.run.params).toEqual({ model: 'fake-model', temperature: 0.5, top_p: 0.9, max_tokens: 64, samples: 2, seed: 7 });
  });
});

describe('predict: refusals before anything is stored or sent', () => {
  it('an API key variable that is not set', async () => {
    const fake = await serve({ answers: truth });
    const e = await refusal(predict(corpus, options(fake.url, small, 'nokey', {
      env: {}, settings: { endpoint: fake.url, model: 'fake-model', apiKeyEnv: 'STEPSCOPE_GAPS_KEY' },
    })));
    expect(e.code).toBe('bad-input');
    expect(e.message).toMatch(/STEPSCOPE_GAPS_KEY is not set/);
    expect(corpus.getRun(small.id, 'nokey')).toBeUndefined();
    expect(fake.requests).toHaveLength(0);
  });

  it('a label taken by an imported run, named with its file', async () => {
    const [first] = items(small);
    const f = file(JSON.stringify({ id: first.id, completion: first.target }));
    importPredictions(corpus, { file: f, set: 'small', label: 'imported' });
    const before = corpus.getRun(small.id, 'imported')!;
    const fake = await serve({ answers: truth });
    const e = await refusal(predict(corpus, options(fake.url, small, 'imported')));
    expect(e.code).toBe('bad-input');
    expect(e.message).toBe(`small already has a run labelled "imported", imported from ${f}; give another --label, or --replace to replace it`);
    expect(fake.requests).toHaveLength(0);
    expect(corpus.getRun(small.id, 'imported')).toEqual(before);
  });
});

describe('predict: a set of more than one page of items', () => {
  it('asks for every item once; a resumed run is told how many are left and how many were answered', async () => {
    const all = items(big);
    expect(all.length).toBeGreaterThan(256);
    // An item of the second page whose prompt no other prompt contains (the fault matches by substring).
    const bad = all.slice(256).map((i) => i.prompt).find((p) => all.filter((o) => o.prompt.includes(p)).length === 1)!;
    expect(bad).toBeDefined();
    const first = await serve({ answers: truth, faults: [{ fault: 'status', status: 500, match: bad, times: 100 }] });
    const r = await predict(corpus, options(first.url, big, 'pages', { settings: { endpoint: first.url, model: 'fake-model', retries: 0 } }));
    expect(r.summary).toMatchObject({ answered: all.length - 1, failed: 1 });
    const asked = first.requests.map((q) => q.body.prompt as string);
    expect(new Set(asked)).toEqual(new Set(all.map((i) => i.prompt)));
    expect(asked.filter((p) => p !== bad)).toHaveLength(all.length - 1);

    const second = await serve({ answers: truth });
    const starts: [number, number][] = [];
    const again = await predict(corpus, options(second.url, big, 'pages', { onStart: (todo, answered) => starts.push([todo, answered]) }));
    expect(starts).toEqual([[1, all.length - 1]]);
    expect(again.resumed).toBe(all.length - 1);
    expect(second.requests.map((q) => q.body.prompt)).toEqual([bad]);
    expect(corpus.getRun(big.id, 'pages')!.predictions).toBe(all.length);
  }, 60_000);
});
