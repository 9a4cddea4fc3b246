/**
 * Stepping through a trace re-walks it on every call; the trace's events are read from the
 * corpus once and kept, for a few traces at a time (src/api/handlers/trace-cache.ts).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi, dispatch } from '../../src/api/handlers/index.js';
import { openCorpus, type Corpus, type ReadCorpus } from '../../src/store/corpus.js';
import { cleanTempDirs, tempDir, writeTraces } from '../store/fixtures.js';

let corpus: Corpus;

beforeAll(async () => {
  const dir = tempDir('stepscope-api-cache-');
  corpus = openCorpus(join(dir, 'c.db'), { create: true });
  await corpus.ingest(writeTraces(dir, 't.jsonl', Array.from({ length: 12 }, (_, i) => ({ name: `t${i}`, n: i % 3 }))));
});
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

/** The corpus, counting the reads of a trace's packed skeleton (what opening a trace reads first) per trace id. */
function counting(): { reads: Map<number, number>; corpus: ReadCorpus } {
  const reads = new Map<number, number>();
  const proxy = new Proxy(corpus, {
    get(target, key) {
      const v = Reflect.get(target, key, target);
      if (key !== 'getPackedSkeleton') return typeof v === 'function' ? v.bind(target) : v;
      return (id: number) => {
        reads.set(id, (reads.get(id) ?? 0) + 1);
        return target.getPackedSkeleton(id);
      };
    },
  });
  return { reads, corpus: proxy };
}

describe('the trace cache behind walks and skeletons', () => {
  it('reads a trace once however often it is walked', async () => {
    const { reads, corpus: c } = counting();
    const api = createApi(c);
    for (let k = 1; k <= 6; k++) {
      const r = await dispatch(api, 'walk', { traceId: 3, direction: 'forward', actions: Array(k).fill('step_into') });
      expect(r.ok && r.value.states.length).toBe(k + 1);
    }
    expect((await dispatch(api, 'getSkeleton', { traceId: 3 })).ok).toBe(true);
    expect(reads.get(3)).toBe(1);
  });

  it('keeps the traces in use while others come and go, and forgets the oldest', async () => {
    const { reads, corpus: c } = counting();
    const api = createApi(c);
    const touch = (id: number) => dispatch(api, 'walk', { traceId: id, direction: 'forward', actions: [] });
    // Trace 1 stays in use between visits to others, so it is never read again.
    for (const other of [2, 3, 4, 5, 6]) {
      await touch(1);
      await touch(other);
    }
    expect(reads.get(1)).toBe(1);
    // Twelve other traces later, trace 2 has been forgotten and is read again.
    for (let id = 3; id <= 12; id++) await touch(id);
    await touch(2);
    expect(reads.get(2)).toBe(2);
    // An unknown trace is refused without being cached.
    expect(await touch(99)).toEqual({ ok: false, error: { code: 'not-found', message: 'no trace with id 99' } });
  });

  it('answers the skeleton of a trace not opened yet from its kept row, the same as once opened', async () => {
    const { reads, corpus: c } = counting();
    const api = createApi(c);
    const early = await dispatch(api, 'getSkeleton', { traceId: 4 });
    expect(reads.get(4)).toBeUndefined();
    expect((await dispatch(api, 'walk', { traceId: 4, direction: 'forward', actions: ['step_into'] })).ok).toBe(true);
    expect(reads.get(4)).toBe(1);
    expect(await dispatch(api, 'getSkeleton', { traceId: 4 })).toEqual(early);
    expect(early.ok && early.value.count).toBe(corpus.getEvents(4).length);
    expect(await dispatch(api, 'getSkeleton', { traceId: 99 })).toEqual({ ok: false, error: { code: 'not-found', message: 'no trace with id 99' } });
  });
});
