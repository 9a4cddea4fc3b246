/**
 * The API contract at the boundary: what a caller (the renderer, a script over HTTP) is told
 * when a method name or a param is wrong. Every message names the field, what was expected
 * and what came; a wrong call never reaches the corpus.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { accessOf, MAX_WALK_ACTIONS, METHODS, type Api } from '../../src/contract/index.js';
import { CSP, CSP_META } from '../../src/contract/transport.js';
import { createApi, createWriteApi, dispatch as dispatchAny } from '../../src/api/handlers/index.js';
import { openCorpus, type Corpus } from '../../src/store/corpus.js';
import { cleanTempDirs, tempDir, writeTraces } from '../store/fixtures.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';
import { dispatch } from './call.js';

let corpus: Corpus;
let api: Api;

beforeAllOrFail(async () => {
  const dir = tempDir('stepscope-api-contract-');
  corpus = openCorpus(join(dir, 'c.db'), { create: true });
  await corpus.ingest(writeTraces(dir, 't.jsonl', [{ name: 'sum_3', n: 3 }]));
  api = { ...createApi(corpus), ...createWriteApi(corpus) }; // the reads and the writes, as a host serves them
});
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

// Any value as the method's name, as a transport passes it on: the untyped dispatch.
const message = async (method: unknown, params: unknown) => {
  const r = await dispatchAny(api, method, params);
  if (r.ok) throw new Error(`${String(method)} was answered, expected a refusal`);
  expect(r.error.code).toBe('bad-input');
  return r.error.message;
};

describe('method names', () => {
  it("only the contract's own methods are called, never an inherited property", async () => {
    for (const name of ['toString', '__proto__', 'constructor', 'hasOwnProperty', 'dropAll', '']) {
      expect(await message(name, {})).toBe(`unknown API method ${JSON.stringify(name)}`);
    }
    expect(await message(42, {})).toBe('unknown API method "42"');
    expect(await message(null, {})).toBe('unknown API method "null"');
    expect(await message('x'.repeat(100), {})).toBe(`unknown API method "${'x'.repeat(60)}"`);
  });

  it('every method of the contract has a handler; only the annotation changes and counterfactuals write', () => {
    expect(Object.keys(api).sort()).toEqual([...METHODS].sort());
    expect(METHODS.length).toBeGreaterThan(5);
    expect(METHODS.filter((m) => accessOf(m) === 'write').sort()).toEqual([
      'adjudicate',
      'annotate',
      'prepareCounterfactual',
      'recordCounterfactual',
      'setReviewQuota',
      'setTaxonomy',
      'skipAnnotation',
      'undoAnnotation',
    ]);
  });
});

describe('params', () => {
  it('absent params are no params; anything but an object is refused', async () => {
    for (const none of [undefined, null]) {
      const r = await dispatch(api, 'listTraces', none);
      expect(r.ok && r.value.total).toBe(1);
    }
    expect(await message('listTraces', [])).toBe('listTraces: expected an object, got an array of 0 items');
    expect(await message('listTraces', 'name=sum')).toBe('listTraces: expected an object, got the string "name=sum"');
    expect(await message('listTraces', 7)).toBe('listTraces: expected an object, got number 7');
    expect(await message('getTrace', { id: 1, sql: 'DROP TABLE traces' })).toBe("getTrace: unknown field 'sql'");
  });

  it('a missing or null optional field is left out; a missing required one is named', async () => {
    const r = await dispatch(api, 'listTraces', { name: null, exit: null, limit: undefined });
    expect(r.ok && r.value.total).toBe(1);
    expect(await message('getTrace', {})).toBe('getTrace.id: expected an integer, got nothing');
    expect(await message('getTrace', { id: null })).toBe('getTrace.id: expected an integer, got null');
  });

  it('says what came, whatever its type', async () => {
    expect(await message('getTrace', { id: true })).toBe('getTrace.id: expected an integer, got boolean true');
    expect(await message('getTrace', { id: { n: 1 } })).toBe('getTrace.id: expected an integer, got an object');
    expect(await message('getTrace', { id: [1] })).toBe('getTrace.id: expected an integer, got an array of 1 item');
    expect(await message('getTrace', { id: '1' })).toBe('getTrace.id: expected an integer, got the string "1"');
    expect(await message('getTrace', { id: 1.5 })).toBe('getTrace.id: expected an integer, got number 1.5');
    // A long string is shown by its first 40 characters.
    expect(await message('getTrace', { id: 'a'.repeat(41) })).toBe(
      `getTrace.id: expected an integer, got the string "${'a'.repeat(40)}…"`,
    );
    expect(await message('getTrace', { id: 'a'.repeat(40) })).toBe(
      `getTrace.id: expected an integer, got the string "${'a'.repeat(40)}"`,
    );
  });

  it('strings: at most their length, exactly', async () => {
    expect((await dispatch(api, 'listTraces', { name: 'x'.repeat(1000) })).ok).toBe(true);
    expect(await message('listTraces', { name: 'x'.repeat(1001) })).toBe(
      `listTraces.name: expected a string of at most 1000 characters, got the string "${'x'.repeat(40)}…"`,
    );
    expect(await message('findInTrace', { traceId: 1, text: 3 })).toBe(
      'findInTrace.text: expected a string of at most 1000 characters, got number 3',
    );
  });

  it('choices and flags list what is accepted', async () => {
    expect(await message('listTraces', { exit: 'crashed' })).toBe(
      'listTraces.exit: expected normal, error or never, got the string "crashed"',
    );
    expect(await message('listTraces', { sort: 'size' })).toBe(
      'listTraces.sort: expected id, name or events, got the string "size"',
    );
    expect(await message('walk', { traceId: 1, direction: 'up', actions: [] })).toBe(
      'walk.direction: expected forward or inverse, got the string "up"',
    );
    expect(await message('listTraces', { desc: 'yes' })).toBe(
      'listTraces.desc: expected true or false, got the string "yes"',
    );
    expect(await message('listTraces', { desc: 1 })).toBe('listTraces.desc: expected true or false, got number 1');
    for (const desc of [true, false]) expect((await dispatch(api, 'listTraces', { desc })).ok).toBe(true);
  });

  it('action lists: an array of action texts, each checked and named by its index', async () => {
    expect(await message('walk', { traceId: 1, direction: 'forward', actions: 'step_into' })).toBe(
      'walk.actions: expected an array of at most 20000 items, got the string "step_into"',
    );
    expect(await message('walk', { traceId: 1, direction: 'forward', actions: ['step_into', 7] })).toBe(
      'walk.actions[1]: expected a string of at most 100000 characters, got number 7',
    );
    expect(await message('walk', { traceId: 1, direction: 'forward', actions: ['step_into', 'hop'] })).toBe(
      'walk.actions[1]: expected an action name or \'breakpoint <src>\', got the string "hop"',
    );
    const r = await dispatch(api, 'walk', {
      traceId: 1,
      direction: 'forward',
      actions: ['step_into', 'breakpoint     return acc'],
    });
    expect(r.ok && r.value.states.map((s) => s.seq)).toEqual([0, 1, 10]);
  });

  it('a walk takes at most 20,000 actions; the refusal says so and how to walk a longer trajectory', async () => {
    const actions = Array<string>(MAX_WALK_ACTIONS + 1).fill('step_into');
    expect(await message('walk', { traceId: 1, direction: 'forward', actions })).toBe(
      'walk.actions: expected at most 20,000 actions per walk (walk a longer trajectory with `stepscope replay`, which has no limit), got an array of 20001 items',
    );
  });
});

describe('setTaxonomy', () => {
  it('stores the taxonomy it is sent as the next version; what is not a taxonomy is refused naming it', async () => {
    const t = await dispatch(api, 'getTaxonomy', {});
    if (!t.ok) throw new Error(t.error.message);
    const renamed = { ...t.value, version: t.value.version + 1, name: `${t.value.name} (renamed)` };
    const set = await dispatch(api, 'setTaxonomy', { taxonomy: renamed, author: 'ada' });
    expect(set.ok && set.value).toMatchObject({ version: t.value.version + 1, name: renamed.name });
    const now = await dispatch(api, 'getTaxonomy', {});
    expect(now.ok && now.value).toEqual(set.ok && set.value);
    expect(await message('setTaxonomy', { taxonomy: 5, author: 'ada' })).toBe('taxonomy: expected an object, got 5');
  });
});

describe('errors from inside a handler', () => {
  it('anything thrown that is not a user error crosses as internal, with its text only', async () => {
    const throwing = (thrown: unknown) =>
      ({
        ...api,
        getTrace: () => {
          throw thrown;
        },
      }) as Api;
    expect(await dispatch(throwing('plain text'), 'getTrace', { id: 1 })).toEqual({
      ok: false,
      error: { code: 'internal', message: 'getTrace failed: plain text' },
    });
    expect(await dispatch(throwing(new RangeError('bad')), 'getTrace', { id: 1 })).toEqual({
      ok: false,
      error: { code: 'internal', message: 'getTrace failed: bad' },
    });
    const rejecting = { ...api, getTrace: async () => Promise.reject(new Error('late')) } as Api;
    expect(await dispatch(rejecting, 'getTrace', { id: 1 })).toEqual({
      ok: false,
      error: { code: 'internal', message: 'getTrace failed: late' },
    });
  });
});

describe('content security policy', () => {
  it('the <meta> form is the header form without frame-ancestors, which browsers ignore there', () => {
    const header = CSP.split('; ');
    expect(header).toContain("frame-ancestors 'none'");
    expect(CSP_META.split('; ')).toEqual(header.filter((d) => d !== "frame-ancestors 'none'"));
  });
});
