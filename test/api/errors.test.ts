/**
 * Errors cross the API as {ok: false, error: {code, message}}: a UserError keeps its code,
 * a model server's ModelError is `bad-input` or `unavailable`, anything else is `internal` with
 * its message only; the server's own refusals use the same shape.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApi } from '../../src/api/handlers/index.js';
import { ModelError } from '../../src/model/index.js';
import { startServer, type Running } from '../../src/server/listen.js';
import { openCorpus, type Corpus } from '../../src/store/corpus.js';
import { cleanTempDirs, tempDir, writeTraces } from '../store/fixtures.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';
import { answerOf, dispatch } from './call.js';
import { ensureBuilt } from '../cli/helpers.js';

let corpus: Corpus;
let api: ReturnType<typeof createApi>;
let db: string;

beforeAllOrFail(async () => {
  const dir = tempDir('stepscope-api-errors-');
  db = join(dir, 'c.db');
  corpus = openCorpus(db, { create: true });
  await corpus.ingest(writeTraces(dir, 't.jsonl', [{ name: 'sum_3', n: 3 }]));
  api = createApi(corpus);
});
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

describe('error codes over the API', () => {
  it('names the kind of each user error', async () => {
    const code = async (m: string, p: unknown) => {
      const r = await dispatch(api, m, p);
      return r.ok ? 'ok' : r.error.code;
    };
    expect(await code('getTrace', { id: 999 })).toBe('not-found');
    expect(await code('listTrajectories', { traceId: 999 })).toBe('not-found');
    expect(await code('getTrajectory', { id: 5 })).toBe('not-found');
    expect(await code('listTraces', { exit: 'crashed' })).toBe('bad-input');
    expect(await code('walk', { traceId: 1, direction: 'forward', entry: 1, actions: [] })).toBe('bad-input');
    expect(await code('walk', { traceId: 1, direction: 'forward', actions: ['continue', 'step_into'] })).toBe(
      'bad-input',
    );
    expect(await code('nosuch', {})).toBe('bad-input');
    expect(await code('getTrace', { id: 1 })).toBe('ok');
  });

  it('gives an unexpected error the internal code and its message, no stack', async () => {
    const broken: typeof api = {
      ...api,
      getTrace: () => {
        throw new TypeError('cannot read x of undefined');
      },
    };
    expect(await dispatch(broken, 'getTrace', { id: 1 })).toEqual({
      ok: false,
      error: { code: 'internal', message: 'getTrace failed: cannot read x of undefined' },
    });
  });

  it("gives a model server's failure from any handler its one line: settings bad-input, else unavailable", async () => {
    const failing = (e: ModelError): typeof api => ({
      ...api,
      getTrace: () => {
        throw e;
      },
    });
    const refused = new ModelError('http', 'the server refused the key (HTTP 401)', 401);
    expect(await dispatch(failing(refused), 'getTrace', { id: 1 })).toEqual({
      ok: false,
      error: { code: 'unavailable', message: 'the server refused the key (HTTP 401)' },
    });
    const unset = new ModelError('config', 'the key variable MY_KEY is not set');
    expect(await dispatch(failing(unset), 'getTrace', { id: 1 })).toEqual({
      ok: false,
      error: { code: 'bad-input', message: 'the key variable MY_KEY is not set' },
    });
  });

  it('the server refuses with the same shape and a code', async () => {
    ensureBuilt(); // startServer's API runs in worker threads from the compiled dist/
    const running: Running = await startServer({ db, port: 0, uiDir: join(db, 'no-ui'), token: 'a-long-token-1' });
    try {
      const post = (headers: Record<string, string>) =>
        fetch(`${running.url}api/listTraces`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...headers },
          body: '{}',
        });
      const refused = await post({});
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({
        ok: false,
        error: { code: 'forbidden', message: 'missing or wrong token' },
      });
      const badJson = await fetch(`${running.url}api/listTraces`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer a-long-token-1' },
        body: '{',
      });
      const bad = await answerOf(badJson);
      expect(!bad.ok && bad.error.code).toBe('bad-input');
    } finally {
      await running.close();
    }
  });
});
