// What the tests of src/api/handlers left open: the trace
// cache at its exact budget and what it tells the pool, its size estimate when it refuses a
// trace, the memory model it counts with (trace-bytes.ts), the page size of listTrajectories, a
// tampered trace's end, the bytes form of getSkeleton, openForReading on an older corpus, and
// the wording of two refusals. In-process over small corpora, no worker pool.
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createApi, createBytesApi, dispatch as dispatchAny, mergeChanges, openForReading, TraceCache, type CacheChange } from '../../src/api/handlers/index.js';
import { eventBytes, openedBytes, valueBytes } from '../../src/api/handlers/trace-bytes.js';
import { parseAction, walkView } from '../../src/semantics/index.js';
import { openCorpus, type ReadCorpus } from '../../src/store/corpus.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { sampleCorpus } from '../../src/trajectories/sample-corpus.js';
import { openDatabase } from '../../src/store/open.js';
import type { TraceEvent } from '../../src/trace/types.js';
import { cleanTempDirs, jsonl, seedOldCorpusFrom, tempDir, traceRecords, writeTraces } from '../store/fixtures.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';
import { callApi, dispatch } from './call.js';

/** Traces 1 (606 events), 2 (8 events), 3 (8 events, its end marked tampered), 4 (10,006 events of long values: three windows), 5 (no event). */
let corpus: ReadCorpus;
let path: string;
let dir: string;

beforeAllOrFail(async () => {
  dir = tempDir('stepscope-hgaps-');
  path = join(dir, 'c.db');
  const c = openCorpus(path, { create: true });
  await c.ingest(writeTraces(dir, 't.jsonl', [{ name: 'a', n: 300 }, { name: 'c', n: 2 }]));
  const tampered = traceRecords({ name: 'tampered', n: 2 }).map((r) => (r.type === 'end' ? { ...r, tampered: 'sys.settrace was replaced at event 3' } : r));
  writeFileSync(join(dir, 'tampered.jsonl'), jsonl(tampered));
  await c.ingest(join(dir, 'tampered.jsonl'));
  await c.ingest(writeTraces(dir, 'long.jsonl', [{ name: 'long', n: 5000, tag: 'x'.repeat(800) }]));
  // Trace 5: a program that ended before its first event (a header and an end, nothing between).
  const empty = traceRecords({ name: 'empty', n: 0 });
  writeFileSync(join(dir, 'empty.jsonl'), jsonl([empty[0], { ...empty.at(-1)!, events: 0 }]));
  await c.ingest(join(dir, 'empty.jsonl'));
  sampleCorpus(c, { seed: 3, perTrace: 10, direction: 'both', entry: 'root', traceId: 1, maxSteps: 4 });
  c.close();
  corpus = openCorpus(path, { readonly: true });
});
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

/** A breakpoint on a line no trace has: a walk to it reads every window. */
const NOWHERE = 'breakpoint pass  # on no line';
const walkWhole = (cache: TraceCache, id: number) => dispatch(createApi(corpus, cache), 'walk', { traceId: id, direction: 'forward', actions: [NOWHERE] });
const MiB = 2 ** 20;

describe('the trace cache at its budget', () => {
  it('takes a trace whose opening, and then whose every window, fills the budget exactly', async () => {
    const opened = new TraceCache(corpus).get(1).bytes;
    const exact = new TraceCache(corpus, opened);
    expect(exact.get(1).bytes).toBe(opened);
    const probe = new TraceCache(corpus);
    expect((await walkWhole(probe, 1)).ok).toBe(true);
    const whole = probe.bytes;
    const full = new TraceCache(corpus, whole);
    expect(await walkWhole(full, 1)).toMatchObject({ ok: true });
    expect(full.bytes).toBe(whole);
  });

  it('refuses a trace whose opening alone passes the budget, holding nothing', () => {
    const opened = new TraceCache(corpus).get(1).bytes;
    const cache = new TraceCache(corpus, opened - 1);
    expect(() => cache.get(1)).toThrow(expect.objectContaining({ code: 'unavailable', message: expect.stringMatching(/^trace 1 has 606 events, about 1 MiB in memory: over the 1 MiB/) }));
    expect(cache.bytes).toBe(0);
  });

  it('keeps two traces that together fill the budget exactly, and tells the pool what each holds', async () => {
    const probe = new TraceCache(corpus);
    const [a, c] = [probe.get(1).bytes, probe.get(2).bytes];
    const cache = new TraceCache(corpus, a + c);
    const changes: CacheChange[] = [];
    cache.onChange = (ch) => changes.push(ch);
    cache.get(1);
    cache.get(2);
    expect(changes).toEqual([{ loaded: { traceId: 1, bytes: a }, dropped: [] }, { loaded: { traceId: 2, bytes: c }, dropped: [] }]);
    expect(cache.bytes).toBe(a + c);
    // A window read grows the trace: the pool hears what it holds now.
    const roomy = new TraceCache(corpus);
    const grown: CacheChange[] = [];
    roomy.onChange = (ch) => grown.push(ch);
    expect((await walkWhole(roomy, 2)).ok).toBe(true);
    expect(grown).toEqual([{ loaded: { traceId: 2, bytes: c }, dropped: [] }, { loaded: { traceId: 2, bytes: roomy.bytes }, dropped: [] }]);
    expect(roomy.bytes).toBeGreaterThan(c);
  });

  it('forgets a trace on request, and a request for a trace it does not hold is nothing', () => {
    const cache = new TraceCache(corpus);
    const t = cache.get(2).bytes;
    cache.get(3);
    cache.drop(99);
    cache.drop(2);
    cache.drop(2);
    expect(cache.bytes).toBe(cache.get(3).bytes);
    expect(cache.bytes).toBeLessThan(t + cache.get(3).bytes);
  });

  it('does not count the windows a walk reads of a trace dropped under it', () => {
    const cache = new TraceCache(corpus);
    const t = cache.get(1);
    cache.drop(1); // the pool's request, while a walk holds the trace
    expect(cache.bytes).toBe(0);
    walkView(t.index, t.record, 'forward', 0, [parseAction(NOWHERE)]);
    expect(cache.bytes).toBe(0);
    expect(t.bytes).toBeGreaterThan(0);
  });

  it('refuses the window that passes the budget with the same words without a pool listening', async () => {
    const opened = new TraceCache(corpus).get(1).bytes;
    const r = await walkWhole(new TraceCache(corpus, opened + 100), 1); // no onChange: not in a pool
    expect(r.ok || r.error).toMatchObject({ code: 'unavailable', message: expect.stringMatching(/^trace 1 has 606 events, about 1 MiB in memory/) });
  });

  it('names about what the whole trace would take when a window is refused, from the windows read so far', async () => {
    const probe = new TraceCache(corpus);
    expect((await walkWhole(probe, 4)).ok).toBe(true);
    const whole = probe.get(4).bytes;
    expect(whole).toBeGreaterThan(8 * MiB); // MiB enough for the estimate's to tell
    // Room for the first window (4096 of 10,006 events), not the second: the estimate
    // extrapolates the 8192 events read to the trace, about what it takes whole, not the 82% read.
    const r = await walkWhole(new TraceCache(corpus, Math.floor(0.5 * whole)), 4);
    expect(r.ok).toBe(false);
    const about = !r.ok && /^trace 4 has 10,006 events, about ([\d,]+) MiB/.exec(r.error.message);
    expect(about).toBeTruthy();
    expect(Math.abs(Number(about && about[1].replace(/,/g, '')) - whole / MiB)).toBeLessThanOrEqual(1);
  });
});

describe('what one call changed, merged', () => {
  it('keeps the later change, drops a trace loaded then dropped, and never names a loaded trace dropped', () => {
    const b = { loaded: { traceId: 2, bytes: 20 }, dropped: [1] };
    expect(mergeChanges(null, b)).toBe(b);
    expect(mergeChanges({ loaded: { traceId: 1, bytes: 10 }, dropped: [3] }, b)).toEqual({ loaded: { traceId: 2, bytes: 20 }, dropped: [3, 1] });
    expect(mergeChanges({ loaded: { traceId: 1, bytes: 10 }, dropped: [3] }, { dropped: [4] })).toEqual({ loaded: { traceId: 1, bytes: 10 }, dropped: [3, 4] });
    expect(mergeChanges({ loaded: { traceId: 1, bytes: 10 }, dropped: [] }, { dropped: [1] })).toEqual({ loaded: undefined, dropped: [1] });
    // Dropped first, loaded again later in the same call: it is held, not dropped.
    expect(mergeChanges({ dropped: [2, 5] }, { loaded: { traceId: 2, bytes: 7 }, dropped: [] })).toEqual({ loaded: { traceId: 2, bytes: 7 }, dropped: [5] });
    expect(mergeChanges({ dropped: [5] }, { dropped: [6] })).toEqual({ loaded: undefined, dropped: [5, 6] });
  });
});

describe('the memory model of the cache (trace-bytes.ts)', () => {
  // A string: a 16-byte header and its characters, one byte each (two when one is past U+00FF), rounded up to 8.
  const event = (over: Partial<TraceEvent> = {}): TraceEvent =>
    ({ seq: 0, event: 'line', frame: 0, func: 'f', line: 1, src: 'x', locals: {}, arg: null, parent: null, ...over }) as TraceEvent;

  it('counts an event as its objects and each string it holds', () => {
    expect(eventBytes(event())).toBe(120 + 3 * 24);
    expect(eventBytes(event({ src: 'abcdefghi' }))).toBe(120 + 2 * 24 + 32);
    expect(eventBytes(event({ func: 'abcdefghi' }))).toBe(120 + 2 * 24 + 32);
    expect(eventBytes(event({ event: 'exception' }))).toBe(120 + 2 * 24 + 32);
    expect(eventBytes(event({ arg: 'abc' })) - eventBytes(event())).toBe(24);
    expect(eventBytes(event({ locals: { n: '1', acc: 'abcdefghi' } })) - eventBytes(event())).toBe(8 + 24 + 8 + 32);
    expect(eventBytes(event({ cut: ['ab', 'abcdefghi'] } as Partial<TraceEvent>)) - eventBytes(event())).toBe(8 + 24 + 8 + 32);
  });

  it('counts text past Latin-1 at two bytes a character', () => {
    expect(eventBytes(event({ arg: 'ééééé' })) - eventBytes(event())).toBe(16 + 8);
    expect(eventBytes(event({ arg: '✓✓✓✓✓' })) - eventBytes(event())).toBe(16 + 16);
    expect(valueBytes('✓')).toBe(16 + 8);
  });

  it('counts values of any shape: numbers 8 bytes, arrays a slot each, typed arrays and buffers their bytes', () => {
    expect(valueBytes('abc')).toBe(24);
    expect([valueBytes(5), valueBytes(null), valueBytes(true), valueBytes(undefined)]).toEqual([8, 8, 8, 8]);
    expect(valueBytes(new Uint8Array(10))).toBe(10 + 64);
    expect(valueBytes(new Int32Array(4))).toBe(16 + 64);
    expect(valueBytes(new ArrayBuffer(10))).toBe(10 + 32);
    expect(valueBytes([1, 2, 3])).toBe(16 + 3 * 8);
    expect(valueBytes([[1], 'ab', new Uint8Array(2)])).toBe(16 + 3 * 8 + (16 + 8) + 24 + (2 + 64));
    expect(valueBytes({})).toBe(24);
    expect(valueBytes({ a: 1, b: 'xy', c: [1], d: null })).toBe(24 + 8 + (8 + 24) + (8 + 24) + (8 + 8));
  });

  it('counts an opened trace as its funcs, skeleton, shared typed arrays once, and a slot per event', () => {
    const kind = new Uint8Array(10);
    const t = { shape: { count: 10, kind, funcs: ['f'] }, index: { kind, depth: new Int32Array(10) }, events: new Array(10) };
    expect(openedBytes(t as never, [1, 2])).toBe((16 + 8 + 24) + (16 + 16) + 16 + 8 * 10 + (10 + 64) + (40 + 64));
  });
});

describe('trace methods', () => {
  it('listTrajectories gives the page size asked for', async () => {
    const api = createApi(corpus);
    const all = await callApi(api, 'listTrajectories', { traceId: 1 });
    expect(all.total).toBeGreaterThan(5);
    const page = await callApi(api, 'listTrajectories', { traceId: 1, offset: 2, limit: 3 });
    expect(page).toEqual({ total: all.total, rows: all.rows.slice(2, 5) });
  });

  it('getTrace reports a tampered trace as such, and only that one', async () => {
    const api = createApi(corpus);
    expect((await callApi(api, 'getTrace', { id: 3 })).end.tampered).toBe('sys.settrace was replaced at event 3');
    expect((await callApi(api, 'getTrace', { id: 2 })).end).not.toHaveProperty('tampered');
  });

  it('the bytes form of getSkeleton is the stored packed skeleton; an unknown trace is not found', () => {
    const bytes = createBytesApi(corpus, new TraceCache(corpus));
    const b = (bytes.getSkeleton as (p: { traceId: number }) => Uint8Array)({ traceId: 1 });
    expect(Buffer.from(b).equals(Buffer.from(corpus.getSkeletonBytes(1)!))).toBe(true);
    expect(b.byteLength).toBeGreaterThan(0);
    expect(() => (bytes.getSkeleton as (p: { traceId: number }) => Uint8Array)({ traceId: 99 })).toThrow(expect.objectContaining({ code: 'not-found', message: 'no trace with id 99' }));
    // A trace without events has no stored skeleton: the empty one, as the JSON form's cache holds it.
    expect(corpus.getSkeletonBytes(5)).toBeNull();
    const none = (bytes.getSkeleton as (p: { traceId: number }) => Uint8Array)({ traceId: 5 });
    expect(Buffer.from(none).equals(Buffer.from(new TraceCache(corpus).get(5).skeleton))).toBe(true);
  });
});

describe('opening and refusals', () => {
  it('openForReading upgrades an older corpus once, then serves it read-only', async () => {
    const old = join(tempDir('stepscope-hgaps-old-'), 'old.db');
    const version = MIGRATIONS.at(-2)!.version;
    openDatabase(old, { create: true, migrations: MIGRATIONS.filter((m) => m.version <= version) }).close();
    await seedOldCorpusFrom(old, version, dir, writeTraces(dir, 'old.jsonl', [{ name: 'old', n: 3 }]));
    const c = openForReading(old);
    try {
      expect(c.readonly).toBe(true);
      expect(c.listTraces({ offset: 0, limit: 10 }).rows.map((r) => r.name)).toEqual(['old']);
    } finally {
      c.close();
    }
    const again = openForReading(old); // now current: the first open serves it
    expect(again.readonly).toBe(true);
    again.close();
  });

  it('a method with no handler here is an internal error that names it; an unknown export job is not found', async () => {
    expect(await dispatchAny({}, 'listTraces', {})).toEqual({ ok: false, error: { code: 'internal', message: 'listTraces failed: no handler for listTraces here' } });
    expect(await dispatch(createApi(corpus), 'exportProgress', { job: 4242 })).toEqual({
      ok: false, error: { code: 'not-found', message: 'no export job 4242 (jobs last as long as the app or server)' },
    });
  });
});
