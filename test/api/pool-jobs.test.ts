// The contract's methods through the worker pool, where they run off the calling thread: the
// annotation writes go through the only writable connection and the reads see them at once; a
// background export is polled to its end on the worker that runs it; a model server that is
// slow to answer holds up no other method (not even the export's polls on the same worker).
import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { startPool, type WorkerPool } from '../../src/api/host/index.js';
import { formatAction } from '../../src/semantics/index.js';
import type { Corpus } from '../../src/store/corpus.js';
import { ensureBuilt } from '../cli/helpers.js';
import { corpusOf, vectors, vectorTraces } from '../predictions/helpers.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { startFakeModelServer, type FakeModelServer } from '../../scripts/fake-model-server.mjs';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';

let corpus: Corpus;
let pool: WorkerPool;
let fake: FakeModelServer;
/** Lets the fake model server answer the questions it holds. */
let release: () => void;
let traceId: number;

beforeAllOrFail(async () => {
  ensureBuilt();
  const vt = vectorTraces();
  ({ corpus } = await corpusOf(vt.traces, 'stepscope-pool-jobs-'));
  traceId = vt.traceOf(vectors()[0]);
  const held = new Promise<void>((r) => (release = r));
  fake = await startFakeModelServer({ answer: async () => (await held, '<garbage>') });
  pool = await startPool({ path: corpus.path });
});
afterAll(async () => {
  release();
  await pool.close();
  await fake.close();
  corpus.close();
  cleanTempDirs();
});

const call = async (m: string, p: unknown) => JSON.parse(new TextDecoder().decode(await pool.call(m, p)));

describe('the contract through the pool', () => {
  it('runs the annotation writes on the writable connection, and every read sees them at once', async () => {
    expect(pool.roles()).toContain('write');
    const a = await call('annotate', {
      target: { trace: traceId, seq: 0 },
      labels: ['other.other'],
      note: 'odd start',
      annotator: 'eve',
    });
    expect(a.ok).toBe(true);
    const listed = await call('listAnnotations', { annotator: 'eve' });
    expect(listed.value.rows.map((r: { id: number }) => r.id)).toEqual([a.value.id]);
    expect(listed.value.counts).toEqual({ 'other.other': 1 });
    expect((await call('annotationHistory', { annotator: 'eve' })).value).toHaveLength(1);
    const undone = await call('undoAnnotation', { annotator: 'eve' });
    expect(undone.value.undone.id).toBe(a.value.id);
    expect((await call('listAnnotations', { annotator: 'eve' })).value.rows).toEqual([]);
    // The stored rows are the store's, not a worker's copy.
    expect(corpus.annotationHistory({ who: 'eve' })).toHaveLength(2);
  });

  it('polls a background export to its end, while trace workers are busy with other calls', async () => {
    const started = await call('startExport', { kind: 'traces', select: [], folder: 'all' });
    expect(started.ok).toBe(true);
    const events = [...corpus.query('SELECT count(*) AS n FROM events')][0].n;
    let s = await call('exportProgress', { job: started.value.job });
    while (s.ok && s.value.state === 'running') {
      await Promise.all([call('getSkeleton', { traceId }), call('listTraces', {})]);
      s = await call('exportProgress', { job: started.value.job });
    }
    expect(s.value).toMatchObject({ state: 'done', done: events, total: events });
    expect(existsSync(started.value.path)).toBe(true);
    expect((await call('exportProgress', { job: started.value.job + 1 })).error.code).toBe('not-found');
  });

  it("answers every other method, the job worker's too, while a model server has not answered", async () => {
    let asked = false;
    const v = vectors()[0];
    const entry = corpus.getEvents(traceId).find((e) => e.event === 'call' && e.func === v.entry_function)!.seq;
    const at = { traceId, direction: v.direction, entry, actions: v.actions.slice(0, 1).map(formatAction) };
    const ask = call('askModel', { ...at, endpoint: fake.url, model: 'm' }).then((r) => ((asked = true), r));
    // The question reaches the server (and waits there) before the other calls are made.
    while (fake.stats.inFlight === 0) await new Promise((r) => setTimeout(r, 10));
    const others = await Promise.all([
      call('exportProgress', { job: 1 }),
      call('startExport', { kind: 'traces', select: [], folder: 'again' }),
      call('checkCompletions', { ...at, completions: ['x'] }),
      call('walk', { traceId, direction: v.direction, actions: ['step_into'] }),
      call('listTraces', {}),
      call('getTaxonomy', {}),
    ]);
    expect(others.map((r) => r.ok)).toEqual([true, true, true, true, true, true]);
    expect(asked).toBe(false);
    release();
    const r = await ask;
    expect(r.ok).toBe(true);
    expect(r.value.answers.map((x: { completion: string }) => x.completion)).toEqual(['<garbage>']);
  });
});
