// stepscope predict against a local OpenAI-compatible server answering from the ground
// truth: every answer stored and scored, through stalls, 500s and dropped connections;
// resumable after an abort, after Ctrl+C and after the process was killed. Then, on a corpus
// of its own, `predict` at its edges: the settings a run is stored with (defaults, given values,
// the seed only when given), settings refused before anything is stored, a label already taken
// by an imported run, a set of more than one page of items (256), and the counts told at the
// start of a resumed run.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/common/errors.js';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import { predict, type PredictOptions } from '../../src/predictions/predict.js';
import { openCorpus, type Corpus, type EvalSetRecord, type StoredItem } from '../../src/store/corpus.js';
import { ensureBuilt, repoRoot } from '../cli/helpers.js';
import { fakeServers, quick } from '../model/helpers.js';
import { record } from '../semantics/helpers.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, fileWriter, vectorTraces } from './helpers.js';

const serve = fakeServers();
let corpus: Corpus;
let path: string;
let items: StoredItem[];
/** prompt → the true target: what a perfect model answers. */
let truth: Record<string, string>;

beforeAll(async () => {
  ({ corpus, path } = await corpusOf(vectorTraces().traces));
  const { set } = createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: 3 });
  items = [...corpus.iterateItems(set.id)];
  truth = Object.fromEntries(items.map((i) => [i.prompt, i.target]));
});
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

const options = (url: string, label: string, more: Partial<PredictOptions> = {}): PredictOptions => ({
  set: 'ns',
  label,
  settings: { endpoint: url, model: 'fake-model', timeoutMs: 2000, retries: 4 },
  backoff: quick,
  concurrency: 4,
  ...more,
});

/** The run's predictions: each item once, with its verdict. */
function stored(label: string) {
  const set = corpus.getEvalSet('ns')!;
  const run = corpus.getRun(set.id, label)!;
  const preds = [...corpus.iteratePredictions({ setId: set.id, runId: run.id })];
  return { run, preds, items: new Set(preds.map((p) => p.itemId)) };
}

describe('predict', () => {
  it('stores every answer, scored, through stalls, 500s, 429s and dropped connections', async () => {
    const fake = await serve({
      answers: truth,
      faults: [
        { fault: 'stall', times: 2 },
        { fault: 'status', status: 500, times: 3 },
        { fault: 'status', status: 429, retryAfter: 0, times: 1 },
        { fault: 'drop', times: 2 },
        { fault: 'reset', times: 1 },
      ],
    });
    const r = await predict(
      corpus,
      options(fake.url, 'faulty', {
        settings: { endpoint: fake.url, model: 'fake-model', timeoutMs: 300, retries: 6 },
      }),
    );
    expect(r.summary).toMatchObject({ outcome: 'complete', answered: items.length, failed: 0, unanswered: 0 });
    expect(r.summary.retries).toBeGreaterThanOrEqual(9);
    const s = stored('faulty');
    expect(s.preds).toHaveLength(items.length);
    expect(s.items.size).toBe(items.length);
    expect(s.preds.every((p) => p.em.all === true && p.finish === 'stop')).toBe(true);
    expect(s.run).toMatchObject({
      format: 'state',
      source: fake.url,
      sourceHash: null,
      params: { model: 'fake-model', temperature: 0, samples: 1 },
    });
    // The raw prompt went out, with the stop strings.
    expect(fake.requests[0].body).toMatchObject({ stop: ['<|action_sep|>', '<|trace_end|>'] });
    expect(Object.hasOwn(truth, fake.requests[0].body.prompt)).toBe(true);
  });

  it('k samples per item: one prediction per sample', async () => {
    const fake = await serve({ answer: ({ prompt, sample }) => (sample === 0 ? truth[prompt] : 'junk') });
    const r = await predict(corpus, options(fake.url, 'k3', { samples: 3 }));
    expect(r.summary.answered).toBe(items.length);
    const s = stored('k3');
    expect(s.preds).toHaveLength(3 * items.length);
    expect(s.preds.filter((p) => p.sample === 0).every((p) => p.em.all)).toBe(true);
    expect(s.preds.filter((p) => p.sample > 0).every((p) => p.formatError)).toBe(true);
  });

  it('resumes after an abort: answers kept, only the rest asked for', async () => {
    const stop = new AbortController();
    const first = await serve({ answers: truth });
    const half = Math.floor(items.length / 2);
    const r = await predict(
      corpus,
      options(first.url, 'resume', {
        concurrency: 1,
        signal: stop.signal,
        onProgress: (p) => p.answered >= half && stop.abort(),
      }),
    );
    expect(r.summary.outcome).toBe('aborted');
    const kept = stored('resume').items;
    expect(kept.size).toBeGreaterThanOrEqual(half);
    expect(kept.size).toBeLessThan(items.length);

    const second = await serve({ answers: truth });
    const again = await predict(corpus, options(second.url, 'resume'));
    expect(again.resumed).toBe(kept.size);
    expect(second.requests).toHaveLength(items.length - kept.size);
    const asked = new Set(second.requests.map((q) => q.body.prompt));
    for (const it of items) expect(asked.has(it.prompt)).toBe(!kept.has(it.id));
    const s = stored('resume');
    expect(s.preds).toHaveLength(items.length);
    expect(s.preds.every((p) => p.em.all)).toBe(true);
  });

  it('items that fail for good stay unanswered; the next run asks for them only', async () => {
    const bad = items[2].prompt;
    const fake = await serve({ answers: truth, faults: [{ fault: 'status', status: 500, match: bad, times: 100 }] });
    const r = await predict(
      corpus,
      options(fake.url, 'fail', { settings: { endpoint: fake.url, model: 'fake-model', retries: 1 } }),
    );
    expect(r.summary).toMatchObject({ outcome: 'complete', failed: 1, unanswered: 1 });
    expect(stored('fail').items.has(items[2].id)).toBe(false);
    const healthy = await serve({ answers: truth });
    await predict(corpus, options(healthy.url, 'fail'));
    expect(healthy.requests.map((q) => q.body.prompt)).toEqual([bad]);
    expect(stored('fail').preds).toHaveLength(items.length);
  });

  it('refuses to resume a run with other settings, and an imported label', async () => {
    const fake = await serve({ answers: truth });
    await expect(
      predict(
        corpus,
        options(fake.url, 'resume', { settings: { endpoint: fake.url, model: 'fake-model', temperature: 0.6 } }),
      ),
    ).rejects.toThrow(/already has a run labelled "resume" made with other settings .*--replace/);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('stepscope predict (the command)', () => {
  const run = (args: string[], env = process.env) =>
    spawn(
      process.execPath,
      [join(repoRoot, 'bin/stepscope.js'), 'predict', '--db', path, '--set', 'ns', '--model', 'fake-model', ...args],
      { cwd: repoRoot, env },
    );
  /** The command to its end; asynchronously, as the fake server runs in this process. */
  const cli = async (args: string[], env = process.env) => {
    const p = run(args, env);
    let stdout = '';
    let stderr = '';
    p.stdout!.on('data', (d) => (stdout += d));
    p.stderr!.on('data', (d) => (stderr += d));
    return { status: await exited(p), stdout, stderr };
  };
  const count = (label: string) => {
    const c = openCorpus(path, { readonly: true });
    try {
      const set = c.getEvalSet('ns')!;
      return c.getRun(set.id, label)?.predictions ?? 0;
    } finally {
      c.close();
    }
  };
  const until = async (f: () => boolean) => {
    while (!f()) await new Promise((r) => setTimeout(r, 50));
  };
  const exited = (p: ReturnType<typeof spawn>) =>
    new Promise<number | null>((r) => p.on('exit', (code, signal) => r(code ?? (signal ? -1 : null))));

  it('killed mid-run, then run again: nothing lost, nothing asked twice', async () => {
    ensureBuilt();
    const fake = await serve({ answers: truth, faults: [{ fault: 'delay', ms: 150, times: 1000 }] });
    const p = run(['--endpoint', fake.url, '--label', 'killed', '--concurrency', '1']);
    await until(() => count('killed') >= 3);
    p.kill('SIGKILL');
    await exited(p);
    const before = count('killed');
    expect(before).toBeLessThan(items.length);
    const asked = fake.requests.length;

    const second = await cli(['--endpoint', fake.url, '--label', 'killed']);
    expect(second.status, second.stderr).toBe(0);
    expect(second.stderr).toContain(`resuming: ${before} items already answered`);
    expect(count('killed')).toBe(items.length);
    // At most the one request in flight when it was killed is asked again.
    expect(fake.requests.length - asked).toBeLessThanOrEqual(items.length - before + 1);
  }, 60_000);

  it('Ctrl+C stops cleanly (exit 130) keeping every answer; running again finishes', async () => {
    const fake = await serve({ answers: truth, faults: [{ fault: 'delay', ms: 150, times: 1000 }] });
    const p = run(['--endpoint', fake.url, '--label', 'ctrl-c', '--concurrency', '1']);
    const err: string[] = [];
    p.stderr!.on('data', (d) => err.push(String(d)));
    await until(() => count('ctrl-c') >= 2);
    p.kill('SIGINT');
    expect(await exited(p)).toBe(130);
    expect(err.join('')).toMatch(/stopping/);
    const kept = count('ctrl-c');
    expect(kept).toBeGreaterThanOrEqual(2);
    const second = await cli(['--endpoint', fake.url, '--label', 'ctrl-c']);
    expect(second.status, second.stderr).toBe(0);
    expect(count('ctrl-c')).toBe(items.length);
  }, 60_000);

  it('reads the API key from the environment only', async () => {
    const fake = await serve({ answers: truth, apiKey: 'sekrit' });
    const missing = await cli(['--endpoint', fake.url, '--label', 'key', '--api-key-env', 'MY_KEY']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/MY_KEY is not set/);
    expect(fake.requests).toHaveLength(0);
    expect(count('key')).toBe(0);
    const ok = await cli(['--endpoint', fake.url, '--label', 'key', '--api-key-env', 'MY_KEY'], {
      ...process.env,
      MY_KEY: 'sekrit',
    });
    expect(ok.status, ok.stderr).toBe(0);
    expect(fake.requests.at(-1)!.authorization).toBe('Bearer sekrit');
    expect(count('key')).toBe(items.length);
    const c = openCorpus(path, { readonly: true });
    try {
      expect(JSON.stringify(c.listRuns())).not.toContain('sekrit');
    } finally {
      c.close();
    }
  }, 60_000);
});

describe('predict at its edges: stored settings, refusals, a set of many pages, a resumed run', () => {
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
  // The file's afterAll removes the temporary folders.
  afterAll(() => corpus.close());

  const options = (
    url: string,
    set: EvalSetRecord,
    label: string,
    more: Partial<PredictOptions> = {},
  ): PredictOptions => ({
    set: set.name,
    label,
    settings: { endpoint: url, model: 'fake-model', timeoutMs: 5000, retries: 2 },
    backoff: quick,
    concurrency: 8,
    ...more,
  });
  const items = (set: EvalSetRecord): StoredItem[] => [...corpus.iterateItems(set.id)];

  /** The rejection of `p`: a UserError. */
  async function refusal(p: Promise<unknown>): Promise<UserError> {
    const e = await p.then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(UserError);
    return e as UserError;
  }

  describe('predict: the settings a run is stored with', () => {
    it('the defaults when none are given, without a seed; the values given, with the seed', async () => {
      const fake = await serve({ answers: truth });
      const plain = await predict(corpus, options(fake.url, small, 'defaults'));
      expect(plain.run.params).toEqual({ model: 'fake-model', temperature: 0, top_p: 1, max_tokens: 512, samples: 1 });
      const given = await predict(
        corpus,
        options(fake.url, small, 'given', {
          samples: 2,
          settings: { endpoint: fake.url, model: 'fake-model', temperature: 0.5, topP: 0.9, maxTokens: 64, seed: 7 },
        }),
      );
      expect(given.run.params).toEqual({
        model: 'fake-model',
        temperature: 0.5,
        top_p: 0.9,
        max_tokens: 64,
        samples: 2,
        seed: 7,
      });
    });
  });

  describe('predict: refusals before anything is stored or sent', () => {
    it('an API key variable that is not set', async () => {
      const fake = await serve({ answers: truth });
      const e = await refusal(
        predict(
          corpus,
          options(fake.url, small, 'nokey', {
            env: {},
            settings: { endpoint: fake.url, model: 'fake-model', apiKeyEnv: 'STEPSCOPE_UNSET_KEY' },
          }),
        ),
      );
      expect(e.code).toBe('bad-input');
      expect(e.message).toMatch(/STEPSCOPE_UNSET_KEY is not set/);
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
      expect(e.message).toBe(
        `small already has a run labelled "imported", imported from ${f}; give another --label, or --replace to replace it`,
      );
      expect(fake.requests).toHaveLength(0);
      expect(corpus.getRun(small.id, 'imported')).toEqual(before);
    });
  });

  describe('predict: a set of more than one page of items', () => {
    it('asks for every item once; a resumed run is told how many are left and how many were answered', async () => {
      const all = items(big);
      expect(all.length).toBeGreaterThan(256);
      // An item of the second page whose prompt no other prompt contains (the fault matches by substring).
      const bad = all
        .slice(256)
        .map((i) => i.prompt)
        .find((p) => all.filter((o) => o.prompt.includes(p)).length === 1)!;
      expect(bad).toBeDefined();
      const first = await serve({ answers: truth, faults: [{ fault: 'status', status: 500, match: bad, times: 100 }] });
      const r = await predict(
        corpus,
        options(first.url, big, 'pages', { settings: { endpoint: first.url, model: 'fake-model', retries: 0 } }),
      );
      expect(r.summary).toMatchObject({ answered: all.length - 1, failed: 1 });
      const asked = first.requests.map((q) => q.body.prompt as string);
      expect(new Set(asked)).toEqual(new Set(all.map((i) => i.prompt)));
      expect(asked.filter((p) => p !== bad)).toHaveLength(all.length - 1);

      const second = await serve({ answers: truth });
      const starts: [number, number][] = [];
      const again = await predict(
        corpus,
        options(second.url, big, 'pages', { onStart: (todo, answered) => starts.push([todo, answered]) }),
      );
      expect(starts).toEqual([[1, all.length - 1]]);
      expect(again.resumed).toBe(all.length - 1);
      expect(second.requests.map((q) => q.body.prompt)).toEqual([bad]);
      expect(corpus.getRun(big.id, 'pages')!.predictions).toBe(all.length);
    }, 60_000);
  });
});
