/**
 * Every number the API takes is checked against its range before it reaches the corpus: a
 * negative limit would otherwise reach SQLite as `LIMIT -1` (no limit at all) and lift the
 * 1000-row cap of a listing; a negative offset or window would read from before the start.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApi } from '../../src/api/handlers/index.js';
import { openCorpus, type Corpus } from '../../src/store/corpus.js';
import { cleanTempDirs, tempDir, writeTraces } from '../store/fixtures.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';
import { dispatch } from './call.js';

let corpus: Corpus;
let api: ReturnType<typeof createApi>;

beforeAllOrFail(async () => {
  const dir = tempDir('stepscope-api-limits-');
  corpus = openCorpus(join(dir, 'c.db'), { create: true });
  await corpus.ingest(
    writeTraces(dir, 't.jsonl', [
      { name: 'a', n: 1 },
      { name: 'b', n: 2 },
      { name: 'c', n: 3 },
    ]),
  );
  api = createApi(corpus);
});
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

/** The refusal of a call: its code and message (the call must fail). */
async function refusal(method: string, params: unknown): Promise<{ code: string; message: string }> {
  const r = await dispatch(api, method, params);
  if (r.ok) throw new Error(`${method}(${JSON.stringify(params)}) was answered, expected a refusal`);
  return r.error;
}

describe('numbers out of range are refused, naming the field and its range', () => {
  // The range is worded as the field takes it: both ends for a bounded one, `N or more` for
  // an open-ended one (never the largest safe integer as its upper end).
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['listTraces', { limit: -1 }, 'listTraces.limit', 'an integer from 1 to 1000'],
    ['listTraces', { limit: 0 }, 'listTraces.limit', 'an integer from 1 to 1000'],
    ['listTraces', { limit: 1001 }, 'listTraces.limit', 'an integer from 1 to 1000'],
    ['listTraces', { limit: 2.5 }, 'listTraces.limit', 'an integer'],
    ['listTraces', { offset: -1 }, 'listTraces.offset', 'an integer, 0 or more'],
    ['getTrace', { id: 0 }, 'getTrace.id', 'an integer, 1 or more'],
    ['getTrace', { id: -3 }, 'getTrace.id', 'an integer, 1 or more'],
    ['getEvents', { traceId: 1, from: -1, to: 2 }, 'getEvents.from', 'an integer, 0 or more'],
    ['getEvents', { traceId: 1, from: 0, to: -1 }, 'getEvents.to', 'an integer, 0 or more'],
    ['findInTrace', { traceId: 1, text: 'acc', limit: 0 }, 'findInTrace.limit', 'an integer from 1 to 10000'],
    ['findInTrace', { traceId: 1, text: 'acc', limit: 10_001 }, 'findInTrace.limit', 'an integer from 1 to 10000'],
    ['walk', { traceId: 1, direction: 'forward', entry: -1, actions: [] }, 'walk.entry', 'an integer, 0 or more'],
    ['listTrajectories', { traceId: 1, limit: -1 }, 'listTrajectories.limit', 'an integer from 1 to 1000'],
    ['listTrajectories', { traceId: 1, offset: -5 }, 'listTrajectories.offset', 'an integer, 0 or more'],
  ];
  for (const [method, params, field, expected] of cases) {
    it(`${method}(${JSON.stringify(params)})`, async () => {
      const e = await refusal(method, params);
      expect(e.code).toBe('bad-input');
      expect(e.message).toBe(`${field}: expected ${expected}, got number ${params[field.split('.')[1]]}`);
    });
  }
});

describe('numbers at the ends of their range are answered', () => {
  it('a listing of 1 to 1000 rows, from any offset', async () => {
    const one = await dispatch(api, 'listTraces', { limit: 1, offset: 0 });
    expect(one.ok && one.value).toMatchObject({ total: 3, rows: [{ name: 'a' }] });
    const all = await dispatch(api, 'listTraces', { limit: 1000 });
    expect(all.ok && all.value.rows.map((r) => r.name)).toEqual(['a', 'b', 'c']);
    const past = await dispatch(api, 'listTraces', { offset: 3 });
    expect(past.ok && past.value).toEqual({ total: 3, rows: [] });
  });

  it('a window of events from 0, and an empty one', async () => {
    const first = await dispatch(api, 'getEvents', { traceId: 1, from: 0, to: 1 });
    expect(first.ok && first.value.map((e) => e.seq)).toEqual([0]);
    const none = await dispatch(api, 'getEvents', { traceId: 1, from: 2, to: 2 });
    expect(none.ok && none.value).toEqual([]);
  });
});

describe('lists longer than their limit are refused, naming the field and the limit', () => {
  // arrayOf's default wording (`an array of at most N items`): without it the refusal would
  // say "expected , got …", naming no limit.
  it('annotate with 51 labels (at most 50)', async () => {
    const labels = Array.from({ length: 51 }, (_, i) => `l${i}`);
    const e = await refusal('annotate', { target: { trace: 1, seq: 0 }, labels, annotator: 'ann' });
    expect(e.code).toBe('bad-input');
    expect(e.message).toMatch(/^annotate\.labels: expected an array of at most 50 items, got /);
  });
});
