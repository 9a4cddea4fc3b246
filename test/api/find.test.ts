// findInTrace (the explorer's search box): the seqs of the states whose src, locals or value
// hold a text, checked against the events read from the corpus.
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createApi, dispatch } from '../../src/api/handlers/index.js';

import { openCorpus, type Corpus } from '../../src/store/corpus.js';
import { tempDir, writeTraces } from '../store/fixtures.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';

let corpus: Corpus;
const call = (m: string, p: unknown) => dispatch(createApi(corpus), m, p);

beforeAllOrFail(async () => {
  const dir = tempDir('stepscope-find-');
  corpus = openCorpus(join(dir, 'c.db'), { create: true });
  await corpus.ingest(writeTraces(dir, 't.jsonl', [{ name: 'sum_5', n: 5, tag: 'needle' }]));
});
afterAll(() => corpus.close());

describe('findInTrace', () => {
  it('answers every state holding the text, in time order, and honours the limit', async () => {
    const events = corpus.getEvents(1, 0, 1_000);
    for (const text of ['needle', '=', 'return', 'no such text']) {
      const want = events
        .filter(
          (e) =>
            e.src.includes(text) ||
            (e.arg ?? '').includes(text) ||
            Object.values(e.locals).some((v) => v.includes(text)),
        )
        .map((e) => e.seq);
      const r = await call('findInTrace', { traceId: 1, text });
      expect(r.ok && r.value, text).toEqual({ total: want.length, seqs: want });
      if (want.length > 1) {
        const one = await call('findInTrace', { traceId: 1, text, limit: 1 });
        expect(one.ok && one.value).toEqual({ total: want.length, seqs: want.slice(0, 1) });
      }
    }
    expect(
      events.some((e) => Object.values(e.locals).includes("'needle'") || JSON.stringify(e.locals).includes('needle')),
    ).toBe(true);
  });

  it('refuses an unknown trace and a missing text', async () => {
    const none = await call('findInTrace', { traceId: 99, text: 'x' });
    expect(!none.ok && none.error.message).toBe('no trace with id 99');
    const bad = await call('findInTrace', { traceId: 1 });
    expect(bad.ok).toBe(false);
  });
});
