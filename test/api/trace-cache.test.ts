// The trace cache opens traces lazily (packed skeleton at once, events window by window as walks touch
// them) and holds them within a budget in bytes, counted as they are opened and read,
// dropping the least recently used, and refuses a trace that alone passes it, without ever
// holding more (src/api/handlers/trace-cache.ts).
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createApi, TraceCache, type CacheChange } from '../../src/api/handlers/index.js';
import { openCorpus, type ReadCorpus } from '../../src/store/corpus.js';
import { cleanTempDirs, jsonl, tempDir, traceRecords, writeTraces } from '../store/fixtures.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';
import { dispatch } from './call.js';

/** Twelve small traces (0 to 2 loop iterations). */
let many: ReadCorpus;
/** Traces 1 and 2 (equal shape), 3 (small) and 4 (wide locals). */
let corpus: ReadCorpus;
/** What traces 1 and 2 and 3 take, read whole. */
let big: number;
let small: number;

beforeAllOrFail(async () => {
  const dir = tempDir('stepscope-cache-');
  const m = openCorpus(join(dir, 'many.db'), { create: true });
  await m.ingest(
    writeTraces(
      dir,
      'many.jsonl',
      Array.from({ length: 12 }, (_, i) => ({ name: `t${i}`, n: i % 3 })),
    ),
  );
  m.close();
  many = openCorpus(join(dir, 'many.db'), { readonly: true });

  const db = join(dir, 'c.db');
  const c = openCorpus(db, { create: true });
  await c.ingest(
    writeTraces(dir, 't.jsonl', [
      { name: 'a', n: 300 },
      { name: 'b', n: 300 },
      { name: 'c', n: 2 },
    ]),
  );
  // Trace 4: thirty more locals in every event, short values: many small strings, little text.
  const wide = traceRecords({ name: 'd', n: 300 }).map((r) =>
    r.type === 'event'
      ? {
          ...r,
          locals: {
            ...(r.locals as object),
            ...Object.fromEntries(Array.from({ length: 30 }, (_, k) => [`v${k}`, String(k)])),
          },
        }
      : r,
  );
  writeFileSync(join(dir, 'wide.jsonl'), jsonl(wide));
  await c.ingest(join(dir, 'wide.jsonl'));
  c.close();
  corpus = openCorpus(db, { readonly: true });
  const probe = new TraceCache(corpus);
  big = (await readWhole(probe, 1)).bytes;
  small = (await readWhole(probe, 3)).bytes;
});
afterAll(() => {
  corpus.close();
  many.close();
  cleanTempDirs();
});

/** A breakpoint on a line no trace has: the walk looks at every event, so every window is read. */
const NOWHERE = 'breakpoint pass  # on no line';

/** Walks trace `id` through `cache` to its end (a breakpoint never hit); its answer. */
function walkWhole(cache: TraceCache, id: number) {
  return dispatch(createApi(corpus, cache), 'walk', { traceId: id, direction: 'forward', actions: [NOWHERE] });
}

/** The trace as the cache holds it once walked whole; the walk's refusal thrown as it came. */
async function readWhole(cache: TraceCache, id: number) {
  const r = await walkWhole(cache, id);
  if (!r.ok) throw Object.assign(new Error(r.error.message), r.error);
  return cache.get(id);
}

/**
 * The corpus, counting per trace id the reads of its packed skeleton (what opening a trace reads first) and of its
 * event windows.
 */
function counting(c: ReadCorpus): { shapes: Map<number, number>; windows: Map<number, number>; corpus: ReadCorpus } {
  const shapes = new Map<number, number>();
  const windows = new Map<number, number>();
  const count = (m: Map<number, number>, id: number) => m.set(id, (m.get(id) ?? 0) + 1);
  const proxy = new Proxy(c, {
    get(target, key) {
      const v = Reflect.get(target, key, target);
      if (key === 'getSkeletonBytes')
        return (id: number) => {
          count(shapes, id);
          return target.getSkeletonBytes(id);
        };
      if (key === 'getEvents')
        return (id: number, from?: number, to?: number) => {
          count(windows, id);
          return target.getEvents(id, from, to);
        };
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { shapes, windows, corpus: proxy };
}

describe('the trace cache behind walks and skeletons', () => {
  it('reads a trace once however often it is walked', async () => {
    const { shapes, windows, corpus: c } = counting(many);
    const api = createApi(c);
    for (let k = 1; k <= 6; k++) {
      const r = await dispatch(api, 'walk', { traceId: 3, direction: 'forward', actions: Array(k).fill('step_into') });
      expect(r.ok && r.value.states.length).toBe(k + 1);
    }
    expect((await dispatch(api, 'getSkeleton', { traceId: 3 })).ok).toBe(true);
    for (let k = 0; k < 3; k++)
      expect((await dispatch(api, 'walk', { traceId: 3, direction: 'forward', actions: [NOWHERE] })).ok).toBe(true);
    expect(shapes.get(3)).toBe(1);
    expect(windows.get(3)).toBe(1); // a short trace is one window
  });

  it('opens a trace from its shape and reads no event until a walk needs one', async () => {
    const { shapes, windows, corpus: c } = counting(corpus);
    const api = createApi(c);
    expect((await dispatch(api, 'getSkeleton', { traceId: 1 })).ok).toBe(true);
    expect([shapes.get(1), windows.get(1)]).toEqual([1, undefined]);
    expect((await dispatch(api, 'walk', { traceId: 1, direction: 'forward', actions: ['step_into'] })).ok).toBe(true);
    expect(windows.get(1)).toBe(1);
  });

  it('keeps the traces in use while others come and go, and forgets the oldest', async () => {
    const { shapes, corpus: c } = counting(many);
    // Room for three of these traces as opened.
    const probe = new TraceCache(many);
    const largest = Math.max(...Array.from({ length: 12 }, (_, i) => probe.get(i + 1).bytes));
    const api = createApi(c, new TraceCache(c, 3 * largest));
    const touch = (id: number) => dispatch(api, 'getSkeleton', { traceId: id });
    // Trace 1 stays in use between visits to others, so it is never read again.
    for (const other of [2, 3, 4, 5, 6]) {
      await touch(1);
      await touch(other);
    }
    expect(shapes.get(1)).toBe(1);
    // Ten other traces later, trace 2 has been forgotten and is read again.
    for (let id = 3; id <= 12; id++) await touch(id);
    await touch(2);
    expect(shapes.get(2)).toBe(2);
    // An unknown trace is refused without being cached.
    expect(await touch(99)).toEqual({ ok: false, error: { code: 'not-found', message: 'no trace with id 99' } });
  });
});

describe('the trace cache budget', () => {
  it('counts shape, index and skeleton at opening, and each window as it is read', async () => {
    const cache = new TraceCache(corpus);
    const t = cache.get(1);
    const opened = t.bytes;
    const n = t.events.length;
    const index = Object.values(t.index)
      .filter(ArrayBuffer.isView)
      .reduce((s, a) => s + (a as ArrayBufferView).byteLength, 0);
    // the index, and the shape's five columns (1 + 4 × 4 bytes an event), at least
    expect(opened).toBeGreaterThan(index + 17 * n);
    const whole = (await readWhole(cache, 1)).bytes;
    // The events' text is held once read: at least every src and func string.
    const text = corpus.getEvents(1).reduce((s, e) => s + e.src.length + e.func.length, 0);
    expect(whole - opened).toBeGreaterThan(text);
    expect(cache.bytes).toBe(whole);
    // 606 events against 8, with each trace's fixed share (its columns' headers)
    expect(big).toBeGreaterThan(25 * small);
  });

  it('stays within its budget, dropping the least recently used trace', async () => {
    const budget = Math.floor(1.5 * big) + small;
    const cache = new TraceCache(corpus, budget);
    const changes: CacheChange[] = [];
    cache.onChange = (c) => changes.push(c);
    await readWhole(cache, 1);
    await readWhole(cache, 3);
    await readWhole(cache, 2); // no room for 1 and 2: 1 is the least recently used
    expect(changes.flatMap((c) => c.dropped)).toEqual([1]);
    await readWhole(cache, 3); // a hit: 3 is now the most recently used, 2 the least
    await readWhole(cache, 1);
    expect(changes.flatMap((c) => c.dropped)).toEqual([1, 2]);
    expect(cache.bytes).toBeLessThanOrEqual(budget);
    expect(cache.bytes).toBe(big + small);
  });

  it('stops reading a trace that alone passes the budget, and keeps what it held', async () => {
    const cache = new TraceCache(corpus, Math.floor(big / 2));
    const changes: CacheChange[] = [];
    cache.onChange = (c) => changes.push(c);
    await readWhole(cache, 3);
    await expect(readWhole(cache, 1)).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(
        /^trace 1 has 606 events, about 1 MiB in memory: over the 1 MiB this explorer may hold\. Start it with a larger budget \(`stepscope serve --cache-mb N`\), or read the trace in windows/,
      ),
    });
    expect(cache.bytes).toBe(small);
    expect(cache.get(3).bytes).toBe(small);
    expect(changes.flatMap((c) => c.dropped)).toEqual([1]); // the refused trace only
    // Its skeleton is still served: opening it fits, only its events do not.
    expect((await dispatch(createApi(corpus, cache), 'getSkeleton', { traceId: 1 })).ok).toBe(true);
  });

  it('never holds more than its budget, whatever the budget: a trace that would pass it is refused', async () => {
    const wide = (await readWhole(new TraceCache(corpus), 4)).bytes;
    for (const [id, size] of [
      [1, big],
      [4, wide],
    ])
      for (const share of [0.5, 0.9, 0.95, 0.99, 1, 1.01, 1.05, 1.1]) {
        const budget = Math.floor(share * size);
        const cache = new TraceCache(corpus, budget);
        let peak = 0;
        cache.onChange = () => (peak = Math.max(peak, cache.bytes));
        const refused = !(await walkWhole(cache, id)).ok;
        expect(peak, `trace ${id}, budget ${share} of its size`).toBeLessThanOrEqual(budget);
        expect(cache.bytes, `trace ${id}, budget ${share} of its size`).toBeLessThanOrEqual(budget);
        if (share <= 0.9) expect(refused, `trace ${id}, budget ${share} of its size`).toBe(true);
        if (share >= 1.1) expect(refused, `trace ${id}, budget ${share} of its size`).toBe(false);
      }
  });
});
