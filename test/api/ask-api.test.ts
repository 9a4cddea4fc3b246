// Checking a model at any state: checkCompletions cuts the prompt and target at the state
// the last action leads to (equal to the reference trajectory's text there, §6) and scores
// pasted completions; askModel asks an OpenAI-compatible server (the fake one, answering
// from the reference texts) and scores its answers; a server that is down is one clear line.
import { afterAll, describe, expect, it } from 'vitest';
import { createApi } from '../../src/api/handlers/index.js';
import type { Params, ReadMethod } from '../../src/contract/index.js';
import { formatAction } from '../../src/semantics/index.js';
import type { Corpus } from '../../src/store/corpus.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, vectors, vectorTraces, type Vector } from '../predictions/helpers.js';
import { closedPort, vectorPairs } from '../model/helpers.js';
import { startFakeModelServer, type FakeModelServer } from '../../scripts/fake-model-server.mjs';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';
import { dispatch } from './call.js';

let corpus: Corpus;
let api: ReturnType<typeof createApi>;
let traceOf: (v: Vector) => number;
let fake: FakeModelServer;

beforeAllOrFail(async () => {
  const vt = vectorTraces();
  traceOf = vt.traceOf;
  corpus = (await corpusOf(vt.traces)).corpus;
  api = createApi(corpus);
  fake = await startFakeModelServer({ continuations: vectors().map((v) => v.text) });
});
afterAll(async () => {
  await fake.close();
  corpus.close();
  cleanTempDirs();
});

const entryOf = (v: Vector) =>
  corpus.getEvents(traceOf(v)).find((e) => e.event === 'call' && e.func === v.entry_function)!.seq;
const at = (v: Vector, k: number) => ({
  traceId: traceOf(v),
  direction: v.direction,
  entry: entryOf(v),
  actions: v.actions.slice(0, k).map(formatAction),
});
const pair = (v: Vector, k: number) => vectorPairs().find((p) => p.id === `${v.name}#${k}`)!;

const call = <M extends ReadMethod>(m: M, p: Params<M>) => dispatch(api, m, p);

describe('checkCompletions', () => {
  it('cuts the prompt and target of the reference text at every action, and scores what is pasted', async () => {
    let n = 0;
    for (const v of vectors()) {
      for (let k = 1; k <= v.actions.length; k++) {
        const r = await api.checkCompletions({ ...at(v, k), completions: [pair(v, k).target, 'not a state'] });
        expect({ prompt: r.prompt, target: r.target }, `${v.name} #${k}`).toEqual({
          prompt: pair(v, k).prompt,
          target: pair(v, k).target,
        });
        expect(r.answers[0].em.all, `${v.name} #${k}`).toBe(true);
        expect(r.answers[0].parseError).toBeNull();
        expect(r.answers[1].em.all).toBe(false);
        expect(r.answers[1].parseError?.offset).toBe(0);
        n++;
      }
    }
    expect(n).toBeGreaterThan(40);
  });

  it('names the field a wrong local makes wrong, and keeps the others right', async () => {
    const v = vectors().find((x) => x.name === 'count-forward-step-into')!;
    const re = /"([^"]+)": "([^"]+)"/;
    const k = [...v.actions.keys()].map((j) => j + 1).find((j) => re.test(pair(v, j).target))!;
    expect(k, 'a state with a local').toBeGreaterThan(0);
    const truth = pair(v, k).target;
    const m = re.exec(truth);
    const wrong = truth.replace(m![0], `"${m![1]}": "${m![2]}9"`);
    const r = await api.checkCompletions({ ...at(v, k), completions: [wrong] });
    expect(r.answers[0].em).toMatchObject({ event: true, src: true, locals: false, all: false });
  });

  it('refuses an empty action list and a trace that does not exist', async () => {
    const v = vectors()[0];
    const empty = await call('checkCompletions', { ...at(v, 0), completions: [] });
    expect(empty).toMatchObject({ ok: false, error: { code: 'bad-input' } });
    // The refusal says why: the state asked for is the one after the last action.
    expect(empty.ok || empty.error.message).toBe(
      'checkCompletions.actions: expected at least one action (the state asked for follows the last one), got an array of 0 items',
    );
    const gone = await call('checkCompletions', { ...at(v, 1), traceId: 999, completions: [] });
    expect(gone).toMatchObject({ ok: false, error: { code: 'not-found', message: 'no trace with id 999' } });
  });
});

describe('askModel', () => {
  it('asks the server with the prompt and scores its k answers against the truth', async () => {
    const v = vectors().find((x) => x.name === 'count-inverse-step-into')!;
    const k = 3;
    const before = fake.requests.length;
    const r = await api.askModel({ ...at(v, k), endpoint: fake.url, model: 'debugger', samples: 2 });
    expect(fake.requests.slice(before).map((q) => q.body.prompt)).toContain(pair(v, k).prompt);
    expect(r.answers.map((a) => a.completion)).toEqual([pair(v, k).target, pair(v, k).target]);
    expect(r.answers.every((a) => a.em.all)).toBe(true);
  });

  it('a server that is down: one line naming the address, code unavailable', async () => {
    const port = await closedPort();
    const r = await call('askModel', { ...at(vectors()[0], 1), endpoint: `http://127.0.0.1:${port}`, model: 'm' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('unavailable');
    expect(r.error.message).toMatch(new RegExp(`^cannot reach http://127\\.0\\.0\\.1:${port}.*connection refused`));
    expect(r.error.message).not.toContain('\n');
  });

  it('a key variable that is not set: bad-input, nothing sent', async () => {
    const before = fake.requests.length;
    const r = await call('askModel', {
      ...at(vectors()[0], 1),
      endpoint: fake.url,
      model: 'm',
      apiKeyEnv: 'STEPSCOPE_TEST_UNSET_KEY',
    });
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'bad-input', message: expect.stringContaining('STEPSCOPE_TEST_UNSET_KEY is not set') },
    });
    expect(fake.requests.length).toBe(before);
  });
});
