// The tests' own API calls (call.ts): a call that succeeds gives the method's value, one that
// fails throws `code: message`, and the typed dispatch answers as the API's own does.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApi, dispatch as dispatchAny } from '../../src/api/handlers/index.js';
import { openCorpus, type Corpus } from '../../src/store/corpus.js';
import { cleanTempDirs, tempDir, writeTraces } from '../store/fixtures.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';
import { callApi, dispatch } from './call.js';

let corpus: Corpus;

beforeAllOrFail(async () => {
  const dir = tempDir('stepscope-api-call-');
  corpus = openCorpus(join(dir, 'c.db'), { create: true });
  await corpus.ingest(writeTraces(dir, 't.jsonl', [{ name: 'sum_3', n: 3 }]));
});
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

describe('callApi', () => {
  it("gives a successful call's value, and throws code: message for a failed one", async () => {
    const api = createApi(corpus);
    const list = await callApi(api, 'listTraces', {});
    expect(list.total).toBe(1);
    expect(list.rows.map((r) => r.name)).toEqual(['sum_3']);
    await expect(callApi(api, 'getTrace', { id: 999 })).rejects.toThrow('not-found: no trace with id 999');
  });
});

describe('dispatch', () => {
  it("answers exactly as the API's dispatch", async () => {
    const api = createApi(corpus);
    for (const [m, p] of [
      ['listTraces', {}],
      ['getTrace', { id: 1 }],
      ['getTrace', { id: 999 }],
      ['nosuch', {}],
    ] as const) {
      expect(await dispatch(api, m, p)).toEqual(await dispatchAny(api, m, p));
    }
  });
});
