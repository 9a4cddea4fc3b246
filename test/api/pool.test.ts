// The API's worker pool (src/api/host/): answers as the API does, holds each trace once and
// keeps all workers' traces within one budget, survives a worker's death, and opens a writable
// connection only for write methods (tested with a fake module: the contract's writes are the
// annotation methods, tested in pool-jobs.test.ts); and, call by call over a fake API that says
// who ran each call, its routing, its budget and a closed pool.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApi, dispatch, type ApiModule } from '../../src/api/handlers/index.js';
import { startPool, type WorkerPool } from '../../src/api/host/index.js';
import { openCorpus } from '../../src/store/corpus.js';
import { ensureBuilt } from '../cli/helpers.js';
import { cleanTempDirs, tempDir, writeTraces } from '../store/fixtures.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';
import { decodeSkeleton, decodeSkeletonBytes } from '../../src/contract/index.js';

const fakeFile = resolve(import.meta.dirname, 'fixtures/write-api.mjs');
let db: string;
const pools: WorkerPool[] = [];

/**
 * The fake API's module, imported once dist/ is built, here rather than in a test: Stryker
 * counts what runs while no test is running as static coverage. Imported by a test, the
 * compiled contract it loads (built from the sandbox's mutated src/) made every module-level
 * mutant of src/contract "covered" by that one test, which never reads the method tables,
 * so those mutants were run against it alone and reported as survivors.
 */
let fakeModule: ApiModule;

beforeAllOrFail(async () => {
  ensureBuilt();
  fakeModule = ((await import(fakeFile)) as { apiModule: ApiModule }).apiModule;
  const dir = tempDir('stepscope-pool-');
  db = join(dir, 'c.db');
  const c = openCorpus(db, { create: true });
  await c.ingest(
    writeTraces(dir, 't.jsonl', [
      { name: 'a', n: 400 },
      { name: 'b', n: 400 },
      { name: 'c', n: 3 },
    ]),
  );
  c.close();
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
  cleanTempDirs();
});

async function pool(o: Partial<Parameters<typeof startPool>[0]> = {}): Promise<WorkerPool> {
  const p = await startPool({ path: db, ...o });
  pools.push(p);
  return p;
}

const fake = async () => pool({ api: { file: fakeFile, module: fakeModule } });
const json = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes));
/** A walk to the end of a trace (a breakpoint on no line): every window of its events is read. */
const whole = (traceId: number) => ({ traceId, direction: 'forward', actions: ['breakpoint pass  # on no line'] });

describe('worker pool', () => {
  it('answers every method as the API does in-process', async () => {
    const p = await pool();
    const c = openCorpus(db, { readonly: true });
    const api = createApi(c);
    try {
      const calls: [string, unknown][] = [
        ['listTraces', { sort: 'name' }],
        ['getTrace', { id: 2 }],
        ['getEvents', { traceId: 1, from: 3, to: 9 }],
        ['getSkeleton', { traceId: 3 }],
        ['walk', { traceId: 1, direction: 'forward', actions: ['step_into', 'step_over', 'step_over'] }],
        ['findInTrace', { traceId: 1, text: 'acc' }],
        ['listTrajectories', { traceId: 1 }],
        ['getTrace', { id: 99 }],
        ['walk', { traceId: 1, direction: 'forward', actions: ['jump'] }],
        ['dropTable', {}],
      ];
      for (const [m, params] of calls) expect(json(await p.call(m, params)), m).toEqual(await dispatch(api, m, params));
    } finally {
      c.close();
    }
  });

  it('sends every call on one trace to one worker, which loads it once', async () => {
    const p = await pool();
    await Promise.all([
      p.call('getSkeleton', { traceId: 1 }),
      p.call('walk', { traceId: 1, direction: 'forward', actions: ['step_into'] }),
      p.call('findInTrace', { traceId: 1, text: '7' }),
      p.call('getSkeleton', { traceId: 1 }),
    ]);
    expect(p.heldTraces().map((h) => h.traceId)).toEqual([1]);
  });

  it('keeps the traces of all workers within one budget, dropping the least recently used', async () => {
    const probe = await pool();
    await probe.call('walk', whole(1));
    const [{ bytes }] = probe.heldTraces();
    // Room for one of the two equal traces read whole, not both: read at once, they land on two workers.
    const p = await pool({ cacheBytes: Math.floor(bytes * 1.9) });
    const answers = await Promise.all([p.call('walk', whole(1)), p.call('walk', whole(2))]);
    for (const a of answers) expect(json(a).ok).toBe(true);
    const held = p.heldTraces();
    expect(held).toHaveLength(1);
    expect(held[0].bytes).toBeLessThanOrEqual(bytes * 1.9);
    // The one dropped is loaded again when asked for, and the other then goes.
    const other = held[0].traceId === 1 ? 2 : 1;
    expect(json(await p.call('walk', whole(other))).ok).toBe(true);
    expect(p.heldTraces().map((h) => h.traceId)).toEqual([other]);
  });

  it('loads a trace on the idle worker holding least, and reads a small trace again on an idle worker rather than queue it behind another load', async () => {
    const p = await pool();
    const where = () => Object.fromEntries(p.heldTraces().map((h) => [h.traceId, h.worker]));
    await p.call('getSkeleton', { traceId: 3 });
    await p.call('getSkeleton', { traceId: 2 });
    const { 3: a, 2: b } = where();
    expect(a).not.toBe(b); // trace 2 went to the worker holding nothing
    // Trace 1 goes to the worker holding least (the 3-event trace's); while it loads there,
    // trace 3 is read again by the other worker, and the first copy is dropped.
    const answers = await Promise.all([p.call('getSkeleton', { traceId: 1 }), p.call('getSkeleton', { traceId: 3 })]);
    for (const r of answers) expect(json(r).ok).toBe(true);
    expect(where()).toEqual({ 1: a, 2: b, 3: b });
  });

  it('stops reading a trace once it passes the budget, and refuses it saying how to raise the budget', async () => {
    const p = await pool({ cacheBytes: 100_000 });
    const r = json(await p.call('walk', whole(1)));
    expect(r.ok).toBe(false);
    expect(r.error.code).toBe('unavailable');
    expect(r.error.message).toMatch(
      /^trace 1 has 806 events, about \d+ MiB in memory: over the 1 MiB this explorer may hold\. Start it with a larger budget \(`stepscope serve --cache-mb N`\)/,
    );
    expect(p.heldTraces()).toEqual([]);
    expect(json(await p.call('getSkeleton', { traceId: 3 })).ok).toBe(true);
  });

  it('answers the calls of a worker that died `unavailable`, and serves the next ones', async () => {
    const p = await fake();
    const r = json(await p.call('crash', {}));
    expect(r).toEqual({
      ok: false,
      error: {
        code: 'unavailable',
        message: 'crash: the worker running it stopped (it exited with code 3); try again, a new one will start.',
      },
    });
    expect(json(await p.call('listTraces', {})).value.total).toBe(3);
    expect(json(await p.call('crash', {})).error.code).toBe('unavailable');
    expect(json(await p.call('getSkeleton', { traceId: 3 })).ok).toBe(true);
  });

  it.runIf(process.platform === 'linux')(
    'runs its trace and job workers at a lower CPU priority than the thread that answers clients',
    async () => {
      const niceOf = () =>
        readdirSync('/proc/self/task').map((t) =>
          Number(readFileSync(`/proc/self/task/${t}/stat`, 'utf8').split(') ')[1].split(' ')[16]),
        );
      // Relative to this thread's own (the suite may itself run under `nice`): 10 lower, at most 19.
      const base = niceOf()[0];
      const low = Math.min(19, base + 10);
      expect(low).toBeGreaterThan(base); // under `nice -n 19` there is no lower priority to test
      const before = niceOf().filter((n) => n === low).length;
      const p = await startPool({ path: db });
      // Two trace workers and the job worker yield; this thread, the quick and the write worker do not.
      expect(niceOf().filter((n) => n === low).length - before).toBe(3);
      expect(niceOf()[0]).toBe(base);
      await p.close();
      expect(niceOf().filter((n) => n === low).length).toBe(before);
    },
  );

  it("refuses a corpus it cannot open with the store's words", async () => {
    await expect(pool({ path: join(db, '..', 'none.db') })).rejects.toMatchObject({
      code: 'not-found',
      message: expect.stringMatching(/none\.db does not exist/),
    });
  });
});

describe('read and write connections', () => {
  it('a module with no write method gets no writable connection; the contract gets one, and a job worker', async () => {
    const reads = await pool({
      api: {
        file: fakeFile,
        module: {
          ...fakeModule,
          methods: Object.fromEntries(Object.entries(fakeModule.methods).filter(([, m]) => m.access === 'read')),
        },
      },
    });
    expect(reads.roles()).toEqual(['quick', 'trace', 'trace']);
    expect((await pool()).roles()).toEqual(['quick', 'trace', 'trace', 'job', 'write']);
  });

  it('with a write method, one worker holds the only writable connection and runs only those', async () => {
    const p = await fake();
    expect(p.roles()).toEqual(['quick', 'trace', 'trace', 'write']);
    const saved = json(await p.call('saveNote', { traceId: 3, text: 'looks wrong' }));
    expect(saved.ok).toBe(true);
    const listed = json(await p.call('listTrajectories', { traceId: 3 }));
    expect(listed.value.rows.map((r: { id: number }) => r.id)).toEqual([saved.value.id]);
    // The same write from a read worker is refused by its read-only connection.
    const refused = json(await p.call('saveNoteHere', { traceId: 3, text: 'sneaky' }));
    expect(refused.error.code).toBe('read-only');
    expect(json(await p.call('listTrajectories', { traceId: 3 })).value.total).toBe(1);
  });
});

// The pool's routing and cache accounting (src/api/host/pool.ts), call by call, over a fake API
// whose answers say which worker ran them and whose trace methods report the sizes a test sets
// (fixtures/pool-api.mjs): a call on a trace goes where the trace is or is being loaded, so no
// trace is loaded twice; a small one is read again rather than queued behind another trace's
// load; the sum held keeps to the budget, least recently used out; a dead worker's traces are
// forgotten; a closed pool starts nothing. And the bytes form of a call (callBytes) over the
// contract's API. Routing is decided when a call is made, from the calls then in flight, so calls
// made together in one tick are routed in a known order. Each test starts its own pool: the
// routing state of one must not leak into the next. After the tests above, whose thread counts
// a pool still open here would change.
describe('routing, the budget and closing, call by call', () => {
  const fakeFile = resolve(import.meta.dirname, 'fixtures/pool-api.mjs');
  let fakeModule: ApiModule;
  let dir: string;
  let db: string;
  const pools: WorkerPool[] = [];

  beforeAllOrFail(async () => {
    ensureBuilt(); // the pool's workers run the compiled dist/api/host/worker.js
    fakeModule = ((await import(fakeFile)) as { apiModule: ApiModule }).apiModule;
    dir = tempDir('stepscope-pool-calls-');
    db = join(dir, 'c.db');
    const c = openCorpus(db, { create: true });
    await c.ingest(
      writeTraces(dir, 't.jsonl', [
        { name: 'a', n: 40 },
        { name: 'b', n: 3 },
      ]),
    );
    c.close();
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
    cleanTempDirs();
  });

  /** A pool over the fake API: a quick and two trace workers, and a job worker when `jobs`. */
  async function fakePool(o: { jobs?: boolean; cacheBytes?: number } = {}): Promise<WorkerPool> {
    const module = o.jobs ? fakeModule : { ...fakeModule, jobMethods: undefined };
    const p = await startPool({ path: db, cacheBytes: o.cacheBytes, api: { file: fakeFile, module } });
    pools.push(p);
    return p;
  }

  const json = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes));

  /** What the fake API answers: who ran the call. */
  interface Who {
    thread: number;
    nice: number | null;
    /** The traces the pool asked this worker to drop, so far. */
    drops: number[];
    /** holdOn, jobHold: the file appeared before the wait gave up. */
    released?: boolean;
  }

  /** Makes the call at once (routing it now), resolves to who answered it. */
  async function ask(p: WorkerPool, method: string, params: object = {}): Promise<Who> {
    const r = json(await p.call(method, params));
    if (!r.ok) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
    return r.value as Who;
  }

  let files = 0;
  /** A file that does not exist yet; write it to end the waits on it. */
  const releaseFile = () => join(dir, `release-${files++}`);
  const release = (file: string) => writeFileSync(file, '');

  const ids = (p: WorkerPool) => p.heldTraces().map((h) => h.traceId);

  describe('routing calls to workers', () => {
    it('runs a read on the quick worker, at full priority, and on a trace worker while the quick one is busy', async () => {
      const p = await fakePool();
      const [first, second] = await Promise.all([ask(p, 'who'), ask(p, 'who')]);
      const onTrace = await ask(p, 'whoOn', { traceId: 1 });
      expect(second.thread).not.toBe(first.thread);
      // The first read's worker is the one that loads no trace.
      expect(onTrace.thread).not.toBe(first.thread);
      if (process.platform === 'linux') {
        const here = Number(readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ')[16]);
        expect(first.nice).toBe(here);
        expect([second.nice, onTrace.nice]).toEqual([Math.min(19, here + 10), Math.min(19, here + 10)]);
      }
    });

    it('sends every call on a trace to the worker running one on it, also once the trace is loaded there', async () => {
      const p = await fakePool();
      const file = releaseFile();
      const loading = ask(p, 'whoOn', { traceId: 1, bytes: 100 });
      const held = ask(p, 'holdOn', { traceId: 1, file });
      const loaded = await loading;
      // Trace 1 is now held by that worker, which is still busy with the second call.
      const third = ask(p, 'whoOn', { traceId: 1 });
      release(file);
      const [h, t] = await Promise.all([held, third]);
      expect([h.thread, t.thread]).toEqual([loaded.thread, loaded.thread]);
      expect(h.released).toBe(true);
      expect(p.heldTraces()).toHaveLength(1);
    });

    it('sends a call on a held trace to its worker when that one is idle, not to the worker holding least', async () => {
      const p = await fakePool();
      const one = await ask(p, 'whoOn', { traceId: 1, bytes: 100 });
      const two = await ask(p, 'whoOn', { traceId: 2, bytes: 10 });
      expect(two.thread).not.toBe(one.thread); // a new trace goes to the idle worker holding least
      expect((await ask(p, 'whoOn', { traceId: 1 })).thread).toBe(one.thread);
      expect(ids(p)).toEqual([2, 1]);
    });

    it('reads a small trace again on an idle worker rather than queue it behind another trace, after overlapping calls on it too, and drops the first copy', async () => {
      const p = await fakePool();
      const a = await ask(p, 'whoOn', { traceId: 1, bytes: 100 });
      await ask(p, 'whoOn', { traceId: 2, bytes: 200 });
      // Two calls at once on trace 3: both where it loads (the worker holding least, a's).
      const [x, y] = await Promise.all([ask(p, 'whoOn', { traceId: 3, bytes: 1 }), ask(p, 'whoOn', { traceId: 3 })]);
      expect([x.thread, y.thread]).toEqual([a.thread, a.thread]);
      // a's worker busy on trace 1: trace 3 is read again by the idle one.
      const file = releaseFile();
      const hold = ask(p, 'holdOn', { traceId: 1, file });
      const again = await ask(p, 'whoOn', { traceId: 3, bytes: 1 });
      release(file);
      expect(again.thread).not.toBe(a.thread);
      expect((await hold).released).toBe(true);
      // a's worker was told to let its copy go (seen by its next call: messages arrive in order).
      const next = await ask(p, 'whoOn', { traceId: 1 });
      expect([next.thread, next.drops]).toEqual([a.thread, [3]]);
      expect(p.heldTraces().filter((t) => t.traceId === 3)).toHaveLength(1);
    });

    it('queues a call behind the worker holding its trace when reading it again would not be sooner: a trace of 16 MiB or more, or no idle worker', async () => {
      const p = await fakePool();
      const a = await ask(p, 'whoOn', { traceId: 1, bytes: 16 * 2 ** 20 });
      const b = await ask(p, 'whoOn', { traceId: 2, bytes: 32 * 2 ** 20 });
      // Two small traces, on a's worker (it holds less).
      for (const traceId of [3, 5]) expect((await ask(p, 'whoOn', { traceId, bytes: 1 })).thread).toBe(a.thread);
      const file = releaseFile();
      const holds = [ask(p, 'holdOn', { traceId: 3, file })];
      const big = ask(p, 'whoOn', { traceId: 1 }); // a's worker is busy, b's idle: still a's
      // Now no trace worker is idle (a's has 2 calls, b's 1): the small trace 5 waits for a's too,
      // and a trace held by none goes to the least busy.
      holds.push(ask(p, 'holdOn', { traceId: 2, file }));
      const small = ask(p, 'whoOn', { traceId: 5 });
      const fresh = ask(p, 'whoOn', { traceId: 4 });
      release(file);
      expect((await big).thread).toBe(a.thread);
      expect((await small).thread).toBe(a.thread);
      expect((await fresh).thread).toBe(b.thread);
      for (const h of await Promise.all(holds)) expect(h.released).toBe(true);
    });

    it("runs the job worker's calls concurrently: a waiting job holds up no other", async () => {
      const p = await fakePool({ jobs: true });
      const file = releaseFile();
      const hold = ask(p, 'jobHold', { file });
      await ask(p, 'jobRelease', { file });
      expect((await hold).released).toBe(true);
    });
  });

  describe('the cache budget over all workers', () => {
    it('keeps the sum held within the budget, up to it exactly, dropping the least recently used first and no more', async () => {
      const p = await fakePool({ cacheBytes: 300 });
      await ask(p, 'whoOn', { traceId: 1, bytes: 100 });
      await ask(p, 'whoOn', { traceId: 2, bytes: 100 });
      await ask(p, 'whoOn', { traceId: 1 }); // used again: trace 2 is now the least recently used
      await ask(p, 'whoOn', { traceId: 3, bytes: 100 });
      expect(ids(p)).toEqual([2, 1, 3]); // 300 bytes: the budget exactly
      await ask(p, 'whoOn', { traceId: 4, bytes: 100 });
      expect(ids(p)).toEqual([1, 3, 4]);
    });

    it("forgets a trace its worker let go, and only that worker's", async () => {
      const p = await fakePool();
      const a = await ask(p, 'whoOn', { traceId: 1, bytes: 100 });
      const b = await ask(p, 'whoOn', { traceId: 2, bytes: 200 });
      // b's worker says it let trace 1 go (a copy it had): a's copy is still held.
      expect((await ask(p, 'whoOn', { traceId: 2, dropped: [1] })).thread).toBe(b.thread);
      expect(ids(p)).toEqual([1, 2]);
      // a's worker loads trace 3 and lets trace 1 go to make room.
      expect((await ask(p, 'whoOn', { traceId: 3, bytes: 100, dropped: [1] })).thread).toBe(a.thread);
      expect(ids(p)).toEqual([2, 3]);
    });

    it("forgets what a dead worker held, and what it was running, but not the others'", async () => {
      const p = await fakePool();
      const a = await ask(p, 'whoOn', { traceId: 1, bytes: 100 });
      const b = await ask(p, 'whoOn', { traceId: 2, bytes: 200 });
      const file = releaseFile();
      const hold = ask(p, 'holdOn', { traceId: 2, file });
      const crashed = json(await p.call('crashOn', { traceId: 1 }));
      expect(crashed.error.code).toBe('unavailable');
      expect(ids(p)).toEqual([2]);
      // Trace 2 still has a call running on b's worker: the next one goes there too.
      const next = ask(p, 'whoOn', { traceId: 2 });
      release(file);
      expect((await next).thread).toBe(b.thread);
      expect((await hold).released).toBe(true);
      // A new worker takes trace 1.
      const again = await ask(p, 'whoOn', { traceId: 1, bytes: 100 });
      expect([a.thread, b.thread]).not.toContain(again.thread);
      expect(ids(p)).toEqual([2, 1]);
    });
  });

  describe('closing, and the bytes form', () => {
    it('answers a call made after close `unavailable`, starting no worker', async () => {
      const p = await fakePool();
      await p.close();
      expect(json(await p.call('who', {}))).toEqual({
        ok: false,
        error: { code: 'unavailable', message: 'who: the explorer is closing' },
      });
      expect(json(await p.call('whoOn', { traceId: 1 })).error.code).toBe('unavailable');
    });

    it('answers a bytes method as raw bytes, anything else and every failure as the JSON of the call, and nothing once closed', async () => {
      const p = await startPool({ path: db });
      pools.push(p);
      const raw = await p.callBytes('getSkeleton', { traceId: 1 });
      expect(raw.bytes).toBe(true);
      const asJson = json(await p.call('getSkeleton', { traceId: 1 }));
      expect(decodeSkeletonBytes(raw.body)).toEqual(decodeSkeleton(asJson.value));
      const same = async (method: string, params: unknown) => {
        const r = await p.callBytes(method, params);
        expect(r.bytes, method).toBe(false);
        expect(json(r.body), method).toEqual(json(await p.call(method, params)));
        return json(r.body);
      };
      expect((await same('listTraces', {})).value.total).toBe(2);
      expect((await same('getSkeleton', { traceId: 99 })).error.code).toBe('not-found');
      expect((await same('getSkeleton', { traceId: 'one' })).error.code).toBe('bad-input');
      await p.close();
      const closed = await p.callBytes('getSkeleton', { traceId: 1 });
      expect({ ...closed, body: json(closed.body) }).toEqual({
        bytes: false,
        body: { ok: false, error: { code: 'unavailable', message: 'getSkeleton: the explorer is closing' } },
      });
    });
  });
});
