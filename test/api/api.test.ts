// The API's handlers (src/api/handlers) served over real corpora: validation at the boundary,
// and the methods' answers checked against the corpus and the semantics; then the trace cache,
// trace methods and refusals over five small traces, and the evaluation side (each block below
// with its own corpus).
import { afterAll, describe, expect, it } from 'vitest';
import { join, dirname } from 'node:path';
import {
  createApi,
  createBytesApi,
  dispatch as dispatchAny,
  mergeChanges,
  openForReading,
  TraceCache,
  type CacheChange,
  createWriteApi,
} from '../../src/api/handlers/index.js';
import { decodeSkeleton } from '../../src/contract/index.js';
import { openCorpus, type Corpus, type ReadCorpus, type StoredItem } from '../../src/store/corpus.js';
import {
  tempDir,
  writeTraces,
  cleanTempDirs,
  jsonl,
  seedOldCorpusFrom,
  traceRecords,
  corpusFileOf,
} from '../store/fixtures.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';
import { dispatch, callApi } from './call.js';
import { writeFileSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { eventBytes, openedBytes, valueBytes } from '../../src/api/handlers/trace-bytes.js';
import { parseAction, walkView, formatAction } from '../../src/semantics/index.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { sampleCorpus } from '../../src/trajectories/sample-corpus.js';
import { openDatabase } from '../../src/store/open.js';
import type { TraceEvent } from '../../src/trace/types.js';
import type { Api, ExportJob } from '../../src/contract/index.js';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import { newPrediction } from '../../src/predictions/verdicts.js';
import { pass1Interval } from '../../src/predictions/scores.js';
import { startFakeModelServer, type FakeModelServer } from '../../scripts/fake-model-server.mjs';
import { corpusOf, vectors, vectorTraces, type Vector } from '../predictions/helpers.js';

let corpus: Corpus;
let api: ReturnType<typeof createApi>;

beforeAllOrFail(async () => {
  const dir = tempDir('stepscope-api-');
  const file = writeTraces(dir, 't.jsonl', [
    { name: 'sum_3', n: 3 },
    { name: 'sum_5', n: 5, tag: 'needle' },
    { name: 'cut', n: 2, exit: 'never' },
  ]);
  corpus = openCorpus(join(dir, 'c.db'), { create: true });
  await corpus.ingest(file);
  api = createApi(corpus);
});
afterAll(() => corpus.close());

const call = <M extends string>(m: M, p: unknown) => dispatch(api, m, p);

describe('validation at the boundary', () => {
  it('refuses unknown methods, wrong types and unknown fields with a message naming them', async () => {
    expect(await call('dropAll', {})).toEqual({
      ok: false,
      error: { code: 'bad-input', message: 'unknown API method "dropAll"' },
    });
    const wrong = await call('getEvents', { traceId: '1', from: 0, to: 1 });
    expect(wrong.ok).toBe(false);
    expect(!wrong.ok && wrong.error.message).toMatch(/^getEvents\.traceId: expected an integer/);
    const extra = await call('getTrace', { id: 1, sql: 'x' });
    expect(!extra.ok && extra.error.message).toBe("getTrace: unknown field 'sql'");
    const act = await call('walk', { traceId: 1, direction: 'forward', actions: ['jump'] });
    expect(!act.ok && act.error.message).toMatch(/^walk\.actions\[0\]: expected an action/);
  });

  it('refuses a window over the limit and an unknown trace', async () => {
    const big = await call('getEvents', { traceId: 1, from: 0, to: 100_000 });
    expect(!big.ok && big.error.message).toMatch(/at most 5000 events/);
    const none = await call('getTrace', { id: 999 });
    expect(!none.ok && none.error.message).toBe('no trace with id 999');
  });

  it("reports an action of the other direction as the user's error", async () => {
    const r = await call('walk', { traceId: 1, direction: 'forward', actions: ['inv_step_into'] });
    expect(!r.ok && r.error.message).toMatch(/not a forward action/);
  });
});

describe('methods', () => {
  it('lists and filters traces in SQLite', async () => {
    const all = await call('listTraces', {});
    expect(all.ok && all.value.total).toBe(3);
    const byValue = await call('listTraces', { value: 'needle' });
    expect(byValue.ok && byValue.value.rows.map((r) => r.name)).toEqual(['sum_5']);
    const never = await call('listTraces', { exit: 'never' });
    expect(never.ok && never.value.rows.map((r) => r.name)).toEqual(['cut']);
    const page = await call('listTraces', { sort: 'events', desc: true, limit: 1, offset: 0 });
    expect(page.ok && page.value.rows.map((r) => r.name)).toEqual(['sum_5']);
  });

  it('gives a skeleton that matches the events column by column', async () => {
    const wire = await call('getSkeleton', { traceId: 2 });
    const evs = corpus.getEvents(2);
    expect(wire.ok).toBe(true);
    if (!wire.ok) return;
    const sk = decodeSkeleton(wire.value);
    expect(sk.count).toBe(evs.length);
    const kinds = ['call', 'line', 'return', 'exception'];
    evs.forEach((e, i) => {
      expect(kinds[sk.kind[i]]).toBe(e.event);
      expect(sk.parent[i]).toBe(e.parent ?? -1);
      expect(sk.frame[i]).toBe(e.frame);
      expect(sk.line[i]).toBe(e.line);
      expect(sk.funcs[sk.func[i]]).toBe(e.func);
    });
  });

  it('walks step_into to the exit, one state per event, text ending with the exit token', async () => {
    const n = corpus.getEvents(1).length;
    const r = await call('walk', { traceId: 1, direction: 'forward', actions: Array(n).fill('step_into') });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.states.map((s) => s.seq)).toEqual([...Array(n).keys()]);
    // The store's fixture stops at f's return: main never returns, so the entry exits never.
    expect(r.value.exit).toBe('exit_never');
    expect(r.value.text.endsWith('<|frame_sep|><|exit_never|><|trace_end|><|end_of_text|>')).toBe(true);
    // The first state shows all locals, as the model sees them.
    expect(r.value.shown[0]).toEqual(corpus.getEvents(1, 0, 1)[0].locals);
  });
});

// In-process over five small traces, no worker pool: the trace cache at its exact budget and
// what it tells the pool, its size estimate when it refuses a trace, the memory model it counts
// with (trace-bytes.ts), the page size of listTrajectories, a tampered trace's end, the bytes
// form of getSkeleton, openForReading on an older corpus, and the wording of two refusals
// (cases mutation testing found untested).
describe('the trace cache, trace methods and refusals, over five small traces', () => {
  /**
   * Traces 1 (606 events), 2 (8 events), 3 (8 events, its end marked tampered), 4 (10,006 events of long values: three
   * windows), 5 (no event).
   */
  let corpus: ReadCorpus;
  let path: string;
  let dir: string;

  beforeAllOrFail(async () => {
    dir = tempDir('stepscope-hgaps-');
    path = join(dir, 'c.db');
    const c = openCorpus(path, { create: true });
    await c.ingest(
      writeTraces(dir, 't.jsonl', [
        { name: 'a', n: 300 },
        { name: 'c', n: 2 },
      ]),
    );
    const tampered = traceRecords({ name: 'tampered', n: 2 }).map((r) =>
      r.type === 'end' ? { ...r, tampered: 'sys.settrace was replaced at event 3' } : r,
    );
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
  const walkWhole = (cache: TraceCache, id: number) =>
    dispatch(createApi(corpus, cache), 'walk', { traceId: id, direction: 'forward', actions: [NOWHERE] });
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
      expect(() => cache.get(1)).toThrow(
        expect.objectContaining({
          code: 'unavailable',
          message: expect.stringMatching(/^trace 1 has 606 events, about 1 MiB in memory: over the 1 MiB/),
        }),
      );
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
      expect(changes).toEqual([
        { loaded: { traceId: 1, bytes: a }, dropped: [] },
        { loaded: { traceId: 2, bytes: c }, dropped: [] },
      ]);
      expect(cache.bytes).toBe(a + c);
      // A window read grows the trace: the pool hears what it holds now.
      const roomy = new TraceCache(corpus);
      const grown: CacheChange[] = [];
      roomy.onChange = (ch) => grown.push(ch);
      expect((await walkWhole(roomy, 2)).ok).toBe(true);
      expect(grown).toEqual([
        { loaded: { traceId: 2, bytes: c }, dropped: [] },
        { loaded: { traceId: 2, bytes: roomy.bytes }, dropped: [] },
      ]);
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
      expect(r.ok || r.error).toMatchObject({
        code: 'unavailable',
        message: expect.stringMatching(/^trace 1 has 606 events, about 1 MiB in memory/),
      });
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
      expect(mergeChanges({ loaded: { traceId: 1, bytes: 10 }, dropped: [3] }, b)).toEqual({
        loaded: { traceId: 2, bytes: 20 },
        dropped: [3, 1],
      });
      expect(mergeChanges({ loaded: { traceId: 1, bytes: 10 }, dropped: [3] }, { dropped: [4] })).toEqual({
        loaded: { traceId: 1, bytes: 10 },
        dropped: [3, 4],
      });
      expect(mergeChanges({ loaded: { traceId: 1, bytes: 10 }, dropped: [] }, { dropped: [1] })).toEqual({
        loaded: undefined,
        dropped: [1],
      });
      // Dropped first, loaded again later in the same call: it is held, not dropped.
      expect(mergeChanges({ dropped: [2, 5] }, { loaded: { traceId: 2, bytes: 7 }, dropped: [] })).toEqual({
        loaded: { traceId: 2, bytes: 7 },
        dropped: [5],
      });
      expect(mergeChanges({ dropped: [5] }, { dropped: [6] })).toEqual({ loaded: undefined, dropped: [5, 6] });
    });
  });

  describe('the memory model of the cache (trace-bytes.ts)', () => {
    // A string: a 16-byte header and its characters, one byte each (two when one is past U+00FF), rounded up to 8.
    const event = (over: Partial<TraceEvent> = {}): TraceEvent =>
      ({
        seq: 0,
        event: 'line',
        frame: 0,
        func: 'f',
        line: 1,
        src: 'x',
        locals: {},
        arg: null,
        parent: null,
        ...over,
      }) as TraceEvent;

    it('counts an event as its objects and each string it holds', () => {
      expect(eventBytes(event())).toBe(120 + 3 * 24);
      expect(eventBytes(event({ src: 'abcdefghi' }))).toBe(120 + 2 * 24 + 32);
      expect(eventBytes(event({ func: 'abcdefghi' }))).toBe(120 + 2 * 24 + 32);
      expect(eventBytes(event({ event: 'exception' }))).toBe(120 + 2 * 24 + 32);
      expect(eventBytes(event({ arg: 'abc' })) - eventBytes(event())).toBe(24);
      expect(eventBytes(event({ locals: { n: '1', acc: 'abcdefghi' } })) - eventBytes(event())).toBe(8 + 24 + 8 + 32);
      expect(eventBytes(event({ cut: ['ab', 'abcdefghi'] } as Partial<TraceEvent>)) - eventBytes(event())).toBe(
        8 + 24 + 8 + 32,
      );
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
      const t = {
        shape: { count: 10, kind, funcs: ['f'] },
        index: { kind, depth: new Int32Array(10) },
        events: new Array(10),
      };
      expect(openedBytes(t as never, [1, 2])).toBe(16 + 8 + 24 + (16 + 16) + 16 + 8 * 10 + (10 + 64) + (40 + 64));
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
      expect(() => (bytes.getSkeleton as (p: { traceId: number }) => Uint8Array)({ traceId: 99 })).toThrow(
        expect.objectContaining({ code: 'not-found', message: 'no trace with id 99' }),
      );
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
      expect(await dispatchAny({}, 'listTraces', {})).toEqual({
        ok: false,
        error: { code: 'internal', message: 'listTraces failed: no handler for listTraces here' },
      });
      expect(await dispatch(createApi(corpus), 'exportProgress', { job: 4242 })).toEqual({
        ok: false,
        error: { code: 'not-found', message: 'no export job 4242 (jobs last as long as the app or server)' },
      });
    });
  });
});

// The evaluation side over the reference vectors' traces: each set's own runs, one run's
// verdicts, a page past the end, a horizon set's breakdown, the interval's seed, verdicts re-read
// when a run is replaced, every field of listGroupItems, listAnnotations and setTaxonomy, the
// model's finish reason and the request timeout, and export's force, preview and failure
// The API tables are built inside the tests, not in the set-up: StrykerJS credits code run in a
// beforeAll to one test only (docs/dev/mutation.md), so a mutant in a handler table would be run against that test
// alone.
describe('the evaluation side: sets, the dashboard, annotations, the model, export', () => {
  let corpus: Corpus;
  let dir: string;
  let items: StoredItem[];
  let traceOf: (v: Vector) => number;
  let fake: FakeModelServer;

  /** Imports `completions(item, i)` for every item of `set` as run `label`. */
  function run(set: string, label: string, completions: (it: StoredItem, i: number) => string[], replace = false) {
    const setItems = [...corpus.iterateItems(corpus.listEvalSets().find((s) => s.name === set)!.id)];
    const file = join(dir, `${set}-${label}-${Date.now()}-${Math.random()}.jsonl`);
    writeFileSync(
      file,
      setItems.map((it, i) => JSON.stringify({ id: it.id, completions: completions(it, i) })).join('\n'),
    );
    importPredictions(corpus, { file, set, label, replace });
  }

  beforeAllOrFail(async () => {
    const vt = vectorTraces();
    traceOf = vt.traceOf;
    ({ corpus, dir } = await corpusOf(vt.traces, 'stepscope-hgaps-eval-'));
    const { set } = createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: 2, seed: 5 });
    items = [...corpus.iterateItems(set.id)];
    run('ns', 'A', (it, i) => [i % 2 ? it.target : 'oops, no state']);
    run('ns', 'B', (it) => [it.target]);
    const count = vectors().find((v) => v.name === 'count-forward-step-into')!;
    createEvalSet(corpus, { name: 'hz', task: 'horizon', traceIds: [traceOf(count)] });
    run('hz', 'H', (it, i) => [i % 3 ? it.target : 'nope']);
    // Every answer after 300 ms: a request timeout in milliseconds taken for seconds fails it.
    fake = await startFakeModelServer({
      continuations: vectors().map((v) => v.text),
      faults: [{ fault: 'delay', ms: 300, times: 1000 }],
    });
  });
  afterAll(async () => {
    await fake.close();
    corpus.close();
    cleanTempDirs();
  });

  const apiOf = (): Api => ({ ...createApi(corpus), ...createWriteApi(corpus) });

  describe('evaluation sets and items', () => {
    it('lists each set with its own runs', async () => {
      const sets = await callApi(apiOf(), 'listEvalSets', {});
      expect(sets.map((s) => [s.name, s.runs])).toEqual([
        ['ns', ['A', 'B']],
        ['hz', ['H']],
      ]);
    });

    it("listItems and getItem with a run give that run's verdicts only, and the item's own set", async () => {
      const api = apiOf();
      const page = await callApi(api, 'listItems', { set: 'ns', run: 'B', limit: 5 });
      expect(page.rows.map((r) => r.verdicts.map((v) => v.run))).toEqual(Array(5).fill(['B']));
      const both = await callApi(api, 'listItems', { set: 'ns', limit: 5 });
      expect(both.rows.map((r) => r.verdicts.map((v) => v.run).sort())).toEqual(Array(5).fill(['A', 'B']));
      const one = await callApi(api, 'getItem', { id: items[1].id, run: 'A' });
      expect(one.predictions.map((p) => p.run)).toEqual(['A']);
      const hzItem = [...corpus.iterateItems(corpus.listEvalSets().find((s) => s.name === 'hz')!.id)][0];
      const h = await callApi(api, 'getItem', { id: hzItem.id, run: 'H' });
      expect({ set: h.set, runs: h.predictions.map((p) => p.run) }).toEqual({ set: 'hz', runs: ['H'] });
    });

    it('a page past the last item is empty, with the total', async () => {
      const r = await dispatch(apiOf(), 'listItems', { set: 'ns', run: 'A', offset: items.length + 10 });
      expect(r).toEqual({ ok: true, value: { total: items.length, rows: [] } });
    });
  });

  describe('the dashboard', () => {
    it('breaks a horizon set down by horizon, and only a horizon set', async () => {
      const api = apiOf();
      const hz = await callApi(api, 'getRunScores', { set: 'hz', run: 'H' });
      expect(hz.by.horizon).toEqual(await callApi(api, 'getScores', { set: 'hz', run: 'H', by: 'horizon' }));
      expect(hz.by.horizon.length).toBeGreaterThan(2);
      expect((await callApi(api, 'getRunScores', { set: 'ns', run: 'A' })).by.horizon).toEqual([]);
    });

    it('seeds the pass@1 interval as `stepscope scores` does: by set, run and group', async () => {
      // Seven samples an item, right in varied shares: a bootstrap whose bounds another seed moves.
      run('ns', 'S', (it, i) =>
        Array.from({ length: 7 }, (_, j) => ((i * 5 + j * j) % 3 === 0 ? it.target : 'no state')),
      );
      const set = corpus.listEvalSets().find((s) => s.name === 'ns')!;
      const verdicts = corpus.itemVerdicts(corpus.getRun(set.id, 'S')!.id);
      const [iv] = await callApi(apiOf(), 'getScoreIntervals', { set: 'ns', run: 'S' });
      const seeded = pass1Interval(verdicts, ['ns', 'S', String(iv.group)])!;
      expect([iv.group, iv.lo, iv.hi]).toEqual([null, seeded[0], seeded[1]]);
      expect(pass1Interval(verdicts, ['another seed'])).not.toEqual(seeded); // the test can tell seeds apart
    });

    it("reads a run's verdicts again as predictions are added to it (as `stepscope predict` adds them)", async () => {
      const api = apiOf();
      const set = corpus.listEvalSets().find((s) => s.name === 'ns')!;
      // A run just started: no verdict yet, so no pass@1 and no interval.
      const id = corpus.saveRun(
        {
          setId: set.id,
          label: 'R',
          format: 'state',
          params: {},
          source: 'http://model.test',
          sourceHash: null,
          hashseed: 0,
        },
        [],
      );
      expect(await callApi(api, 'getScoreIntervals', { set: 'ns', run: 'R' })).toEqual([
        { group: null, lo: null, hi: null },
      ]);
      expect(
        (await callApi(api, 'getRunScores', { set: 'ns', run: 'R', interval: false })).by.action[0]['pass@1'],
      ).toBeNull();
      corpus.addPredictions(id, [newPrediction(items[0], 'next-state', 'state', 0, 'no state')]);
      expect(
        (await callApi(api, 'getRunScores', { set: 'ns', run: 'R', interval: false })).by.action[0]['pass@1'],
      ).toBe(0);
      corpus.addPredictions(
        id,
        items.slice(1).map((it) => newPrediction(it, 'next-state', 'state', 0, it.target)),
      );
      const after = await callApi(api, 'getRunScores', { set: 'ns', run: 'R', interval: false });
      expect(after.by.action[0]['pass@1']).toBeCloseTo((100 * (items.length - 1)) / items.length, 6);
    });

    it('lists the items of every field group', async () => {
      const api = apiOf();
      for (const group of ['event', 'src', 'locals', 'arg', 'all']) {
        const r = await dispatch(api, 'listGroupItems', { set: 'ns', run: 'A', by: 'field', group, limit: 1 });
        expect(r.ok, group).toBe(true);
        if (r.ok) expect(r.value.total, group).toBeGreaterThan(0);
      }
    });
  });

  describe('annotations and the model', () => {
    it('the annotation reads and writes answer, from tables built in the test', async () => {
      const api = apiOf();
      const q = await callApi(api, 'annotationQueue', { set: 'ns', run: 'A', annotator: 'ada' });
      expect(q.entries.length).toBeGreaterThan(2);
      const [first, second, third] = q.entries;
      expect(
        (await callApi(api, 'getAnnotationItem', { prediction: first.prediction, annotator: 'ada' })).prediction
          .prediction,
      ).toBe(first.prediction);
      await callApi(api, 'annotate', {
        target: { prediction: first.prediction },
        labels: ['format.unparseable'],
        annotator: 'ada',
      });
      const listed = await callApi(api, 'listAnnotations', { set: 'ns', run: 'A' });
      expect(listed.rows.map((r) => r.labels)).toEqual([['format.unparseable']]);
      expect(listed.counts).toMatchObject({ 'format.unparseable': 1 });
      expect(
        (await callApi(api, 'skipAnnotation', { target: { prediction: second.prediction }, annotator: 'ada' }))
          .annotator,
      ).toBe('ada');
      expect(
        (
          await callApi(api, 'adjudicate', {
            target: { prediction: third.prediction },
            labels: ['format.truncated'],
            annotator: 'dora',
          })
        ).labels,
      ).toEqual(['format.truncated']);
      expect((await callApi(api, 'getAgreement', { set: 'ns', run: 'A' })).annotators).toContain('ada');
      const t = await callApi(api, 'getTaxonomy', {});
      const renamed = await callApi(api, 'setTaxonomy', {
        taxonomy: { ...t, name: 'Renamed for a test', version: t.version + 1 },
        author: 'ada',
      });
      expect({ name: renamed.name, version: renamed.version }).toEqual({
        name: 'Renamed for a test',
        version: t.version + 1,
      });
    });

    it("askModel gives each answer's finish reason, and waits the timeout given in seconds, or the default", async () => {
      const api = apiOf();
      const v = vectors().find((x) => x.name === 'count-inverse-step-into')!;
      const entry = corpus.getEvents(traceOf(v)).find((e) => e.event === 'call' && e.func === v.entry_function)!.seq;
      const at = {
        traceId: traceOf(v),
        direction: v.direction,
        entry,
        actions: v.actions.slice(0, 2).map(formatAction),
      };
      const cut = await callApi(api, 'checkCompletions', { ...at, completions: [] });
      expect(cut.prompt.length).toBeGreaterThan(0);
      const r = await callApi(api, 'askModel', { ...at, endpoint: fake.url, model: 'debugger', timeoutSeconds: 5 });
      expect(r.answers.map((a) => [a.completion, a.finish])).toEqual([[cut.target, 'stop']]);
      const d = await dispatch(api, 'askModel', { ...at, endpoint: fake.url, model: 'debugger' });
      expect(d.ok || d.error).toBe(true);
      // A server slower than the timeout asked for: refused after it (twice: one retry), not after the default two
      // minutes.
      const slow = await startFakeModelServer({
        continuations: vectors().map((x) => x.text),
        faults: [{ fault: 'delay', ms: 1500, times: 2 }],
      });
      try {
        const late = await dispatch(api, 'askModel', {
          ...at,
          endpoint: slow.url,
          model: 'debugger',
          timeoutSeconds: 1,
        });
        expect(late.ok || late.error).toMatchObject({
          code: 'unavailable',
          message: expect.stringMatching(/within 1 ?s/),
        });
      } finally {
        await slow.close();
      }
    });
  });

  describe('export', () => {
    it('previews the rows of every split with nothing left out, exports over a folder in use when forced, and reports a failed export', async () => {
      const { db } = await corpusFileOf('stepscope-hgaps-export-', [
        { name: 'a', n: 3 },
        { name: 'b', n: 4 },
        { name: 'c', n: 5 },
      ]);
      const c = openCorpus(db, { readonly: true });
      try {
        const api = createApi(c);
        const p = await callApi(api, 'previewExport', {
          kind: 'traces',
          select: [],
          split: 'train=0.5,test=0.5',
          seed: 1,
        });
        const events = [...c.query('SELECT count(*) AS n FROM events')][0].n as number;
        expect(p.rows).toBe(events);
        expect(p.splits.reduce((s, x) => s + x.rows, 0)).toBe(events);
        expect(p.excluded).toEqual({ programs: 0, rows: 0, sets: [] });
        const until = async (job: number) => {
          let s = await callApi(api, 'exportProgress', { job });
          // At most 10 s: a job left running (a failure never written) fails the test instead of hanging it.
          for (let k = 0; s.state === 'running' && k < 500; k++) {
            await new Promise((r) => setTimeout(r, 20));
            s = await callApi(api, 'exportProgress', { job });
          }
          return s;
        };
        expect(
          (await until((await callApi(api, 'startExport', { kind: 'traces', select: [], folder: 'out' })).job)).state,
        ).toBe('done');
        const again = await callApi(api, 'startExport', { kind: 'traces', select: [], folder: 'out', force: true });
        expect(await until(again.job)).toMatchObject({ state: 'done', done: events, total: events });
        // The export's unfinished folder taken away under it: the job fails, saying why, and the earlier export stays.
        // Called directly, not awaited: the handler answers at once, so the folder goes before the export's first
        // write.
        const started = api.startExport({ kind: 'traces', select: [], folder: 'out', force: true }) as ExportJob;
        const root = dirname(started.path);
        for (const f of readdirSync(root)) if (f !== 'out') rmSync(join(root, f), { recursive: true, force: true });
        const failed = await until(started.job);
        expect(failed).toMatchObject({
          state: 'failed',
          path: started.path,
          error: expect.stringMatching(/^internal error: ENOENT/),
        });
        expect(existsSync(join(started.path, 'stepscope-export.json'))).toBe(true);
      } finally {
        c.close();
      }
    });
  });
});
