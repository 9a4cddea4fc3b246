// The API's worker pool (src/api/host/): answers as the API does, holds each trace once and
// keeps all workers' traces within one budget, survives a worker's death, and opens a writable
// connection only for write methods (tested with a fake module: the contract's writes are the
// annotation methods, tested in pool-jobs.test.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApi, dispatch, type ApiModule } from '../../src/api/handlers/index.js';
import { startPool, type WorkerPool } from '../../src/api/host/index.js';
import { openCorpus } from '../../src/store/corpus.js';
import { ensureBuilt } from '../cli/helpers.js';
import { cleanTempDirs, tempDir, writeTraces } from '../store/fixtures.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';

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
  await c.ingest(writeTraces(dir, 't.jsonl', [{ name: 'a', n: 400 }, { name: 'b', n: 400 }, { name: 'c', n: 3 }]));
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
    expect(r.error.message).toMatch(/^trace 1 has 806 events, about \d+ MiB in memory: over the 1 MiB this explorer may hold\. Start it with a larger budget \(`stepscope serve --cache-mb N`\)/);
    expect(p.heldTraces()).toEqual([]);
    expect(json(await p.call('getSkeleton', { traceId: 3 })).ok).toBe(true);
  });

  it('answers the calls of a worker that died `unavailable`, and serves the next ones', async () => {
    const p = await fake();
    const r = json(await p.call('crash', {}));
    expect(r).toEqual({ ok: false, error: { code: 'unavailable', message: 'crash: the worker running it stopped (it exited with code 3); try again, a new one will start.' } });
    expect(json(await p.call('listTraces', {})).value.total).toBe(3);
    expect(json(await p.call('crash', {})).error.code).toBe('unavailable');
    expect(json(await p.call('getSkeleton', { traceId: 3 })).ok).toBe(true);
  });

  it.runIf(process.platform === 'linux')('runs its trace and job workers at a lower CPU priority than the thread that answers clients', async () => {
    const niceOf = () => readdirSync('/proc/self/task').map((t) => Number(readFileSync(`/proc/self/task/${t}/stat`, 'utf8').split(') ')[1].split(' ')[16]));
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
  });

  it('refuses a corpus it cannot open with the store\'s words', async () => {
    await expect(pool({ path: join(db, '..', 'none.db') })).rejects.toMatchObject({ code: 'not-found', message: expect.stringMatching(/none\.db does not exist/) });
  });
});

describe('read and write connections', () => {
  it('a module with no write method gets no writable connection; the contract gets one, and a job worker', async () => {
    const reads = await pool({ api: { file: fakeFile, module: { ...fakeModule, methods: Object.fromEntries(Object.entries(fakeModule.methods).filter(([, m]) => m.access === 'read')) } } });
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
