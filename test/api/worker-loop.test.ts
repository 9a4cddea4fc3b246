// A worker's loop (src/api/host/worker-loop.ts) run in this thread over a MessageChannel: what
// the pool relies on from each worker. It starts (or says why not, in the store's words),
// answers each call with the API's bytes, one at a time unless it is the job worker, reports
// what its trace cache loaded and dropped, drops a trace when told, and answers the bytes
// form without giving away a buffer it does not own. (test/api/pool.test.ts runs the same
// loop in real worker threads, from dist/.)
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApi } from '../../src/api/handlers/index.js';
import type { FromWorker, ToWorker, WorkerConfig } from '../../src/api/host/protocol.js';
import { serveWorker } from '../../src/api/host/worker-loop.js';
import { openCorpus } from '../../src/store/corpus.js';
import { cleanTempDirs, tempDir, writeTraces } from '../store/fixtures.js';
import { given, shared } from './fixtures/loop-api.js';

const loopApi = resolve(import.meta.dirname, 'fixtures/loop-api.ts');
/** An API with no bytes form at all (pool.test.ts's, call by call). */
const noBytesApi = resolve(import.meta.dirname, 'fixtures/pool-api.mjs');
let dir: string;
let db: string;
const open: MessagePort[] = [];

beforeAll(async () => {
  dir = tempDir('stepscope-worker-loop-');
  db = join(dir, 'c.db');
  const c = openCorpus(db, { create: true });
  await c.ingest(
    writeTraces(dir, 't.jsonl', [
      { name: 'a', n: 400 },
      { name: 'b', n: 400 },
    ]),
  );
  c.close();
});
afterEach(() => {
  for (const p of open.splice(0)) p.close();
});
afterAll(cleanTempDirs);

type Answer = Extract<FromWorker, { type: 'answer' }>;

/** A loop on one end of a channel; the test holds the other end. */
function worker(config: Partial<WorkerConfig> = {}) {
  const { port1, port2 } = new MessageChannel();
  open.push(port1, port2);
  const inbox: FromWorker[] = [];
  let wake: (() => void) | null = null;
  port2.on('message', (m: FromWorker) => {
    inbox.push(m);
    wake?.();
  });
  void serveWorker({ path: db, access: 'read', cacheBytes: 2 ** 30, ...config }, port1);
  const next = async (): Promise<FromWorker> => {
    while (inbox.length === 0) await new Promise<void>((r) => (wake = r));
    return inbox.shift()!;
  };
  let id = 0;
  return {
    next,
    post: (m: ToWorker) => port2.postMessage(m),
    /** Sends a call; its id. */
    call(method: string, params: unknown, bytes?: boolean): number {
      port2.postMessage({ type: 'call', id: ++id, method, params, ...(bytes ? { bytes } : {}) });
      return id;
    },
    async answer(): Promise<Answer> {
      const m = await next();
      if (m.type !== 'answer') throw new Error(`expected an answer, got ${JSON.stringify(m)}`);
      return m;
    },
  };
}

const json = (a: Answer) => JSON.parse(new TextDecoder().decode(a.body));

describe("a pool worker's loop", () => {
  it('says it is ready, then answers a call with the JSON the API gives in-process, in a buffer of its own', async () => {
    const w = worker();
    expect(await w.next()).toEqual({ type: 'ready' });
    const id = w.call('listTraces', {});
    const a = await w.answer();
    expect(a.id).toBe(id);
    expect(a.bytes).toBe(false);
    const c = openCorpus(db, { readonly: true });
    try {
      expect(json(a)).toEqual({ ok: true, value: JSON.parse(JSON.stringify(await createApi(c).listTraces({}))) });
    } finally {
      c.close();
    }
    expect(a.body.byteOffset).toBe(0);
    expect(a.body.byteLength).toBe(a.body.buffer.byteLength);
  });

  it('answers bad params and unknown methods as the API does, and goes on answering', async () => {
    const w = worker();
    await w.next();
    w.call('getSkeleton', { traceId: 'one' });
    expect(json(await w.answer())).toMatchObject({ ok: false, error: { code: 'bad-input' } });
    w.call('noSuchMethod', {});
    expect(json(await w.answer())).toEqual({
      ok: false,
      error: { code: 'bad-input', message: 'unknown API method "noSuchMethod"' },
    });
    w.call('getSkeleton', { traceId: 1 });
    expect(json(await w.answer())).toMatchObject({ ok: true });
  });

  it("a corpus that cannot be opened: `failed` with the store's words and code, no ready", async () => {
    const missing = join(dir, 'missing.db');
    const w = worker({ path: missing });
    const m = await w.next();
    expect(m.type).toBe('failed');
    const { error } = m as Extract<FromWorker, { type: 'failed' }>;
    expect(error.code).not.toBe('internal');
    expect(error.message).toContain(missing);

    const junk = join(dir, 'junk.db');
    writeFileSync(junk, 'not a database');
    const j = await worker({ path: junk }).next();
    expect(j).toMatchObject({ type: 'failed', error: { message: expect.stringContaining(junk) } });
  });

  it('a write worker for an API without write methods fails to start, as an internal error that says so', async () => {
    const m = await worker({ access: 'write', apiModule: loopApi }).next();
    expect(m).toEqual({
      type: 'failed',
      error: {
        code: 'internal',
        message: 'cannot start an API worker: a write worker started for an API without write methods',
      },
    });
  });

  it("a write worker runs the contract's writes and nothing else", async () => {
    const w = worker({ access: 'write' });
    expect(await w.next()).toEqual({ type: 'ready' });
    w.call('listTraces', {});
    expect(json(await w.answer())).toEqual({
      ok: false,
      error: { code: 'internal', message: 'listTraces failed: no handler for listTraces here' },
    });
  });

  it('runs calls one at a time, in the order they came', async () => {
    const w = worker({ apiModule: loopApi });
    await w.next();
    const slow = w.call('wait', { ms: 150, tag: 'slow' });
    const quick = w.call('wait', { ms: 0, tag: 'quick' });
    const first = await w.answer();
    const second = await w.answer();
    expect([first.id, second.id]).toEqual([slow, quick]);
    expect([json(first).value, json(second).value]).toEqual(['slow', 'quick']);
  });

  it('the job worker (concurrent) answers each call when it is done, a slow one holding up no other', async () => {
    const w = worker({ apiModule: loopApi, concurrent: true });
    await w.next();
    const slow = w.call('wait', { ms: 150, tag: 'slow' });
    const quick = w.call('wait', { ms: 0, tag: 'quick' });
    expect((await w.answer()).id).toBe(quick);
    expect((await w.answer()).id).toBe(slow);
  });

  it('reports the trace a call loaded, nothing for one already held, and what it dropped to make room', async () => {
    const w = worker();
    await w.next();
    w.call('getSkeleton', { traceId: 1 });
    const first = await w.answer();
    expect(first.loaded).toEqual({ traceId: 1, bytes: expect.any(Number) });
    expect(first.loaded!.bytes).toBeGreaterThan(0);
    expect(first.dropped).toEqual([]);
    w.call('getSkeleton', { traceId: 1 });
    const again = await w.answer();
    expect(again.loaded).toBeUndefined();
    expect(again.dropped).toBeUndefined();

    // Room for one of the two traces: loading the second drops the first.
    const small = worker({ cacheBytes: Math.ceil(first.loaded!.bytes * 1.5) });
    await small.next();
    small.call('getSkeleton', { traceId: 1 });
    await small.answer();
    small.call('getSkeleton', { traceId: 2 });
    const b = await small.answer();
    expect(b.loaded?.traceId).toBe(2);
    expect(b.dropped).toEqual([1]);
  });

  it('drops a trace when the pool says so: the next call on it loads it again', async () => {
    const w = worker();
    await w.next();
    w.call('getSkeleton', { traceId: 1 });
    expect((await w.answer()).loaded?.traceId).toBe(1);
    w.post({ type: 'drop', traceId: 1 });
    const id = w.call('getSkeleton', { traceId: 1 });
    const a = await w.answer();
    expect(a.id).toBe(id);
    expect(a.loaded?.traceId).toBe(1);
  });

  it('answers the bytes form with the bytes themselves, copied out of a buffer the handler keeps', async () => {
    const w = worker({ apiModule: loopApi });
    await w.next();
    w.call('view', {}, true);
    const a = await w.answer();
    expect(a.bytes).toBe(true);
    expect([...a.body]).toEqual([1, 2, 3]);
    // Transferred whole, the handler's buffer would be emptied (detached) here.
    expect([...shared]).toEqual([1, 2, 3, 9, 9, 9]);
    // A method without a bytes form: the JSON of the failure.
    w.call('listTraces', {}, true);
    const f = await w.answer();
    expect(f.bytes).toBe(false);
    expect(json(f)).toEqual({
      ok: false,
      error: { code: 'internal', message: 'listTraces failed: no handler for listTraces here' },
    });
  });

  it("hands over a bytes answer that owns its buffer, without copying it: the handler's array is left empty", async () => {
    const w = worker({ apiModule: loopApi });
    await w.next();
    w.call('whole', {}, true);
    const a = await w.answer();
    expect([a.bytes, ...a.body]).toEqual([true, 4, 5, 6]);
    // Moved (transferred), not copied: a trace's bytes are not held twice while they cross.
    expect(given.last!.byteLength).toBe(0);
  });

  it('serves an API without a bytes form, answering its calls', async () => {
    const w = worker({ apiModule: noBytesApi });
    expect(await w.next()).toEqual({ type: 'ready' });
    w.call('who', {});
    expect(json(await w.answer())).toMatchObject({ ok: true, value: { drops: [] } });
  });

  it('a write worker, which holds no trace, ignores a drop and goes on answering', async () => {
    const w = worker({ access: 'write' });
    await w.next();
    w.post({ type: 'drop', traceId: 1 });
    w.call('listTraces', {});
    expect(json(await w.answer())).toMatchObject({
      ok: false,
      error: { message: 'listTraces failed: no handler for listTraces here' },
    });
  });
});
